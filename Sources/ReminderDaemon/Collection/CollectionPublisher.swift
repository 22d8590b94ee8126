import Foundation
import ReminderCore
import ReminderStore

/// Writes what changed here into the linked collection's folder: each of remindd's own reminders as an item,
/// each log and each skip as an item of its own (``CollectionItem``), and removes the items of what was deleted.
/// An item whose text would not change is not rewritten (vdirsyncer's etag is the file's mtime and inode).
///
/// After a change it reads the rows written since the last publish (``CollectionChanges``); with `everything`
/// (at start, when the folder is used again, after a failed write) every row. It runs on NIO's thread pool, so it
/// holds only Sendable values and hands back what the service says once; files are written in batches with one
/// flush each, and their rows recorded a batch per transaction.
struct CollectionPublisher: Sendable {
    let context: DaemonContext
    let folder: String

    /// Items written in one go: one flush of the file system and one transaction for each batch.
    static let batchSize = 256

    /// What a publish did.
    struct Outcome: Sendable {
        /// Files written or removed.
        var changed = 0
        /// Something was not written or read: the next publish looks at every row.
        var incomplete = false
        /// Problems to say once each (by key).
        var problems: [(key: String, text: String)] = []
    }

    func publish(everything: Bool) -> Outcome {
        var outcome = Outcome()
        let vdir = VdirFolder(path: folder)
        let now = context.clock.now()
        var items: [String: CollectionItemRecord]
        let rows: (reminders: [StoredReminder], logs: [IntakeRecord], skips: [OutcomeRecord])
        do {
            let changes = try context.store.collection.takeChanges()
            if everything {
                items = try context.store.collection.items()
                rows = try context.store.collection.published()
            } else {
                guard !changes.isEmpty else { return outcome }
                (rows, items) = try context.store.collection.published(changes)
            }
        } catch {
            context.say(.error, "Collection \(folder): cannot read what to publish: \(error)")
            outcome.incomplete = true
            return outcome
        }
        var byRow: [CollectionItemRecord.Kind: [Int64: CollectionItemRecord]] = [:]
        for item in items.values { if let id = item.localId { byRow[item.kind, default: [:]][id] = item } }
        var reminderUIDs: [Int64: (uid: String, name: String)] = [:]
        var batch: [CollectionItemRecord] = []
        func add(_ item: CollectionItemRecord) {
            batch.append(item)
            if batch.count >= Self.batchSize { write(&batch, vdir, &outcome) }
        }

        for reminder in rows.reminders {
            let item = byRow[.reminder]?[reminder.id!]
            let uid = item?.uid ?? UUID().uuidString.lowercased() + "@remindd"
            reminderUIDs[reminder.id!] = (uid, reminder.name)
            var fields = CollectionItem.Reminder(
                uid: uid, name: reminder.name, rule: reminder.rule, timeZone: reminder.timeZone, enabled: reminder.enabled,
                windowSeconds: reminder.windowSeconds, repeatPlan: reminder.delivery.repeatPlan, critical: reminder.delivery.critical,
                created: Instant(secondsSinceEpoch: reminder.createdAt), dose: reminder.delivery.dose)
            (fields.limits, fields.steps) = (reminder.delivery.limits, reminder.delivery.steps)
            // A reminder that cannot be scheduled here is left as its item says.
            guard let (rule, zone) = context.schedule(reminder.rule, in: reminder.timeZone) else { continue }
            var modified = item.map { Instant(secondsSinceEpoch: $0.modifiedAt) } ?? now
            var text = CollectionItem.text(fields, rule: rule, zone: zone, modifiedAt: modified, previous: item?.text)
            guard text != item?.text else { continue }
            if item != nil {
                modified = now
                text = CollectionItem.text(fields, rule: rule, zone: zone, modifiedAt: modified, previous: item?.text)
            }
            let fileName = item?.fileName ?? CollectionItem.fileName(uid: uid)
            add(CollectionItemRecord(
                fileName: fileName, uid: uid, kind: .reminder, localId: reminder.id, etag: "", text: text, modifiedAt: modified.secondsSinceEpoch))
        }
        for log in rows.logs where byRow[.taken]?[log.id!] == nil {
            guard let reminder = reminderUIDs[log.reminderId] else { continue }  // a calendar's alarm: not published
            var record = CollectionItem.Record(
                uid: UUID().uuidString.lowercased() + "@remindd", kind: .taken, reminder: reminder.uid, at: Instant(secondsSinceEpoch: log.at),
                timeZone: log.timeZone, occurrence: log.forScheduledAt.map(Instant.init(secondsSinceEpoch:)))
            record.amount = log.amount
            add(CollectionItemRecord(
                fileName: CollectionItem.fileName(uid: record.uid), uid: record.uid, kind: .taken, localId: log.id,
                etag: "", text: CollectionItem.text(record, reminderName: reminder.name), modifiedAt: log.at))
        }
        for skip in rows.skips where byRow[.skipped]?[skip.id!] == nil {
            guard let reminder = reminderUIDs[skip.reminderId] else { continue }
            let record = CollectionItem.Record(
                uid: UUID().uuidString.lowercased() + "@remindd", kind: .skipped, reminder: reminder.uid, at: Instant(secondsSinceEpoch: skip.decidedAt),
                timeZone: "UTC", occurrence: Instant(secondsSinceEpoch: skip.scheduledAt), reason: skip.reason.flatMap { $0.isEmpty ? nil : $0 })
            add(CollectionItemRecord(
                fileName: CollectionItem.fileName(uid: record.uid), uid: record.uid, kind: .skipped, localId: skip.id,
                etag: "", text: CollectionItem.text(record, reminderName: reminder.name), modifiedAt: skip.decidedAt))
        }
        write(&batch, vdir, &outcome)
        removeDeleted(items, present: [
            .reminder: Set(rows.reminders.compactMap(\.id)), .taken: Set(rows.logs.compactMap(\.id)), .skipped: Set(rows.skips.compactMap(\.id)),
        ], liveUIDs: Set(reminderUIDs.values.map(\.uid)), vdir, &outcome)
        return outcome
    }

