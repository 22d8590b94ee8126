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

    /// The archives of reminders applied in a scan (added, changed or back), but `except` (read already): the
    /// records of a reminder removed here and brought back by another device's change are in them.
    func archivesOf(returned reminderIDs: Set<Int64>, except: Set<String>) -> [(entry: VdirFolder.Entry, text: String, archive: CollectionArchive)] {
        guard !reminderIDs.isEmpty else { return [] }
        do {
            let uids = try reminderIDs.compactMap { id throws(StoreError) in try stores.collection.link(ofReminder: id)?.uid }
            return try stores.collection.archives(ofReminders: uids).compactMap { row in
                // Read from the folder before: one that no longer reads is said where it was read.
                guard !except.contains(row.fileName), case .archive(let archive)? = try? CollectionItem.read(row.text, file: row.fileName) else { return nil }
                return (VdirFolder.Entry(name: row.fileName, etag: row.etag), row.text, archive)
            }
        } catch {
            context.say(.error, "Collection: could not read the archives of the reminders that came back: \(error); read at the next change")
            return []
        }
    }

    /// An archive read in a scan: noted; its records this device lacks returned to apply (each under
    /// `archive#uid`); the records it says were deleted deleted here too. When it lacks records this device has in
    /// its month (another device's version won a conflict, or it folded before it had them), or deletions this
    /// device knows, the month is folded again at the next publish. - Returns: the records to apply, and whether
    /// a record was deleted here.
    func archiveRecords(_ archive: CollectionArchive, entry: VdirFolder.Entry, text: String, vdir: VdirFolder, now: Instant)
        -> (records: [(VdirFolder.Entry, String, CollectionItem.Record)], reminderID: Int64?)
    {
        do {
            // Its reminder not here (yet): not noted, so that it is read again at the next scan.
            guard let reminder = try stores.collection.reminder(uid: archive.reminder) else { return ([], nil) }
            try stores.collection.save(CollectionItemRecord(
                fileName: entry.name, uid: archive.uid, kind: .archive, localId: reminder.id, etag: entry.etag, text: text,
                modifiedAt: (archive.records.map(\.at).max() ?? Instant(secondsSinceEpoch: 0)).secondsSinceEpoch))
            let known = try stores.collection.rows(uids: Set(archive.records.map(\.uid) + archive.deleted))
            var removedOne = false
            for uid in archive.deleted where known[uid]?.kind != .removed {
                if let row = known[uid], row.localId != nil {
                    _ = try stores.collection.remove(row, now: now)
                    if !row.fileName.contains("#") {
                        do { try vdir.remove(row.fileName) } catch { context.say(.error, "Collection: could not remove \(row.fileName), deleted in \(entry.name): \(error)") }
                    }
                    removedOne = true
                }
                try stores.collection.save(CollectionItemRecord(
                    fileName: entry.name + "#" + uid, uid: uid, kind: .removed, localId: nil, etag: "", text: "", modifiedAt: now.secondsSinceEpoch))
            }
            let month = CollectionStore.Month(reminderID: reminder.id!, month: archive.month)
            let removedHere = try stores.collection.removedRecords(reminderUID: archive.reminder, month: archive.month)
            // Records of the month this device has that this version lacks: under their own items, or noted as in
            // this archive.
            let inIt = Set(archive.records.map(\.uid))
            let cutoff = CollectionArchive.foldBefore(now: now)
            let lacking = try stores.collection.records(of: month).filter { record in
                guard let row = record.row, !inIt.contains(row.uid), !removedHere.contains(row.uid) else { return false }
                return row.fileName == entry.name + "#" + row.uid || (!row.fileName.contains("#") && record.at < cutoff)
            }
            if !lacking.isEmpty || (archive.part == 1 && !removedHere.isSubset(of: archive.deleted)) { refold.insert(month) }
            let records = archive.records.filter { known[$0.uid] == nil && !removedHere.contains($0.uid) }
                .map { (VdirFolder.Entry(name: entry.name + "#" + $0.uid, etag: ""), "", $0) }
            return (records, removedOne ? reminder.id : nil)
        } catch {
            context.say(.error, "Collection: could not read what \(entry.name) archives: \(error); read again at the next change")
            return ([], nil)
        }
    }
}
