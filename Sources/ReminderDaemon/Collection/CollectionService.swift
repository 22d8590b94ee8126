import Foundation
import ReminderCore
import ReminderInterface
import ReminderStore
import SystemdSupport

/// The linked collection (`config.toml`'s `collection`): a vdir that vdirsyncer keeps in step with a CalDAV
/// server, so that the same reminders, logs and skips are on every device.
///
/// - ``publish()`` (after every local change) writes each of remindd's own reminders as an item, each log and
///   each skip as an item of its own (``CollectionItem``), and removes the items of what was deleted. An item
///   whose text would not change is not rewritten (vdirsyncer's etag is the file's mtime and inode).
/// - ``scan()`` (when the watcher sees the folder change, and at start) applies what another device or client
///   wrote: a reminder added, changed or removed; a log or a skip made there (applied once: it is its own item).
///   What remindd wrote itself is recognised by its etag and not read again.
/// Items are untrusted: each is checked as `add` and `log` check theirs; a bad one is reported once and changes
/// nothing. A command (`--exec`) is never written to or taken from the collection.
///
/// A folder that is missing, cannot be read, or lost most of what remindd linked there in one go
/// (``CollectionPresence``) is a disk not mounted or a folder moved, emptied or replaced, not deletions made on
/// another device: the collection is then held (nothing removed here, nothing written there, said once, shown
/// by `status`) until a scan finds it back, or ``relink()`` takes the folder as it is on purpose.
actor CollectionService {
    let context: DaemonContext
    private let scheduling: SchedulingService
    private let habits: HabitService
    private let home: String
    private let commands: (any CommandRunner)?
    /// Problems already reported (an item's name and version): each is said once.
    private var reported: Set<String> = []
    /// Why the folder is not taken as the collection now (nil: it is): set by a scan that finds it missing,
    /// unreadable or emptied, cleared by one that finds it back and by ``relink()``.
    private(set) var heldBecause: String? {
        didSet { if heldBecause == nil { publishEverything = true } }
    }
    /// Whether the next publish looks at every row: at start, when the folder is used again, and after a write
    /// into it failed (what changed before is not known). Otherwise it looks at the rows written since the last
    /// publish (``CollectionChanges``): one log with 100,000 reminders linked read every row and item before.
    private var publishEverything = true

    /// The sync command's runs: one at a time, one more asked for while it runs.
    private struct SyncState {
        var running = false
        var again = false
        /// A finished run's "one more" is being planned.
        var planningAgain = false
        var lastStarted: Instant?
        /// A failure was reported and no run succeeded since: do not report again.
        var failing = false
    }
    private var sync = SyncState()

    /// How long after a local change the sync runs (changes meanwhile go in the same run).
    static let syncDelaySeconds: Int64 = 2
    /// How long before an announced occurrence is repeated or decided the sync runs (a dose taken on another
    /// device then stops the repeat and is not recorded missed), and at most once in this many seconds.
    static let syncLeadSeconds: Int64 = 45
    static let syncSpacingSeconds: Int64 = 60
    /// How long a sync may run before it is killed.
    static let syncTimeLimitMilliseconds: Int32 = 120_000

    init(context: DaemonContext, scheduling: SchedulingService, habits: HabitService, home: String, commands: (any CommandRunner)?) {
        (self.context, self.scheduling, self.habits, self.home, self.commands) = (context, scheduling, habits, home, commands)
    }

    /// The collection's folder, as an absolute path (nil: none configured).
    nonisolated var folder: String? { context.configuration.collectionFolder(home: home) }

    // MARK: Local changes out

    /// Writes what changed here since the last time into the collection, and asks for a sync when it wrote.
    /// - Returns: how many files were written or removed.
    @discardableResult
    func publish() async -> Int {
        let changed = written()
        if changed > 0 { await requestSync(at: context.clock.now().adding(seconds: Self.syncDelaySeconds)) }
        return changed
    }

    /// Writes what changed here since the last time into the collection. - Returns: how many files it wrote or removed.
    private func written() -> Int {
        guard let folder, heldBecause == nil else { return 0 }
        let vdir = VdirFolder(path: folder)
        let now = context.clock.now()
        var items: [String: CollectionItemRecord]
        let rows: (reminders: [StoredReminder], logs: [IntakeRecord], skips: [OutcomeRecord])
        let everything = publishEverything
        do {
            let changes = try context.store.collection.takeChanges()
            if everything {
                items = try context.store.collection.items()
                rows = try context.store.collection.published()
            } else {
                guard !changes.isEmpty else { return 0 }
                (rows, items) = try context.store.collection.published(changes)
            }
        } catch {
            context.say(.error, "Collection \(folder): cannot read what to publish: \(error)")
            publishEverything = true
            return 0
        }
        publishEverything = false
        var byRow: [CollectionItemRecord.Kind: [Int64: CollectionItemRecord]] = [:]
        for item in items.values { if let id = item.localId { byRow[item.kind, default: [:]][id] = item } }
        var changed = 0
        var reminderUIDs: [Int64: (uid: String, name: String)] = [:]

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
            guard let (rule, zone) = schedule(reminder.rule, in: reminder.timeZone) else { continue }
            var modified = item.map { Instant(secondsSinceEpoch: $0.modifiedAt) } ?? now
            var text = CollectionItem.text(fields, rule: rule, zone: zone, modifiedAt: modified, previous: item?.text)
            guard text != item?.text else { continue }
            if item != nil {
                modified = now
                text = CollectionItem.text(fields, rule: rule, zone: zone, modifiedAt: modified, previous: item?.text)
            }
            let fileName = item?.fileName ?? CollectionItem.fileName(uid: uid)
            changed += write(vdir, CollectionItemRecord(
                fileName: fileName, uid: uid, kind: .reminder, localId: reminder.id, etag: "", text: text, modifiedAt: modified.secondsSinceEpoch))
        }
        for log in rows.logs where byRow[.taken]?[log.id!] == nil {
            guard let reminder = reminderUIDs[log.reminderId] else { continue }  // a calendar's alarm: not published
            var record = CollectionItem.Record(
                uid: UUID().uuidString.lowercased() + "@remindd", kind: .taken, reminder: reminder.uid, at: Instant(secondsSinceEpoch: log.at),
                timeZone: log.timeZone, occurrence: log.forScheduledAt.map(Instant.init(secondsSinceEpoch:)))
            record.amount = log.amount
            changed += write(vdir, CollectionItemRecord(
                fileName: CollectionItem.fileName(uid: record.uid), uid: record.uid, kind: .taken, localId: log.id,
                etag: "", text: CollectionItem.text(record, reminderName: reminder.name), modifiedAt: log.at))
        }
        for skip in rows.skips where byRow[.skipped]?[skip.id!] == nil {
            guard let reminder = reminderUIDs[skip.reminderId] else { continue }
            let record = CollectionItem.Record(
                uid: UUID().uuidString.lowercased() + "@remindd", kind: .skipped, reminder: reminder.uid, at: Instant(secondsSinceEpoch: skip.decidedAt),
                timeZone: "UTC", occurrence: Instant(secondsSinceEpoch: skip.scheduledAt), reason: skip.reason.flatMap { $0.isEmpty ? nil : $0 })
            changed += write(vdir, CollectionItemRecord(
                fileName: CollectionItem.fileName(uid: record.uid), uid: record.uid, kind: .skipped, localId: skip.id,
                etag: "", text: CollectionItem.text(record, reminderName: reminder.name), modifiedAt: skip.decidedAt))
        }
        // What was deleted here: its item goes.
        let present: [CollectionItemRecord.Kind: Set<Int64>] = [
            .reminder: Set(rows.reminders.compactMap(\.id)), .taken: Set(rows.logs.compactMap(\.id)), .skipped: Set(rows.skips.compactMap(\.id)),
        ]
        for item in items.values where item.kind != .foreign && item.kind != .alias {
            guard let id = item.localId, present[item.kind]?.contains(id) != true else { continue }
            // A completion's log deleted here: the completion stays in its item, and is not taken again. A log
            // that went with its reminder stays in the collection, kept for another device: the reminder may
            // come back from there (changed there while it was removed here), and its logs with it.
            var orphaned = item.fileName.contains("#")
            // The row's text was read (or written) as a record before: one that no longer reads is not a record.
            if item.kind != .reminder, case .record(let record)? = try? CollectionItem.read(item.text, file: item.fileName),
                reminderUIDs.values.contains(where: { $0.uid == record.reminder }) ? false : !isLinked(record.reminder) {
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
                changed += 1
            } catch {
                context.say(.error, "Collection \(folder): could not remove \(item.fileName): \(error)")
                publishEverything = true
            }
        }
        return changed
    }

    /// The file of the reminder item with `uid` (nil: none, or the store cannot say; the item is then applied
    /// and the store's unique checks stand).
    private func reminderFile(ofUID uid: String) -> String? {
        do { return try context.store.collection.fileName(ofReminderUID: uid) } catch { return nil }
    }

    /// Whether the reminder of a log's item exists here; when that cannot be read, no: the item is then kept in
    /// the folder (as a log whose reminder went), never removed on a guess.
    private func isLinked(_ uid: String) -> Bool {
        do { return try context.store.collection.isLinkedReminder(uid: uid) } catch { return false }
    }

    /// Writes one item and records it. - Returns: 1 when written.
    private func write(_ vdir: VdirFolder, _ item: CollectionItemRecord) -> Int {
        var item = item
        do {
            item.etag = try vdir.write(item.fileName, item.text)
            try context.store.collection.save(item)
            return 1
        } catch {
            reportOnce("write \(item.fileName)", .error, "Collection \(vdir.path): could not write \(item.fileName): \(error); tried again at the next change")
            publishEverything = true
            return 0
        }
    }

    // MARK: The sync command

    /// Runs the sync command at `instant` (or earlier, if a run is planned sooner).
    private func requestSync(at instant: Instant) async {
        guard folder != nil, context.configuration.syncCommand != nil, commands != nil else { return }
        if let planned = await scheduling.wakeUp(.collectionSync), planned <= instant { return }
        await scheduling.setWakeUp(.collectionSync, at: instant)
    }

    /// Plans a sync a little before the next repeat or window end of an announced occurrence (at most one a
    /// minute), so that a dose taken on another device meanwhile is known by then. The decision never waits
    /// for it: a sync that is late or hangs changes nothing but what is known.
    func syncBeforeDecisions(now: Instant) async {
        guard folder != nil, context.configuration.syncCommand != nil, let decision = await scheduling.nextDecision, decision > now else { return }
        var at = decision.adding(seconds: -Self.syncLeadSeconds)
        if let last = sync.lastStarted { at = max(at, last.adding(seconds: Self.syncSpacingSeconds)) }
        at = max(at, now)
        guard at < decision else { return }
        await requestSync(at: at)
    }

    /// Whether a run of the sync command has not ended yet, or its end is still being taken in (tests wait).
    var syncRunning: Bool { sync.running || sync.planningAgain }

    /// The planned sync is due: runs it, or one more after the one running.
    func syncDue(now: Instant) {
        guard let command = context.configuration.syncCommand, let commands else { return }
        guard !sync.running else { return sync.again = true }
        (sync.running, sync.lastStarted) = (true, now)
        let run = UserCommand(
            arguments: command, environment: [], purpose: "sync command \(command.joined(separator: " "))",
            timeLimitMilliseconds: Self.syncTimeLimitMilliseconds)
        commands.run(run) { outcome in
            // Called on the runner's thread: back onto the service.
            Task { await self.syncFinished(outcome, of: run) }
        }
    }

    /// A run ended: reported once when it failed (until one succeeds), and run again if asked meanwhile.
    private func syncFinished(_ outcome: CommandOutcome, of run: UserCommand) async {
        sync.running = false
        if let problem = outcome.problem(of: run) {
            if !sync.failing {
                context.say(problem.severity, problem.text + "; reminders fire from what this device has, and the next change tries again (said once until a sync succeeds)")
            }
            sync.failing = true
        } else if sync.failing {
            sync.failing = false
            context.say(.info, "The \(run.purpose) works again")
        }
        if sync.again {
            (sync.again, sync.planningAgain) = (false, true)
            await requestSync(at: context.clock.now())
            sync.planningAgain = false
        }
    }

    // MARK: Changes from elsewhere in

    /// Applies what others changed in the folder since it was last read: in the entries `named` when the watcher
    /// named them (one item written among 30,000 is one look and one row, not a listing of the folder and every
    /// row: each of remindd's own writes is seen by the watcher too), else anywhere in it.
    func scan(named: Set<String>? = nil) async {
        guard let folder else { return }
        let vdir = VdirFolder(path: folder)
        let listing: (entries: [VdirFolder.Entry], refused: [VdirFolder.Refused])
        let items: [String: CollectionItemRecord]
        let linkedFiles: Int
        // A folder that is gone is read whole (and held).
        let named = access(folder, R_OK | X_OK) == 0 ? named : nil
        do {
            if let named {
                (items, linkedFiles) = try context.store.collection.items(named: named)
            } else {
                items = try context.store.collection.items()
                linkedFiles = Set(items.keys.map { String($0.prefix { $0 != "#" }) }).count
            }
        } catch {
            reportOnce("store \(error)", .error, "Collection \(folder): what was linked cannot be read (\(error)); nothing is applied from the folder until it can")
            return
        }
        do {
            if let named { listing = vdir.look(at: named) } else { listing = try vdir.list() }
        } catch {
            hold(folder, because: error.code == ENOENT ? "the folder does not exist" : "it cannot be read (\(error))")
            return
        }
        for refused in listing.refused {
            reportOnce("\(refused.name) \(refused.reason)", .warning, "Collection: item \(VdirFolder.printable(refused.name)) is not read: \(refused.reason)")
        }
        let now = context.clock.now()
        var replan: Set<Int64> = []
        var reconsider: Set<Int64> = []
        let names = Set(listing.entries.map(\.name))
        let linked = Set(items.keys.map { String($0.prefix { $0 != "#" }) })
        if case .unavailable(let why) = CollectionPresence.judge(known: linkedFiles, missing: linked.subtracting(names).count) {
            return hold(folder, because: why)
        }
        if let was = heldBecause {
            heldBecause = nil
            context.say(.notice, "Collection \(folder) is back (it was not used: \(was)); its changes apply again")
        }
        // A completion's log (`file#key`) goes with its item's file. Reminders first: their logs are kept aside
        // before the removal of the logs' own items is applied.
        let gone = items.values.filter { !names.contains(String($0.fileName.prefix { $0 != "#" })) }
        for item in gone.sorted(by: { ($0.kind == .reminder ? 0 : 1, $0.fileName) < ($1.kind == .reminder ? 0 : 1, $1.fileName) }) {
            do {
                if let removed = try context.store.collection.remove(item, now: now) {
                    if item.kind == .reminder {
                        replan.insert(removed.reminderID)
                        context.say(.notice, """
                            Collection: a reminder (item \(item.fileName)) was removed on another device; \(removed.keptLogs) of its logs are kept \
                            here, and come back with it if its item does
                            """)
                    } else {
                        reconsider.insert(removed.reminderID)
                    }
                }
            } catch {
                context.say(.error, "Collection: could not apply the removal of \(item.fileName): \(error)")
            }
        }
        // Reminders before logs and skips: a log refers to its reminder by UID.
        var records: [(VdirFolder.Entry, String, CollectionItem.Record)] = []
        var uids: [String: String] = Dictionary(items.values.map { ($0.uid, $0.fileName) }) { a, _ in a }
        for entry in listing.entries where items[entry.name]?.etag != entry.etag {
            let text: String
            var content: CollectionItem.Content
            do throws(FileLineError) {
                do { text = try vdir.read(entry) } catch { throw FileLineError(file: entry.name, line: 1, message: error.description) }
                content = try CollectionItem.read(text, file: entry.name)
                if case .foreign(let uid) = content, let adopted = try adopted(text, uid: uid, file: entry.name, now: now) { content = .reminder(adopted) }
            } catch {
                reportOnce("\(entry.name) \(entry.etag)", .warning, "Collection: item \(entry.name) is not applied: \(error.description)")
                continue
            }
            var item = CollectionItemRecord(
                fileName: entry.name, uid: "", kind: .foreign, localId: items[entry.name]?.localId, etag: entry.etag, text: text,
                modifiedAt: now.secondsSinceEpoch)
            switch content {
            case .reminder(let reminder):
                if let other = uids[reminder.uid] ?? (named == nil ? nil : reminderFile(ofUID: reminder.uid)), other != entry.name {
                    reportOnce("\(entry.name) uid", .warning, "Collection: item \(entry.name) has the UID of \(other); it is not applied")
                    continue
                }
                if let zone = reminder.timeZone {
                    do { _ = try context.zone(named: zone) } catch {
                        reportOnce("\(entry.name) \(entry.etag)", .warning, "Collection: item \(entry.name) is not applied: \(error.message)")
                        continue
                    }
                }
                uids[reminder.uid] = entry.name
                (item.uid, item.kind) = (reminder.uid, .reminder)
                if let alias = items[entry.name], alias.kind == .alias {
                    // Another device's copy of one of ours, which it drops: its edits meanwhile are not applied.
                    (item.kind, item.localId) = (.alias, alias.localId)
                    do { try context.store.collection.save(item) } catch { context.say(.error, "Collection: could not note \(entry.name): \(error)") }
                    continue
                }
                item.modifiedAt = (CollectionItem.lastModified(text) ?? now).secondsSinceEpoch
                if items[entry.name]?.kind != .reminder { item.localId = nil }
                do {
                    let applied = try context.store.collection.apply(reminder, item: item, now: now)
                    replan.insert(applied.id)
                    if let dropped = applied.dropped { try vdir.remove(dropped) }
                } catch {
                    context.say(.error, "Collection: could not apply \(entry.name): \(error)")
                }
                // Marked done by another client (todo done; an instance's override with STATUS:COMPLETED): a log,
                // once per completion, which stays part of the item (it is not published on its own).
                // Only an instance that is one of the reminder's occurrences up to now, each once.
                var completed: Set<Instant> = []
                var refused: [String] = []
                for completion in CollectionItem.completions(text) where items[entry.name + "#" + completion.key] == nil {
                    if let instance = completion.instance {
                        guard let occurrence = completedOccurrence(instance, of: reminder, now: now), completed.insert(occurrence).inserted else {
                            refused.append(completion.key)
                            continue
                        }
                    }
                    let zone = reminder.timeZone ?? context.followedZone.name
                    records.append((VdirFolder.Entry(name: entry.name + "#" + completion.key, etag: ""), "", CollectionItem.Record(
                        uid: reminder.uid + "#" + completion.key, kind: .taken, reminder: reminder.uid, at: min(completion.at ?? now, now), timeZone: zone)))
                }
                if let first = refused.first {
                    reportOnce("\(entry.name) \(entry.etag) completions", .warning, """
                        Collection: item \(entry.name) marks \(refused.count) \(refused.count == 1 ? "instance" : "instances") of \(reminder.name) done \
                        (\(VdirFolder.printable(first))\(refused.count > 1 ? "..." : "")) that \(refused.count == 1 ? "is" : "are") not \
                        its occurrences up to now, or marked twice: not taken as doses
                        """)
                }
            case .record(let record):
                records.append((entry, text, record))
            case .foreign(let uid):
                (item.uid, item.localId) = (uid, nil)
                do { try context.store.collection.save(item) } catch { context.say(.error, "Collection: could not note \(entry.name): \(error)") }
            }
        }
        // Logs kept while their reminder was gone: applied now if it is back.
        if !replan.isEmpty {
            let kept: [CollectionItemRecord]
            do { kept = try context.store.collection.keptRecords() } catch {
                context.say(.error, "Collection: the logs kept while their reminder was gone cannot be read (\(error)); applied at a later change")
                kept = []
            }
            for orphan in kept where !records.contains(where: { $0.0.name == orphan.fileName }) {
                // Read as a record when it was kept: one that no longer reads stays kept, as it is.
                guard case .record(let record)? = try? CollectionItem.read(orphan.text, file: orphan.fileName) else { continue }
                records.append((VdirFolder.Entry(name: orphan.fileName, etag: orphan.etag), orphan.text, record))
            }
        }
        for (entry, text, record) in records {
            var item = CollectionItemRecord(
                fileName: entry.name, uid: record.uid, kind: record.kind == .taken ? .taken : .skipped, localId: nil, etag: entry.etag, text: text,
                modifiedAt: record.at.secondsSinceEpoch)
            if let known = items[entry.name], known.kind == item.kind, known.localId != nil {
                // A log is never edited: a new version of its file changes nothing here.
                item.localId = known.localId
                do { try context.store.collection.save(item) } catch { context.say(.error, "Collection: could not note \(entry.name): \(error)") }
                continue
            }
            if let refusal = refusal(of: record, now: now) {
                // Kept aside as another client's item: not read again until its file changes, never applied.
                reportOnce("\(entry.name) \(entry.etag) refused", .warning, "Collection: item \(entry.name) is not applied: \(refusal)")
                (item.kind, item.localId) = (.foreign, nil)
                if !entry.etag.isEmpty {
                    do { try context.store.collection.save(item) } catch { context.say(.error, "Collection: could not note \(entry.name): \(error)") }
                }
                continue
            }
            do {
                // Its reminder is not here yet: read again at the next scan.
                guard let applied = try context.store.collection.apply(record, item: item) else { continue }
                reconsider.insert(applied.reminderID)
                if applied.forced {
                    context.say(.notice, "Collection: the dose of \(entry.name) at \(record.at) is past its reminder's dose limits here: recorded as forced, as --force records it")
                }
            } catch {
                context.say(.error, "Collection: could not apply \(entry.name): \(error)")
            }
        }
        for id in replan { await scheduling.refresh(reminderID: id) }
        for id in reconsider.subtracting(replan) { await scheduling.reconsider(reminderID: id, now: now) }
        if !reconsider.isEmpty || !replan.isEmpty { await habits.changed(now: now, activity: .unknown) }
    }

    /// The folder and why it is held, for `status` (nil: no collection is configured).
    var state: CollectionStateValue? { folder.map { CollectionStateValue(folder: $0, heldBecause: heldBecause) } }

    /// Stops using the folder until a scan finds it back: said once for each time it goes.
    private func hold(_ folder: String, because why: String) {
        defer { heldBecause = why }
        guard heldBecause == nil else { return }
        context.say(.warning, """
            Collection \(folder) is not used: \(why) (a disk not mounted yet, a folder moved, emptied or replaced?). \
            Nothing is removed here and nothing written there until it holds them again; if it was reset or changed on \
            purpose, 'remindctl collection relink' writes this device's reminders and logs into it
            """)
    }

    /// `remindctl collection relink`: takes the folder as it is now as the collection (it was reset, emptied or
    /// moved on purpose, or the config names another one): every item remindd linked that it lacks is written
    /// into it again as remindd last wrote or read it, nothing here is removed, then it is read and published as
    /// usual. - Returns: the folder and how many items were written back.
    func relink() async throws(ServiceError) -> (folder: String, restored: Int) {
        guard let folder else {
            throw .invalidInput(parameter: "collection", message: "no collection is linked: set 'collection' in config.toml (see 'man remindd.toml')")
        }
        let vdir = VdirFolder(path: folder)
        let listing: [VdirFolder.Entry]
        do { listing = try vdir.list().entries } catch {
            throw .invalidInput(parameter: "collection", message: "\(folder) cannot be read (\(error)): mount it, or create it with 'mkdir -p \(folder)'")
        }
        let names = Set(listing.map(\.name))
        let items = try storing { () throws(StoreError) in try context.store.collection.items() }
        var restored = 0
        for item in items.values.sorted(by: { $0.fileName < $1.fileName }) where !item.fileName.contains("#") && !names.contains(item.fileName) {
            if item.kind == .alias {
                // Another device's copy that gave way to this one: not brought back.
                try storing { () throws(StoreError) in try context.store.collection.forget(fileName: item.fileName) }
                continue
            }
            restored += write(vdir, item)
        }
        if let was = heldBecause { context.say(.notice, "Collection \(folder) relinked (it was not used: \(was)); \(restored) items written back into it") }
        heldBecause = nil
        await scan()
        await publish()
        return (folder, restored)
    }

    private func reportOnce(_ key: String, _ severity: DaemonMessage.Severity, _ text: String) {
        guard reported.insert(key).inserted else { return }
        context.say(severity, text)
    }
}
