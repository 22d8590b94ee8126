import CSystemd
import Glibc

/// Reads back entries from the systemd journal with `sd_journal_open`: which values of one field are there.
///
/// The journal is written asynchronously: an entry sent just before a crash may not be in the files yet when
/// the next process looks. ``values(of:among:syncedBy:timeoutMilliseconds:)`` therefore first waits until an
/// entry sent after them (the caller's marker) is readable: journald writes what one socket sends in order,
/// so once the marker is there, everything sent before it is too. When the marker never shows (a volatile
/// journal the user may not read, no journald at all), the answer is nil: the journal cannot tell.
public struct JournalReader: Sendable {
    public init() {}

    /// Which of `values` appear in some entry's `field`, once the entry with `marker` (`FIELD=value`) can be
    /// read; nil when it cannot be read within the time limit (the journal cannot be read back).
    public func values(of field: String, among values: Set<String>, syncedBy marker: String, timeoutMilliseconds: Int) -> Set<String>? {
        var handle: OpaquePointer?
        guard sd_journal_open(&handle, Int32(SD_JOURNAL_LOCAL_ONLY)) >= 0, let journal = handle else { return nil }
        defer { sd_journal_close(journal) }
        guard Self.waitFor(marker, in: journal, timeoutMilliseconds: timeoutMilliseconds) else { return nil }
        var found: Set<String> = []
        for value in values {
            sd_journal_flush_matches(journal)
            guard Self.addMatch("\(field)=\(value)", to: journal) else { return nil }
            sd_journal_seek_head(journal)
            if sd_journal_next(journal) > 0 { found.insert(value) }
        }
        return found
    }

    /// Waits until an entry with `match` is readable.
    private static func waitFor(_ match: String, in journal: OpaquePointer, timeoutMilliseconds: Int) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let deadline = Int(now.tv_sec) * 1000 + now.tv_nsec / 1_000_000 + timeoutMilliseconds
        while true {
            sd_journal_flush_matches(journal)
            guard addMatch(match, to: journal) else { return false }
            sd_journal_seek_head(journal)
            if sd_journal_next(journal) > 0 { return true }
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = deadline - (Int(now.tv_sec) * 1000 + now.tv_nsec / 1_000_000)
            guard left > 0 else { return false }
            // Returns when the journal files change (or were added), or after at most 100 ms: a file that
            // appears in a directory the process could not watch before is noticed as well.
            _ = sd_journal_wait(journal, UInt64(min(left, 100)) * 1000)
        }
    }

    private static func addMatch(_ match: String, to journal: OpaquePointer) -> Bool {
        let bytes = Array(match.utf8)
        return bytes.withUnsafeBytes { sd_journal_add_match(journal, $0.baseAddress, $0.count) } >= 0
    }
}
