import Foundation
import ReminderCore
import ReminderStore

/// Writes what changed here into the linked collection's folder: each of remindd's own reminders as an item,
/// each log and each skip as an item of its own (``CollectionItem``), and removes the items of what was deleted.
/// An item whose text would not change is not rewritten (vdirsyncer's etag is the file's mtime and inode).
///
/// After a change it reads the rows the change feed named since the last publish (``CollectionChanges``); with `everything`
/// (at start, when the folder is used again, after a failed write) every row. It runs on NIO's thread pool, so it
/// holds only Sendable values and hands back what the service says once; files are written in batches with one
/// flush each, and their rows recorded a batch per transaction.
struct CollectionPublisher: Sendable {
    let context: DaemonContext
    /// The collection service's stores.
    let stores: CollectionService.Stores
    let folder: String

    /// Items written in one go: one flush of the file system and one transaction for each batch.
    static let batchSize = 256

    /// What a publish did.
    struct Outcome: Sendable {
        /// Files written or removed.
        var changed = 0
        /// Something was not written or read: the next publish looks at every row.
        var incomplete = false
        /// It stopped after a page for a scan that waited (``PublishProgress``): incomplete, and goes on after it.
        var stoppedForScan = false
        /// Problems to say once each (by key).
        var problems: [(key: String, text: String)] = []
        /// When the occurrence tasks' window next takes in or lets go of an occurrence, or a month is next folded.
        var nextUpkeep: Instant?
    }

    /// Rows read at a time in a publish of everything: 100,000 reminders read at once held 70 MB.
    static let pageSize = 2_000

    /// `refold`: months whose archive read here lacked records this device has (written again, whole).
    /// `progress`: the files written, and whether a scan of something else waits; then the publish ends after the
    /// page it is writing, incomplete, and the next one publishes everything (another device's dose waited for a
    /// first publish of 100,000 reminders to end: 29.8 s).
    /// `changes`: what the change feed handed in since the last publish (all of it is published with `everything`).
    func publish(
        everything: Bool, changes: CollectionChanges, refold: Set<CollectionStore.Month> = [], progress: PublishProgress = PublishProgress()
    ) -> Outcome {
        let items: [String: CollectionItemRecord]
        /// The rows to publish, a page at a time; a publish after a change has one page.
        let pages: Pages
        do {
            if everything {
                items = try stores.collection.itemsWithoutText()  // texts: a page at a time
                pages = try Pages(everything: stores.collection)
            } else {
                guard !changes.isEmpty else { return Outcome() }
                let rows: Rows
                (rows, items) = try stores.collection.published(changes)
                pages = Pages(rows)
            }
        } catch {
            context.say(.error, "Collection \(folder): cannot read what to publish: \(error)")
            return Outcome(incomplete: true)
        }
        var run = CollectionPublishRun(self, everything: everything, items: items, refold: refold, progress: progress)
        var complete = true
        do {
            let writer = try stores.collection.instanceID()
            complete = try Pages.each(pages.reminders, id: \.id, until: { run.stops() }) { (reminders) throws(StoreError) in
                try run.publish(reminders, withRecords: pages.withRecords, writer: writer)
            }
            complete = try complete && Pages.each(pages.logs, id: \.id, until: { run.stops() }) { run.publish($0) }
            complete = try complete && Pages.each(pages.skips, id: \.id, until: { run.stops() }) { run.publish($0) }
        } catch {
            run.flush()
            context.say(.error, "Collection \(folder): cannot read what to publish: \(error)")
            run.outcome.incomplete = true
            return run.outcome
        }
        run.flush()
        guard complete else {  // stopped for a scan: what is gone is known only from every page
            (run.outcome.incomplete, run.outcome.stoppedForScan) = (true, true)
            return run.outcome
        }
        run.present[.occurrence] = run.present[.reminder]  // a removed reminder's tasks go with it
        run.refold.formUnion(removeDeleted(items, present: run.present, liveUIDs: run.liveUIDs, run.vdir, &run.outcome))
        if everything || !run.refold.isEmpty {
            let next = fold(now: run.now, refold: run.refold, run.vdir, &run.outcome)
            run.outcome.nextUpkeep = min(run.outcome.nextUpkeep ?? next, next)
        }
        return run.outcome
    }

