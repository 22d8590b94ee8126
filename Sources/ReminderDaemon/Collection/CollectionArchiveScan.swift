import ReminderCore
import ReminderStore

/// Archives another device wrote (``CollectionArchive``): the records this device lacks are imported; those it
/// has under their own items are moved under the archive, so that those items going from the folder with the
/// fold is no deletion; one that lacks records this device has is written again, whole.
extension CollectionService {
    /// Moves the rows of the records that new or changed archives among `entries` hold from their own items to
    /// the archive's (before the scan judges what is missing). - Returns: whether any moved.
    func adoptArchived(_ entries: [VdirFolder.Entry], items: [String: CollectionItemRecord], vdir: VdirFolder) -> Bool {
        var moved = false
        for entry in entries where entry.name.contains("-archive-") && items[entry.name]?.etag != entry.etag {
            // Read again in the scan, which says what is wrong with one that does not read.
            guard let text = try? vdir.read(entry), case .archive(let archive)? = try? CollectionItem.read(text, file: entry.name) else { continue }
            do {
                let rows = try stores.collection.rows(uids: Set(archive.records.map(\.uid)))
                let own = rows.values.filter { !$0.fileName.contains("#") && ($0.kind == .taken || $0.kind == .skipped) }
                guard !own.isEmpty else { continue }
                try stores.collection.replace(
                    removing: own.map(\.fileName),
                    saving: own.map { row in
                        var moved = row
                        (moved.fileName, moved.etag, moved.text) = (entry.name + "#" + row.uid, "", "")
                        return moved
                    })
                moved = true
            } catch {
                context.say(.error, "Collection: could not note the logs archived in \(entry.name): \(error); read again at the next change")
            }
        }
        return moved
    }

    /// An archive read in a scan: noted, and its records this device lacks returned to apply (each under
    /// `archive#uid`); when it lacks some this device has in its month, the month is folded again at the next
    /// publish.
    func archiveRecords(_ archive: CollectionArchive, entry: VdirFolder.Entry, text: String) -> [(VdirFolder.Entry, String, CollectionItem.Record)] {
        do {
            // Its reminder not here (yet): not noted, so that it is read again at the next scan.
            guard let reminder = try stores.collection.reminder(uid: archive.reminder) else { return [] }
            try stores.collection.save(CollectionItemRecord(
                fileName: entry.name, uid: archive.uid, kind: .archive, localId: reminder.id, etag: entry.etag, text: text,
                modifiedAt: (archive.records.map(\.at).max() ?? Instant(secondsSinceEpoch: 0)).secondsSinceEpoch))
            let known = try stores.collection.rows(uids: Set(archive.records.map(\.uid)))
            let month = CollectionStore.Month(reminderID: reminder.id!, month: archive.month)
            // Records of the month this device has that this version lacks: under their own items, or noted as in
            // this archive (another device's version won a conflict over this one's).
            let inIt = Set(archive.records.map(\.uid))
            let lacking = try stores.collection.records(of: month).compactMap(\.row).filter { row in
                !inIt.contains(row.uid) && (!row.fileName.contains("#") || row.fileName == entry.name + "#" + row.uid)
            }
            if !lacking.isEmpty { refold.insert(month) }
            return archive.records.filter { known[$0.uid] == nil }.map { (VdirFolder.Entry(name: entry.name + "#" + $0.uid, etag: ""), "", $0) }
        } catch {
            context.say(.error, "Collection: could not read what \(entry.name) archives: \(error); read again at the next change")
            return []
        }
    }
}
