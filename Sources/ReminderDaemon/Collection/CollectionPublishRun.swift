import Foundation
import ReminderCore
import ReminderStore

/// One publish going through its pages (``CollectionPublisher/publish(everything:changes:refold:progress:)``):
/// the items it writes, in batches of ``CollectionPublisher/batchSize``, and what it finds present, so that the
/// items of what is not can be removed after the last page.
struct CollectionPublishRun {
    let publisher: CollectionPublisher
    /// Every row is published (else those of a change).
    let everything: Bool
    let vdir: VdirFolder
    let now: Instant
    let progress: PublishProgress
    /// The items linked, by kind and row id.
    let byRow: [CollectionItemRecord.Kind: [Int64: CollectionItemRecord]]
    /// Logs and skips before this (epoch seconds) go into their month's archive, not into items of their own.
    let cutoff: Int64
    /// Occurrences are tasks of their own (the `occurrences` mode).
    let asJournal: Bool
    var outcome = CollectionPublisher.Outcome()
    private var batch: [CollectionItemRecord] = []
    /// The UID and name of each reminder with logs or skips to publish, and the UIDs of every one published.
    var reminderUIDs: [Int64: (uid: String, name: String)] = [:]
    var liveUIDs: Set<String> = []
    /// The rows found, by the kind of their items.
    var present: [CollectionItemRecord.Kind: Set<Int64>] = [.reminder: [], .taken: [], .skipped: []]
    /// Months to fold again: an archive read here lacked records, or a log or skip came late into a folded month.
    var refold: Set<CollectionStore.Month>
    private var pagesRead = 0

    init(
        _ publisher: CollectionPublisher, everything: Bool, items: [String: CollectionItemRecord], refold: Set<CollectionStore.Month>,
        progress: PublishProgress
    ) {
        (self.publisher, self.everything, self.progress, self.refold) = (publisher, everything, progress, refold)
        vdir = VdirFolder(path: publisher.folder)
        now = publisher.context.clock.now()
        var byRow: [CollectionItemRecord.Kind: [Int64: CollectionItemRecord]] = [:]
        for item in items.values { if let id = item.localId { byRow[item.kind, default: [:]][id] = item } }
        self.byRow = byRow
        cutoff = CollectionArchive.foldBefore(now: now).secondsSinceEpoch
        asJournal = publisher.context.settings.configuration.collectionMode == .occurrences
    }

    /// Whether the publish stops after the page just written (a scan of something else waits).
    mutating func stops() -> Bool {
        pagesRead += 1
        return progress.stops(afterPage: pagesRead)
    }

    /// Writes what is left of the batch.
    mutating func flush() { publisher.write(&batch, vdir, &outcome) }

    private mutating func add(_ item: CollectionItemRecord) {
        batch.append(item)
        progress.wrote(item.fileName)
        if batch.count >= CollectionPublisher.batchSize { flush() }
    }

    private mutating func remove(_ fileName: String) { publisher.remove(fileName, vdir, &outcome) }

    /// A log or skip dated in a month already folded (logged late, or from another device): its month is folded
    /// again with it at once.
    private mutating func foldAgainIfLate(_ kind: CollectionItemRecord.Kind, _ id: Int64, reminderID: Int64, at: Int64) {
        guard !everything, at < cutoff, byRow[kind]?[id]?.fileName.contains("#") != true else { return }
        refold.insert(CollectionStore.Month(reminderID: reminderID, month: CollectionArchive.month(of: Instant(secondsSinceEpoch: at))))
    }

    /// A page of reminders: each one's item, and its occurrence tasks (those out of the window go).
    /// `withRecords`: the reminders with logs or skips to publish; `writer`: this store's id.
    mutating func publish(_ reminders: [StoredReminder], withRecords: Set<Int64>, writer: String) throws(StoreError) {
        let stores = publisher.stores
        let texts = everything ? try stores.collection.texts(of: reminders.compactMap { byRow[.reminder]?[$0.id]?.fileName }) : [:]
        let tasks = try stores.collection.occurrenceItems(reminderIDs: Set(reminders.map(\.id)))
        for reminder in reminders {
            var item = byRow[.reminder]?[reminder.id]
            if everything, let fileName = item?.fileName { item?.text = texts[fileName] ?? "" }
            let uid = item?.uid ?? UUID().uuidString.lowercased() + "@remindd"
            present[.reminder]?.insert(reminder.id)
            liveUIDs.insert(uid)
            if withRecords.contains(reminder.id) { reminderUIDs[reminder.id] = (uid, reminder.name) }
            if let text = try publisher.text(of: reminder, uid: uid, item: item, now: now, asJournal: asJournal) {
                add(CollectionItemRecord(
                    fileName: item?.fileName ?? CollectionItem.fileName(uid: uid), uid: uid, kind: .reminder, localId: reminder.id, etag: "",
                    text: text.text, modifiedAt: text.modified.secondsSinceEpoch))
            }
            try publishTasks(of: reminder, uid: uid, previous: tasks, writer: writer)
        }
    }

