import ReminderCore
import ReminderStore

/// What a scan finds when it compares the folder's entries with the items linked there, worked out on the
/// thread pool: a whole scan of 130,000 entries (the watcher's queue overflows during a first publish) built
/// these on an event loop, and a `Status` call waited for it.
struct ScanFindings: Sendable {
    /// The linked files (a completion's `file#key` counts as its file) not in the folder.
    let missing: Int
    let linkedFiles: Int
    /// The items whose file is gone, reminders first (their logs are kept aside before the removal of the
    /// logs' own items is applied).
    let gone: [CollectionItemRecord]
    /// The entries that are new or changed since they were last read or written.
    let changed: [VdirFolder.Entry]
    /// The file of each UID linked.
    let uids: [String: String]

    init(items: [String: CollectionItemRecord], entries: [VdirFolder.Entry]) {
        let names = Set(entries.map(\.name))
        let linked = Set(items.values.map(\.file))
        missing = linked.subtracting(names).count
        linkedFiles = linked.count
        gone = items.values.filter { !names.contains($0.file) }
            .sorted { ($0.kind == .reminder ? 0 : 1, $0.fileName) < ($1.kind == .reminder ? 0 : 1, $1.fileName) }
        changed = entries.filter { items[$0.name]?.etag != $0.etag }
        uids = Dictionary(items.values.map { ($0.uid, $0.fileName) }) { first, _ in first }
    }
}

/// What the collection's items from elsewhere are checked against before they change anything here: the same
/// limits as `remindctl log` and `add`, and the reminder's own occurrences.
extension CollectionService {

    /// How many logs and skips from elsewhere go into one transaction.
    static let applyBatchSize = 64

    /// Applies logs and skips from elsewhere, ``applyBatchSize`` to a transaction on NIO's thread pool, letting
    /// other work run between the batches: the first read of 30,000 logs, one transaction each on an event loop,
    /// held every call (and the actor, which `Add` and firings wait for) for a minute.
    func apply(_ records: [(entry: VdirFolder.Entry, record: CollectionItem.Record, item: CollectionItemRecord)]) async {
        let store = stores.collection
        for start in stride(from: 0, to: records.count, by: Self.applyBatchSize) {
            let batch = Array(records[start..<min(start + Self.applyBatchSize, records.count)])
            let pairs = batch.map { ($0.record, $0.item) }
            let results = await offTheEventLoops { store.apply(pairs) }
            for (applied, result) in zip(batch, results) {
                switch result {
                case .success(let outcome?):
                    if outcome.forced {
                        context.say(.notice, DaemonMessages.forcedElsewhere, applied.entry.name, applied.record.at)
                    }
                case .success(nil):
                    // Its reminder is not here (yet): read again when a scan applies it, or at the next whole scan;
                    // said once.
                    reportOnce("\(applied.entry.name) no reminder", .notice, """
                        Collection: item \(applied.entry.name) is a \(applied.record.kind == .taken ? "dose" : "skip") of a reminder this device \
                        does not have (\(VdirFolder.printable(applied.record.reminder))): kept aside, and applied if that reminder comes
                        """)
                    if !applied.entry.name.contains("#") { waitingForReminder[applied.record.reminder, default: []].insert(applied.entry.name) }
                case .failure(let error): context.say(.error, "Collection: could not apply \(applied.entry.name): \(error)")
                }
            }
        }
    }