    /// What was deleted here: its item goes. A completion's log deleted here: the completion stays in its item, and
    /// is not taken again. A log that went with its reminder stays in the collection, kept for another device: the
    /// reminder may come back from there (changed there while it was removed here), and its logs with it.
    private func removeDeleted(
        _ items: [String: CollectionItemRecord], present: [CollectionItemRecord.Kind: Set<Int64>], liveUIDs: Set<String>, _ vdir: VdirFolder,
        _ outcome: inout Outcome
    ) {
        for item in items.values where item.kind != .foreign && item.kind != .alias {
            guard let id = item.localId, present[item.kind]?.contains(id) != true else { continue }
            var orphaned = item.fileName.contains("#")
            // The row's text was read (or written) as a record before: one that no longer reads is not a record.
            if item.kind != .reminder, case .record(let record)? = try? CollectionItem.read(item.text, file: item.fileName),
                !liveUIDs.contains(record.reminder), !isLinked(record.reminder) {
                orphaned = true
            }
            if orphaned {
                var kept = item
                kept.localId = nil
                do { try context.store.collection.save(kept) } catch { context.say(.error, "Collection: could not note \(item.fileName): \(error)") }
                continue
            }
            do {
                try vdir.remove(item.fileName)
                try context.store.collection.forget(fileName: item.fileName)
                outcome.changed += 1
            } catch {
                context.say(.error, "Collection \(folder): could not remove \(item.fileName): \(error)")
                outcome.incomplete = true
            }
        }
    }

    /// Whether the reminder of a log's item exists here; when that cannot be read, no: the item is then kept in
    /// the folder (as a log whose reminder went), never removed on a guess.
    private func isLinked(_ uid: String) -> Bool {
        do { return try context.store.collection.isLinkedReminder(uid: uid) } catch { return false }
    }

    /// Writes a batch of items and records those written, in one transaction; empties the batch.
    private func write(_ batch: inout [CollectionItemRecord], _ vdir: VdirFolder, _ outcome: inout Outcome) {
        guard !batch.isEmpty else { return }
        defer { batch.removeAll(keepingCapacity: true) }
        var written: [CollectionItemRecord] = []
        for (item, result) in zip(batch, vdir.write(batch.map { ($0.fileName, $0.text) })) {
            switch result {
            case .success(let etag):
                var item = item
                item.etag = etag
                written.append(item)
            case .failure(let error):
                outcome.problems.append(("write \(item.fileName)", "Collection \(folder): could not write \(item.fileName): \(error); tried again at the next change"))
                outcome.incomplete = true
            }
        }
        do {
            try context.store.collection.save(written)
            outcome.changed += written.count
        } catch {
            outcome.problems.append(("record \(error)", "Collection \(folder): could not record the items written: \(error); they are written again at the next change"))
            outcome.incomplete = true
        }
    }
}

extension DaemonContext {
    /// A reminder's rule and zone, or nil when it cannot be scheduled on this device.
    func schedule(_ spec: RuleSpec, in zoneName: String?) -> (ReminderRule, TimeZoneRules)? {
        do {
            return (try spec.makeRule(), try zone(named: zoneName))
        } catch {
            return nil
        }
    }
}