    /// A reminder's item text and its LAST-MODIFIED, or nil when its item is up to date (or it cannot be
    /// scheduled here: its item is left as it says).
    /// (`asJournal`: its occurrences are tasks of their own, see ``occurrenceTasks(of:uid:previous:now:)``.)
    func text(of reminder: StoredReminder, uid: String, item: CollectionItemRecord?, now: Instant, asJournal: Bool) throws(StoreError) -> (text: String, modified: Instant)? {
        let fields = CollectionItem.Reminder(
            uid: uid, name: reminder.name, rule: reminder.rule, timeZone: reminder.timeZone, enabled: reminder.enabled,
            windowSeconds: reminder.windowSeconds, created: Instant(secondsSinceEpoch: reminder.createdAt), delivery: reminder.delivery)
        guard let (rule, zone) = context.settings.schedule(reminder.rule, in: reminder.timeZone) else { return nil }
        let closure = reminder.rule.once == nil || asJournal ? nil : try closure(of: reminder, previous: item?.text)
        let modified = item.map { Instant(secondsSinceEpoch: $0.modifiedAt) } ?? now
        func text(at modified: Instant) -> String {
            CollectionItem.text(fields, rule: rule, zone: zone, modifiedAt: modified, previous: item?.text, closure: closure, asJournal: asJournal)
        }
        guard text(at: modified) != item?.text else { return nil }
        guard item != nil else { return (text(at: modified), modified) }
        return (text(at: now), now)
    }

    /// How a one-off reminder's task is closed: taken at its first log, else skipped or missed; nil while it is
    /// open, or when a task app completed the item itself (its status stays as that app wrote it). What another
    /// device closed stays closed until this one knows better: a task is never reopened for want of a log.
    private func closure(of reminder: StoredReminder, previous: String?) throws(StoreError) -> CollectionItem.Closure? {
        let outcome = try stores.collection.oneOffOutcome(reminderID: reminder.id)
        if let log = outcome.firstLog { return outcome.loggedByCompletion ? nil : .taken(at: Instant(secondsSinceEpoch: log.at)) }
        switch outcome.outcome {
        case .skipped: return .skipped
        case .missed: return .missed
        case nil: return CollectionItem.closure(of: previous)
        }
    }

    typealias Rows = (reminders: [StoredReminder], logs: [IntakeRecord], skips: [Stored<OutcomeRecord>])

    /// The rows a publish writes, read a page at a time: each reader gives the rows after an id (an empty page
    /// when there are none left). `withRecords`: the reminders that have logs or skips among them.
    struct Pages {
        let withRecords: Set<Int64>
        let reminders: (_ after: Int64) throws(StoreError) -> [StoredReminder]
        let logs: (_ after: Int64) throws(StoreError) -> [IntakeRecord]
        let skips: (_ after: Int64) throws(StoreError) -> [Stored<OutcomeRecord>]

        /// One page: the rows a change touched.
        init(_ rows: Rows) {
            withRecords = Set(rows.logs.map(\.reminderId)).union(rows.skips.map(\.reminderId))
            reminders = { $0 == 0 ? rows.reminders : [] }
            logs = { $0 == 0 ? rows.logs : [] }
            skips = { $0 == 0 ? rows.skips : [] }
        }

        /// Every row, by pages of ``CollectionPublisher/pageSize``.
        init(everything store: CollectionStore) throws(StoreError) {
            withRecords = try store.reminderIDsWithRecords()
            reminders = { after throws(StoreError) in try store.publishedReminders(after: after, limit: pageSize) }
            logs = { after throws(StoreError) in try store.publishedLogs(after: after, limit: pageSize) }
            skips = { after throws(StoreError) in try store.publishedSkips(after: after, limit: pageSize) }
        }

