/// A quarter of one reminder's logs and skips folded into one item of the linked collection: a VJOURNAL whose
/// `X-REMINDD-ARCHIVED` lines each hold one record as its own item held it (UID, kind, time, zone, occurrence,
/// amount, reason), read back exactly. With records older than ``retentionDays`` folded so, the live collection
/// holds 14 days of items and four archives a year per reminder whatever the history's length (one year of 10
/// reminders at 3 doses a day was 11,000 items, and each vdirsyncer run listed every one; three years are now
/// about 560).
///
/// Every device folds the same months into the same UIDs with the same text (records sorted by time and UID), so
/// two devices folding at once write the same item; a device that lacks a record of an archive imports it. Pure.
public struct CollectionArchive: Sendable, Hashable {
    /// The reminder's UID.
    public var reminder: String
    /// The UTC quarter of the records' times, named by its first month: `2026-07` for July to September.
    public var month: String
    /// Which part of the month (1, 2 ...): a month of more than ``recordsPerItem`` records is several items.
    public var part: Int
    public var records: [CollectionItem.Record]
    /// The UIDs of records this month held that were deleted (on any device): deleted everywhere, never written back.
    public var deleted: [String] = []

    /// Records are folded once their UTC day is older than this: 14 days of items stay live. Measured with
    /// Radicale and vdirsyncer on a 2-core machine, three years of 10 reminders at 3 doses a day: with 60 days,
    /// 1,930 items, a new device's first upload 214 s and a sync with nothing changed 4 s; with 30 days, 1,041
    /// items, 80 s and 2.2 s (against 60 s and 2 s wanted); 14 days are about 560 items. Old records are rarely
    /// edited, and one that is (a dose entered late) goes into its archive at once.
    public static let retentionDays: Int64 = 14
    /// At most this many records in one item (about 100 bytes each: an item is at most 1 MiB).
    public static let recordsPerItem = 5_000

    public init(reminder: String, month: String, part: Int = 1, records: [CollectionItem.Record]) {
        (self.reminder, self.month, self.part, self.records) = (reminder, month, part, records)
    }

    public var uid: String { reminder + "-archive-" + month + (part > 1 ? "-\(part)" : "") }

    /// The UTC quarter of an instant, named by its first month: `2026-07` for any time from July to September.
    public static func month(of instant: Instant) -> String {
        let date = LocalDateTime(localSeconds: instant.secondsSinceEpoch).date
        return LocalDate(year: date.year, month: (date.month - 1) / 3 * 3 + 1, day: 1)!.description.prefix(7).description
    }

    /// The start of the UTC day `retentionDays` before `now`'s: records before it are folded. (The same on every
    /// device on the same day, so devices fold alike.)
    public static func foldBefore(now: Instant) -> Instant {
        let day = now.adding(seconds: -retentionDays * 86_400).secondsSinceEpoch
        return Instant(secondsSinceEpoch: day - ((day % 86_400) + 86_400) % 86_400)
    }

    /// A reminder's records of one month as archive items, ``recordsPerItem`` to an item, sorted; the deletions
    /// in the first.
    public static func items(reminder: String, month: String, records: [CollectionItem.Record], deleted: Set<String> = []) -> [CollectionArchive] {
        let sorted = records.filter { !deleted.contains($0.uid) }.sorted { ($0.at, $0.uid) < ($1.at, $1.uid) }
        var items = stride(from: 0, to: max(sorted.count, 1), by: recordsPerItem).enumerated().map { index, start in
            CollectionArchive(reminder: reminder, month: month, part: index + 1, records: Array(sorted[min(start, sorted.count)..<min(start + recordsPerItem, sorted.count)]))
        }
        items[0].deleted = deleted.sorted()
        return items
    }