    /// Marked done by another client (todo done; an instance's override with STATUS:COMPLETED): a log, once per
    /// completion, which stays part of the item (it is not published on its own). Only an instance that is one of
    /// the reminder's occurrences up to now, each once; the others are said once.
    func completionRecords(
        in text: String, of reminder: CollectionItem.Reminder, entry: VdirFolder.Entry, known: [String: CollectionItemRecord], now: Instant
    ) -> [CollectionReading.Record] {
        var found: [CollectionReading.Record] = []
        var completed: Set<Instant> = []
        var refused: [String] = []
        for completion in CollectionItem.completions(text) where known[entry.name + "#" + completion.key] == nil {
            var occurrence: Instant?
            if let instance = completion.instance {
                occurrence = completedOccurrence(instance, of: reminder, now: now)
                guard let occurrence, completed.insert(occurrence).inserted else {
                    refused.append(completion.key)
                    continue
                }
            }
            let (zone, at) = (reminder.timeZone ?? context.settings.followedZone.name, min(completion.at ?? now, now))
            var record = CollectionItem.Record(uid: reminder.uid + "#" + completion.key, kind: .taken, reminder: reminder.uid, at: at, timeZone: zone)
            record.amount = completionAmount(of: reminder, on: occurrence ?? at)
            found.append(CollectionReading.Record(entry: VdirFolder.Entry(name: entry.name + "#" + completion.key, etag: ""), text: "", record: record, source: .completion))
        }
        if let first = refused.first {
            reportOnce("\(entry.name) completions", .warning, """
                Collection: item \(entry.name) marks \(refused.count) \(refused.count == 1 ? "instance" : "instances") of \(reminder.name) done \
                (\(VdirFolder.printable(first))\(refused.count > 1 ? "..." : "")) that \(refused.count == 1 ? "is" : "are") not \
                its occurrences up to now, or marked twice: not taken as doses
                """)
        }
        return found
    }

    /// What a task app's completion of `reminder` took: its dose on the day of `occurrence`, as a dose logged
    /// here takes (a completion recorded none, and a phone's tick left the stock as it was).
    func completionAmount(of reminder: CollectionItem.Reminder, on occurrence: Instant) -> Int64? {
        guard let (_, zone) = context.settings.schedule(reminder.rule, in: reminder.timeZone) else { return nil }
        return reminder.delivery.medication.dose(on: zone.localDateTime(at: occurrence).date)?.thousandths
    }

    /// The occurrence an instance marked done by another client stands for (a task app's override with
    /// RECURRENCE-ID): one of the reminder's occurrences since it was added and up to now; nil when it is not one.
    /// A reminder that counts from the last dose has no fixed occurrences: any time up to now is taken as one.
    func completedOccurrence(_ instance: CollectionItem.Completion.Instance, of reminder: CollectionItem.Reminder, now: Instant) -> Instant? {
        guard let (rule, zone) = context.settings.schedule(reminder.rule, in: reminder.timeZone) else { return nil }
        let candidate: Instant
        switch instance {
        case .utc(let local): candidate = Instant(secondsSinceEpoch: local.localSeconds)
        case .local(let local): candidate = zone.resolve(local)
        case .day(let date):
            guard let first = rule.occurrences(on: date, in: zone).first else { return nil }
            candidate = first.instant
        }
        guard candidate <= now.adding(seconds: CollectionReading.clockToleranceSeconds), candidate >= (reminder.created ?? candidate) else { return nil }
        if rule.countsFromLastDose { return candidate }
        return rule.nextOccurrence(after: candidate.adding(seconds: -1), in: zone)?.instant == candidate ? candidate : nil
    }

    /// Another client's task or event in the collection (`todo new`, a phone's task app) as a reminder: at its
    /// alarm, or else at its due time or start, as `import --format ics --all` would make it; nil when it has
    /// no time to remind (a task without a date, one long past).
    func adopted(_ text: String, uid: String, file: String, now: Instant) throws(FileLineError) -> CollectionItem.Reminder? {
        guard !uid.isEmpty else { return nil }
        let zones: CalendarImport.Zones
        do {
            let names = zoneNames ?? context.settings.zoneFiles.allZoneNames()
            zoneNames = names
            zones = try context.settings.importZones(names: names)
        } catch {
            throw FileLineError(file: file, line: 1, message: error.message)
        }
        guard let planned = try CalendarImport(text, file: file, all: true, now: now, zones: zones).reminders.first else { return nil }
        return CollectionItem.Reminder(
            uid: uid, name: planned.name, rule: planned.rule, timeZone: planned.timeZone,
            delivery: Delivery(repeating: planned.repeating))
    }
}