    /// A reminder's occurrence tasks: those due written when they change, the others (out of the window, no
    /// longer an occurrence, or the mode is `recurring`) removed.
    private mutating func publishTasks(of reminder: StoredReminder, uid: String, previous tasks: [String: CollectionItemRecord], writer: String) throws(StoreError) {
        let (due, next) = try publisher.occurrenceTasks(of: reminder, uid: uid, previous: tasks, writer: writer, now: now)
        if let next { outcome.nextUpkeep = min(outcome.nextUpkeep ?? next, next) }
        for (fileName, task) in due {
            let text = task.text(previous: tasks[fileName]?.text, writtenAt: now)
            guard text != tasks[fileName]?.text else { continue }
            add(CollectionItemRecord(
                fileName: fileName, uid: task.uid, kind: .occurrence, localId: reminder.id, etag: "", text: text, modifiedAt: task.occurrence.secondsSinceEpoch))
        }
        let kept = Set(due.map(\.fileName))
        for stale in tasks.values where stale.localId == reminder.id && !kept.contains(stale.fileName) { remove(stale.fileName) }
    }

    /// A page of logs: each new one of a reminder published here, not yet old enough for its archive, as an
    /// item of its own.
    mutating func publish(_ logs: [IntakeRecord]) {
        for log in logs {
            present[.taken]?.insert(log.id)
            foldAgainIfLate(.taken, log.id, reminderID: log.reminderId, at: log.at)
            guard byRow[.taken]?[log.id] == nil, let reminder = reminderUIDs[log.reminderId] else { continue }  // no reminder: a calendar's alarm
            guard log.at >= cutoff else { continue }  // old enough to go straight into its archive
            var record = CollectionItem.Record(
                uid: UUID().uuidString.lowercased() + "@remindd", kind: .taken, reminder: reminder.uid, at: Instant(secondsSinceEpoch: log.at),
                timeZone: log.timeZone, occurrence: log.forScheduledAt.map(Instant.init(secondsSinceEpoch:)))
            record.amount = log.amount
            add(CollectionItemRecord(
                fileName: CollectionItem.fileName(uid: record.uid), uid: record.uid, kind: .taken, localId: log.id,
                etag: "", text: CollectionItem.text(record, reminderName: reminder.name), modifiedAt: log.at))
        }
    }

    /// A page of skips, as ``publish(_:)-(IntakeRecord)`` does logs.
    mutating func publish(_ skips: [Stored<OutcomeRecord>]) {
        for skip in skips {
            present[.skipped]?.insert(skip.id)
            foldAgainIfLate(.skipped, skip.id, reminderID: skip.reminderId, at: skip.decidedAt)
            guard byRow[.skipped]?[skip.id] == nil, let reminder = reminderUIDs[skip.reminderId], skip.decidedAt >= cutoff else { continue }
            let record = CollectionItem.Record(
                uid: UUID().uuidString.lowercased() + "@remindd", kind: .skipped, reminder: reminder.uid, at: Instant(secondsSinceEpoch: skip.decidedAt),
                timeZone: "UTC", occurrence: Instant(secondsSinceEpoch: skip.scheduledAt), reason: skip.reason.flatMap { $0.isEmpty ? nil : $0 })
            add(CollectionItemRecord(
                fileName: CollectionItem.fileName(uid: record.uid), uid: record.uid, kind: .skipped, localId: skip.id,
                etag: "", text: CollectionItem.text(record, reminderName: reminder.name), modifiedAt: skip.decidedAt))
        }
    }
}