    /// The item's text (the same on every device for the same records).
    public func text(reminderName: String) -> String {
        let modified = records.map(\.at).max() ?? Instant(secondsSinceEpoch: 0)
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + CollectionItem.product, "BEGIN:VJOURNAL", "UID:" + ICalendar.text(uid),
                     "DTSTAMP:" + ICalendar.utc(modified), "LAST-MODIFIED:" + ICalendar.utc(modified),
                     "SUMMARY:" + ICalendar.text("\(reminderName): \(records.count) records of \(month)" + (part > 1 ? " (part \(part))" : "")),
                     "RELATED-TO;RELTYPE=PARENT:" + ICalendar.text(reminder), "X-REMINDD-ARCHIVE:" + month + (part > 1 ? ";\(part)" : "")]
        lines += records.map { "X-REMINDD-ARCHIVED:" + ICalendar.text(Self.line($0)) }
        lines += deleted.map { "X-REMINDD-ARCHIVE-DELETED:" + ICalendar.text(Self.escaped($0)) }
        lines += ["END:VJOURNAL", "END:VCALENDAR"]
        return lines.map(ICalendar.fold).joined(separator: "\r\n") + "\r\n"
    }

    /// One record: `TAKEN uid 20260901T070500Z Europe/Berlin occurrence amount reason...` (`-` for what it lacks).
    static func line(_ record: CollectionItem.Record) -> String {
        [record.kind.rawValue.uppercased(), escaped(record.uid), ICalendar.utc(record.at), escaped(record.timeZone), record.occurrence.map(ICalendar.utc) ?? "-",
         record.amount.map { Dose.text(thousandths: $0) } ?? "-", record.reason ?? ""].joined(separator: " ")
    }

    /// A field without spaces (`%` and space as `%25` and `%20`), and back.
    private static func escaped(_ field: String) -> String {
        field.map { $0 == "%" ? "%25" : $0 == " " ? "%20" : String($0) }.joined()
    }

    private static func unescaped(_ field: String) -> String {
        var result = ""
        var rest = Substring(field)
        while let first = rest.first {
            if rest.hasPrefix("%20") {
                result.append(" ")
                rest = rest.dropFirst(3)
            } else if rest.hasPrefix("%25") {
                result.append("%")
                rest = rest.dropFirst(3)
            } else {
                result.append(first)
                rest = rest.dropFirst()
            }
        }
        return result
    }

    /// Reads an archive item (the caller found `X-REMINDD-ARCHIVE` in it). - Throws: a line that is not a record as
    /// remindd writes it, more than ``recordsPerItem`` records, or no reminder.
    static func read(_ item: ICalendarComponent, fail: (Int, String) -> FileLineError) throws(FileLineError) -> CollectionArchive {
        guard let reminder = item.first("RELATED-TO")?.text, !reminder.isEmpty else { throw fail(item.line, "a remindd archive without RELATED-TO (its reminder)") }
        let header = item.first("X-REMINDD-ARCHIVE")!
        let parts = header.value.split(separator: ";")
        guard let month = parts.first.map(String.init), month.count == 7, let first = ISO8601.parseDate(month + "-01"), first.month % 3 == 1,
            parts.count <= 2, let part = parts.count == 2 ? Int(parts[1]) : 1, (1...10_000).contains(part)
        else { throw fail(header.line, "X-REMINDD-ARCHIVE is not a quarter's first month such as 2026-07") }
        let lines = item.properties.filter { $0.name == "X-REMINDD-ARCHIVED" }
        guard lines.count <= recordsPerItem else { throw fail(header.line, "an archive of \(lines.count) records: at most \(recordsPerItem)") }
        var records: [CollectionItem.Record] = []
        for property in lines {
            let fields = property.text.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false).map(String.init)
            func instant(_ text: String) -> Instant? { CollectionItem.utcInstant(text) }
            guard fields.count == 7, let kind = CollectionItem.Record.Kind(rawValue: fields[0].lowercased()), !fields[1].isEmpty,
                let at = instant(fields[2]), !fields[3].isEmpty, fields[3].count <= 100, !fields[3].contains(".."),
                fields[4] == "-" || instant(fields[4]) != nil, fields[5] == "-" || Dose.thousandths(fields[5]) != nil,
                month == Self.month(of: at)
            else { throw fail(property.line, "X-REMINDD-ARCHIVED is not a record of \(month) as remindd writes it") }
            var record = CollectionItem.Record(
                uid: unescaped(fields[1]), kind: kind, reminder: reminder, at: at, timeZone: unescaped(fields[3]), occurrence: instant(fields[4]),
                reason: fields[6].isEmpty ? nil : String(fields[6].prefix(500)))
            record.amount = Dose.thousandths(fields[5])
            records.append(record)
        }
        let deleted = item.properties.filter { $0.name == "X-REMINDD-ARCHIVE-DELETED" }
        guard deleted.count <= recordsPerItem, deleted.allSatisfy({ !$0.text.isEmpty }) else {
            throw fail(header.line, "X-REMINDD-ARCHIVE-DELETED is not a list of at most \(recordsPerItem) UIDs")
        }
        var archive = CollectionArchive(reminder: reminder, month: month, part: part, records: records)
        archive.deleted = deleted.map { unescaped($0.text) }
        return archive
    }
}
