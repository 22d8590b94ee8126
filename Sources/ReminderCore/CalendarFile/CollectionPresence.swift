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
