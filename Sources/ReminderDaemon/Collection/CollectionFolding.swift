import Foundation
import ReminderCore
import ReminderStore

/// Old logs and skips folded into one archive item per reminder per quarter (``CollectionArchive``): the live
/// collection stays 14 days of items long. The store keeps every log and skip (and so the backup): only
/// the collection's items change.
extension CollectionPublisher {
    /// Folds the months whose records are all older than the retention, and `refold` (an archive read here
    /// lacked records this device has): writes each month's archive, then removes the records' own items.
    /// - Returns: the first instant a further month becomes old enough.
    func fold(now: Instant, refold: Set<CollectionStore.Month>, _ vdir: VdirFolder, _ outcome: inout Outcome) -> Instant {
        let cutoff = CollectionArchive.foldBefore(now: now)
        let months: Set<CollectionStore.Month>
        do { months = try stores.collection.monthsToFold(before: cutoff).union(refold) } catch {
            outcome.problems.append(("fold \(error)", "Collection \(folder): cannot read what to fold: \(error); tried again at the next start"))
            return nextFold(after: now)
        }
        for month in months.sorted() {
            do { try fold(month, before: cutoff, vdir, &outcome) } catch {
                outcome.problems.append(("fold \(month.month) \(error)", "Collection \(folder): could not fold \(month.month): \(error); its items stay as they are"))
                outcome.incomplete = true
            }
        }
        return nextFold(after: now)
    }

    /// When the fold cutoff next moves: the next UTC midnight (a day more of records is old enough).
    private func nextFold(after now: Instant) -> Instant {
        CollectionArchive.foldBefore(now: now).adding(seconds: (CollectionArchive.retentionDays + 1) * 86_400)
    }

    /// Folds a reminder's quarter: the records before `cutoff`, and those an archive holds already.
    private func fold(_ month: CollectionStore.Month, before cutoff: Instant, _ vdir: VdirFolder, _ outcome: inout Outcome) throws(StoreError) {
        guard let reminder = try stores.collection.link(ofReminder: month.reminderID) else { return }
        let deleted = try stores.collection.removedRecords(reminderUID: reminder.uid, month: month.month)
        let stored = try stores.collection.records(of: month).filter { record in
            guard let row = record.row else { return record.at < cutoff }
            return !deleted.contains(row.uid) && (record.at < cutoff || row.fileName.contains("-archive-"))
        }
        // Each record keeps the UID its item had (or that an archive gave it), so that devices fold alike.
        let records = stored.map { row in
            var uid = row.row.map { String($0.uid) } ?? ""
            if uid.isEmpty { uid = UUID().uuidString.lowercased() + "@remindd" }
            var record = CollectionItem.Record(
                uid: uid, kind: row.kind == .taken ? .taken : .skipped, reminder: reminder.uid, at: row.at, timeZone: row.timeZone,
                occurrence: row.occurrence, reason: row.reason)
            record.amount = row.amount
            return (row, record)
        }
        let archives = CollectionArchive.items(reminder: reminder.uid, month: month.month, records: records.map(\.1), deleted: deleted)
        let fileOf = Dictionary(archives.flatMap { archive in archive.records.map { ($0.uid, CollectionItem.fileName(uid: archive.uid)) } }) { a, _ in a }
        // An archive whose text would not change is not written again (vdirsyncer's etag is the file's mtime).
        let written = try stores.collection.texts(of: archives.map { CollectionItem.fileName(uid: $0.uid) })
        let texts = archives.map { (CollectionItem.fileName(uid: $0.uid), $0.text(reminderName: reminder.name), $0) }.filter { written[$0.0] != $0.1 }
        var rows: [CollectionItemRecord] = []
        for ((fileName, text, archive), result) in zip(texts, vdir.write(texts.map { ($0.0, $0.1) })) {
            guard case .success(let etag) = result else {
                outcome.problems.append(("write \(fileName)", "Collection \(folder): could not write \(fileName); its records stay items of their own"))
                outcome.incomplete = true
                return
            }
            rows.append(CollectionItemRecord(
                fileName: fileName, uid: archive.uid, kind: .archive, localId: month.reminderID, etag: etag, text: text,
                modifiedAt: (archive.records.map(\.at).max() ?? Instant(secondsSinceEpoch: 0)).secondsSinceEpoch))
        }
        outcome.changed += texts.count
        // The archives are written: the records' own items go.
        var removed: [String] = []
        for (row, record) in records {
            let fileName = fileOf[record.uid]! + "#" + record.uid
            if let old = row.row, old.fileName != fileName {
                if !old.fileName.contains("#") {
                    do { try vdir.remove(old.fileName) } catch { continue }  // kept as it is: folded at the next start
                    outcome.changed += 1
                }
                removed.append(old.fileName)
            }
            rows.append(CollectionItemRecord(
                fileName: fileName, uid: record.uid, kind: row.kind, localId: row.localId, etag: "", text: "", modifiedAt: record.at.secondsSinceEpoch))
        }
        try stores.collection.replace(removing: removed, saving: rows)
    }
}
