/// Whether a linked collection's folder, as one scan found it, can be read as "what every device agreed on", or
/// is a folder that is not there as it was: a disk or share not mounted yet, a folder moved, replaced or emptied
/// by a sync command. Items missing from an unavailable folder are not deletions made on another device.
///
/// Pure: the caller counts the items it knows (each file it last wrote or read there) and which of them the
/// folder lacks now.
public enum CollectionPresence: Equatable, Sendable {
    /// The folder is there and holds what it held, less what another device deleted: its changes apply.
    case available
    /// The folder cannot be taken as the collection: nothing is removed here and nothing written there.
    case unavailable(String)

    /// At least this many known items gone in one scan, and more than half of them, is a folder replaced or
    /// emptied rather than deletions made elsewhere (deleting several reminders on the phone between two syncs is
    /// a few items of a collection that also holds every log; an emptied folder is all of them).
    public static let massRemovalMinimum = 3

    /// Judges a folder that could be listed: `known` items remindd wrote or read there, `missing` of them gone.
    public static func judge(known: Int, missing: Int) -> CollectionPresence {
        guard known > 0, missing > 0 else { return .available }
        if missing == known {
            return .unavailable("it holds none of the \(known) \(known == 1 ? "item" : "items") remindd linked there")
        }
        if missing >= massRemovalMinimum, missing * 2 > known {
            return .unavailable("\(missing) of the \(known) items remindd linked there are gone at once")
        }
        return .available
    }
}

/// Items found gone from a linked collection, not applied yet as deletions made elsewhere. A folder being emptied
/// (`rm -rf`, a sync client resetting it) loses its items one at a time: a scan between two unlinks saw the first
/// few gone (fewer than ``CollectionPresence/massRemovalMinimum``, or at most half) and applied them as deletions,
/// removing reminders and their logs before the folder was seen gone and held. So a deletion waits until no other
/// was seen for ``quietSeconds``, and is then judged (``CollectionPresence``) with every item still gone.
public struct PendingRemovals: Equatable, Sendable {
    /// How long after the last item seen gone the deletions are applied (a whole second at least: instants are
    /// whole seconds).
    public static let quietSeconds: Int64 = 3

    /// The files seen gone and not back since.
    public private(set) var files: Set<String> = []
    /// When the last of them was first seen gone.
    private var lastSeen: Instant?

    public init() {}

    /// A scan looked at the files `lookedAt` (nil: the whole folder) at `now` and found `gone` of them missing.
    /// A clock set back meanwhile starts the quiet again from `now` (it would otherwise wait for the clock to
    /// catch up).
    public mutating func scanned(gone: Set<String>, lookedAt: Set<String>?, now: Instant) {
        let back = (lookedAt.map(files.intersection) ?? files).subtracting(gone)
        files.subtract(back)
        if !gone.isSubset(of: files) || lastSeen.map({ now < $0 }) == true { lastSeen = now }
        files.formUnion(gone)
        if files.isEmpty { lastSeen = nil }
    }

    /// When the deletions are due, if any wait.
    public var due: Instant? { lastSeen.map { $0.adding(seconds: Self.quietSeconds) } }

    /// Whether a scan at `now` that looked at `lookedAt` (nil: everything) applies them: they are due, and it saw
    /// each of them still gone.
    public func apply(now: Instant, lookedAt: Set<String>?) -> Bool {
        guard let due, now >= due else { return false }
        return lookedAt.map(files.isSubset) ?? true
    }

    /// Applied, or the folder is held (it is read whole when used again).
    public mutating func clear() { (files, lastSeen) = ([], nil) }
}