        /// Calls `body` with each page `read` gives, in the order of the rows' ids, until `stop` says so (asked
        /// after each page). - Returns: whether every page was read (false: stopped).
        static func each<Row>(
            _ read: (Int64) throws(StoreError) -> [Row], id: (Row) -> Int64?, until stop: () -> Bool, _ body: ([Row]) throws(StoreError) -> Void
        ) throws(StoreError) -> Bool {
            var after: Int64 = 0
            while true {
                let page = try read(after)
                guard let last = page.last.flatMap(id) else { return true }
                try body(page)
                after = last
                if stop() { return false }
            }
        }
    }

    /// What was deleted here: its item goes. A completion's log deleted here: the completion stays in its item, and
    /// is not taken again. A log that went with its reminder stays in the collection, kept for another device: the
    /// reminder may come back from there (changed there while it was removed here), and its logs with it.
    /// A log or skip deleted here that an archive holds: its row says it was removed, and its month is folded again
    /// with it among the deletions.
    /// - Returns: those months.
    private func removeDeleted(
        _ items: [String: CollectionItemRecord], present: [CollectionItemRecord.Kind: Set<Int64>], liveUIDs: Set<String>, _ vdir: VdirFolder,
        _ outcome: inout Outcome
    ) -> Set<CollectionStore.Month> {
        var refold: Set<CollectionStore.Month> = []
        for item in items.values where item.kind != .foreign && item.kind != .alias && item.kind != .archive {
            guard let id = item.localId, present[item.kind]?.contains(id) != true else { continue }
            if item.fileName.contains("-archive-"), item.fileName.contains("#") {
                let archive = item.file
                do {
                    // Gone with its reminder (kept aside for it, if another device removed it): left as it is.
                    guard let reminderID = try stores.collection.items(named: [archive])[archive]?.localId,
                        try stores.collection.link(ofReminder: reminderID) != nil
                    else { continue }
                    refold.insert(CollectionStore.Month(reminderID: reminderID, month: CollectionArchive.month(of: Instant(secondsSinceEpoch: item.modifiedAt))))
                    var removed = item
                    (removed.kind, removed.localId) = (.removed, nil)
                    try stores.collection.save(removed)
                } catch {
                    context.say(.error, "Collection: could not note the removal of \(item.fileName): \(error)")
                }
                continue
            }
            var orphaned = item.fileName.contains("#")
            // The row's text was read (or written) as a record before: one that no longer reads is not a record.
            // (Read here when the items were read without their texts; one that cannot be read is no record.)
            let text = item.text.isEmpty ? (try? stores.collection.texts(of: [item.fileName]))?[item.fileName] ?? "" : item.text
            if item.kind != .reminder, case .record(let record)? = try? CollectionItem.read(text, file: item.fileName),
                !liveUIDs.contains(record.reminder), !isLinked(record.reminder) {
                orphaned = true
            }
            if orphaned {
                var kept = item
                kept.localId = nil
                do { try stores.collection.save(kept) } catch { context.say(.error, "Collection: could not note \(item.fileName): \(error)") }
                continue
            }
            remove(item.fileName, vdir, &outcome)
        }
        return refold
    }

    /// Removes an item's file and forgets it.
    func remove(_ fileName: String, _ vdir: VdirFolder, _ outcome: inout Outcome) {
        do {
            try vdir.remove(fileName)
            try stores.collection.forget(fileName: fileName)
            outcome.changed += 1
        } catch {
            context.say(.error, "Collection \(folder): could not remove \(fileName): \(error)")
            outcome.incomplete = true
        }
    }

    /// Whether the reminder of a log's item exists here; when that cannot be read, no: the item is then kept in
    /// the folder (as a log whose reminder went), never removed on a guess.
    private func isLinked(_ uid: String) -> Bool {
        do { return try stores.collection.isLinkedReminder(uid: uid) } catch { return false }
    }

    /// Writes a batch of items and records those written, in one transaction; empties the batch.
    func write(_ batch: inout [CollectionItemRecord], _ vdir: VdirFolder, _ outcome: inout Outcome) {
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
            try stores.collection.save(written)
            outcome.changed += written.count
        } catch {
            outcome.problems.append(("record \(error)", "Collection \(folder): could not record the items written: \(error); they are written again at the next change"))
            outcome.incomplete = true
        }
    }
}
