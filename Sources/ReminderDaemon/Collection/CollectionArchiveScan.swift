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
                // Only its own reminder's records of its quarter: an archive that lists another's cannot take them.
                guard let ownRecords = try ownRecordUIDs(of: archive) else { continue }
                let rows = try stores.collection.rows(uids: Set(archive.records.map(\.uid)).intersection(ownRecords))
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
    /// device knows, the month is folded again at the next publish. - Returns: the records to apply.
    func archiveRecords(_ archive: CollectionArchive, entry: VdirFolder.Entry, text: String, vdir: VdirFolder, now: Instant)
        -> [CollectionReading.Record]
    {
        do {
            // Its reminder not here (yet): not noted, so that it is read again at the next scan.
            guard let reminder = try stores.collection.reminder(uid: archive.reminder) else { return [] }
            try stores.collection.save(CollectionItemRecord(
                fileName: entry.name, uid: archive.uid, kind: .archive, localId: reminder.id, etag: entry.etag, text: text,
                modifiedAt: (archive.records.map(\.at).max() ?? Instant(secondsSinceEpoch: 0)).secondsSinceEpoch))
            let known = try stores.collection.rows(uids: Set(archive.records.map(\.uid) + archive.deleted))
            let month = CollectionStore.Month(reminderID: reminder.id, month: archive.month)
            try applyDeletions(of: archive, entry: entry, month: month, known: known, vdir: vdir, now: now)
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
                .map { CollectionReading.Record(entry: VdirFolder.Entry(name: entry.name + "#" + $0.uid, etag: ""), text: "", record: $0, source: .archive) }
            return records
        } catch {
            context.say(.error, "Collection: could not read what \(entry.name) archives: \(error); read again at the next change")
            return []
        }
    }

    /// The UIDs of the records this device has of an archive's own reminder in its quarter (nil: its reminder is
    /// not here).
    func ownRecordUIDs(of archive: CollectionArchive) throws(StoreError) -> Set<String>? {
        guard let id = try stores.collection.reminder(uid: archive.reminder)?.id else { return nil }
        return Set(try stores.collection.records(of: CollectionStore.Month(reminderID: id, month: archive.month)).compactMap(\.row?.uid))
    }

    /// Applies the deletions an archive lists, and only its own: records of its reminder in its quarter that
    /// it does not also list as kept. A deletion of anything else (another medication's logs, today's) is
    /// refused and said; deletions of so many at once that any removal would be held are held (nothing
    /// deleted, said); each applied deletion is said with the item that made it. A UID this device does not
    /// have is noted as deleted, so that it is never written back.
    func applyDeletions(
        of archive: CollectionArchive, entry: VdirFolder.Entry, month: CollectionStore.Month, known: [String: CollectionItemRecord], vdir: VdirFolder,
        now: Instant
    ) throws(StoreError) {
        let pending = archive.deleted.filter { known[$0]?.kind != .removed }
        guard !pending.isEmpty else { return }
        let own = Set(try stores.collection.records(of: month).compactMap(\.row?.uid)).subtracting(archive.records.map(\.uid))
        let here = pending.filter { known[$0]?.localId != nil }
        let deleting = here.filter { own.contains($0) }
        let refused = here.filter { !own.contains($0) }
        let what = "\(archive.reminder)'s archive of the quarter from \(archive.month)"
        if let first = refused.first {
            reportOnce("\(entry.name) foreign deletions", .warning, """
                Collection: item \(entry.name) (\(what)) deletes \(refused.count) \(refused.count == 1 ? "record" : "records") that \
                \(refused.count == 1 ? "is" : "are") not its own (\(first)\(refused.count > 1 ? " ..." : "")): an archive deletes only its \
                reminder's records of its quarter; nothing of them is deleted
                """)
        }
        if !deleting.isEmpty, case .unavailable(let why) = CollectionPresence.judge(known: try stores.collection.linkedFileCount(), missing: deleting.count) {
            reportOnce("\(entry.name) held", .warning, """
                Collection: item \(entry.name) (\(what)) deletes \(deleting.count) logs and skips at once, held as any mass removal \
                (\(why)): nothing of them is deleted; to delete them, use 'remindctl log delete' on one device
                """)
            return
        }
        for uid in deleting {
            guard let row = known[uid] else { continue }
            _ = try stores.collection.remove(row, now: now)
            if !row.fileName.contains("#") {
                do { try vdir.remove(row.fileName) } catch { context.say(.error, "Collection: could not remove \(row.fileName), deleted in \(entry.name): \(error)") }
            }
        }
        if !deleting.isEmpty {
            context.say(.notice, "Collection: item \(entry.name) (\(what)) deleted \(deleting.count) of its \(deleting.count == 1 ? "record" : "records") here: \(deleting.prefix(5).joined(separator: ", "))\(deleting.count > 5 ? " ..." : "")")
        }
        for uid in pending where !refused.contains(uid) {
            try stores.collection.save(CollectionItemRecord(
                fileName: entry.name + "#" + uid, uid: uid, kind: .removed, localId: nil, etag: "", text: "", modifiedAt: now.secondsSinceEpoch))
        }
    }
}
