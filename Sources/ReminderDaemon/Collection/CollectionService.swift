import Foundation
import ReminderCore
import ReminderInterface
import ReminderScheduling
import ReminderStore
import Synchronization
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
    /// On the folders' own thread (``DedicatedThread/folders``): reading thousands of items holds up no call.
    nonisolated var unownedExecutor: UnownedSerialExecutor { DedicatedThread.folders }
    let context: DaemonContext
    /// The stores it holds: the linked collection's items and what they change.
    let stores: Stores
    private let scheduling: SchedulingService
    private let home: String
    let commands: (any CommandRunner)?
    /// Problems already reported (an item's name and what is wrong): each is said once per start, however often the
    /// item changes (a bad item rewritten every 40 ms was said at every version: 1,455 lines a minute).
    private var reported: Set<String> = []
    /// The zone files' names, listed once for the tasks and events of other clients read as reminders (listing
    /// them for each of 100,000 items read every zone file 100,000 times, and held calls for 30 s at a time).
    var zoneNames: [String]?
    /// Why the folder is not taken as the collection now (nil: it is): set by a scan that finds it missing,
    /// unreadable or emptied, cleared by one that finds it back and by ``relink()``.
    var heldBecause: String? {
        didSet {
            if heldBecause == nil { publishEverything = true }
            published.withLock { $0 = heldBecause }
        }
    }
    /// `heldBecause` for ``state``, read without waiting for the actor (a scan of thousands of items holds it).
    private let published = Mutex<String?>(nil)
    /// Whether the next publish looks at every row: at start, when the folder is used again, and after a write
    /// into it failed (what changed before is not known). Otherwise it looks at the rows written since the last
    /// publish (``pendingChanges``): one log with 100,000 reminders linked read every row and item before.
    var publishEverything = true
    /// What the change feed handed in since the last publish began (kept only while the folder is in use: once it
    /// is used again, everything is published).
    private var pendingChanges = CollectionChanges()
    /// Months whose archive, read here, lacked records this device has: written again at the next publish.
    var refold: Set<CollectionStore.Month> = []
    /// A publish, a scan or a relink is running (they take turns: a scan must not apply an item a publish is
    /// rewriting); those waiting for their turn; and whether a publish was asked for meanwhile. Held from the
    /// start until ``readFolder()``: a call's change before it (the calendars are read first) ran the first
    /// publish, of every reminder, itself, and the call waited for it (43 s with 100,000).
    private var busy = true
    private var startingUp = true
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var publishAgain = false
    /// A publish of everything was asked for (``publish(_:)``): ``publishWhenAsked()`` runs it.
    private let everythingAsked = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    /// The running publish's files, and whether a scan waits for it; the entries named that it wrote (read after).
    private let progress = PublishProgress()
    private var scanAfterPublish: Set<String> = []
    /// The files found gone, applied as deletions made elsewhere once none more went for a while (a folder being
    /// emptied is then seen gone as a whole, and held).
    private(set) var removals = PendingRemovals()
    /// The items of logs and skips read before their reminder, by the reminder's UID: read again when a scan
    /// applies that reminder (a scan of the entries the watcher named would not look at them again).
    var waitingForReminder: [String: Set<String>] = [:]

    /// The sync command's runs: one at a time, one more asked for while it runs.
    struct SyncState {
        var running = false
        var again = false
        /// A finished run's next run (one more, or the one after `sync-interval`) is being planned.
        var planningAgain = false
        var lastStarted: Instant?
        /// A failure was reported and no run succeeded since: do not report again.
        var failing = false
        /// Runs started and ended so far; those waiting for the end of a run (``freshen()``), by the number of
        /// the run they wait for, with what it said (nil: it succeeded).
        var started = 0
        var ended = 0
        var waiting: [Int: (run: Int, continuation: CheckedContinuation<String?, Never>)] = [:]
        var nextWaiter = 0
    }
    var sync = SyncState()

    /// How long after a local change the sync runs (changes meanwhile go in the same run).
    static let syncDelaySeconds: Int64 = 2
    /// How long before an announced occurrence is repeated or decided the sync runs (a dose taken on another
    /// device then stops the repeat and is not recorded missed), and at most once in this many seconds.
    static let syncLeadSeconds: Int64 = 45
    static let syncSpacingSeconds: Int64 = 60
    /// How long a sync may run before it is killed.
    static let syncTimeLimitMilliseconds: Int32 = 120_000

    init(context: DaemonContext, stores: Stores, scheduling: SchedulingService, home: String, commands: (any CommandRunner)?) {
        self.stores = stores
        (self.context, self.scheduling, self.home, self.commands) = (context, scheduling, home, commands)
    }

    /// The collection's folder, as an absolute path (nil: none configured).
    nonisolated var folder: String? { context.settings.configuration.collectionFolder(home: home) }

    // MARK: Local changes out

    /// Writes what changed here since the last time into the collection (``pendingChanges`` and `changes`), and
    /// asks for a sync when it wrote. The writing runs on NIO's thread pool: firings and calls go on meanwhile.
    /// A publish of everything (``publishEverything``) is never run here but asked of the collection's own
    /// publisher (``publishWhenAsked()``): the change feed's deliveries and the clock's events call this, and
    /// with 100,000 reminders that publish takes half a minute (a reminder added meanwhile was planned only after
    /// it, and fired 44 s late). Asked again while the collection is busy (a publish or a scan running), it
    /// returns at once and the change is published when that ends.
    /// - Returns: how many files were written or removed.
    /// - Parameter changes: what the change feed handed in (none: an upkeep, or a publish of everything).
    @discardableResult
    func publish(_ changes: CollectionChanges = CollectionChanges()) async -> Int {
        pendingChanges.formUnion(changes)
        return await publish(everything: false)
    }

    /// Publishes what is due: everything when ``publishEverything`` says so (at start, after a write failed, when
    /// the folder is back or the occurrence tasks' window moved), else the changes handed in.
    @discardableResult
    func publishDue() async -> Int {
        await publish(everything: true)
    }

    /// The collection's own publisher: runs each publish of everything asked for (``publish(_:)``), one at a
    /// time, until the task is cancelled (at shutdown).
    func publishWhenAsked() async {
        await publishDue()
        for await _ in everythingAsked.stream { await publishDue() }
    }

    private func publish(everything allowed: Bool) async -> Int {
        guard let folder, heldBecause == nil else { return 0 }
        if publishEverything && !allowed {
            everythingAsked.continuation.yield()
            return 0
        }
        guard !busy else {
            publishAgain = true
            return 0
        }
        busy = true
        var changed = 0
        var stoppedForScan = false
        repeat {
            publishAgain = false
            let publisher = CollectionPublisher(context: context, stores: stores, folder: folder)
            let (everything, changes, refold) = (publishEverything, pendingChanges, refold)
            (publishEverything, pendingChanges, self.refold) = (false, CollectionChanges(), [])  // set again meanwhile: another publish
            let progress = progress
            let outcome = await offTheEventLoops {
                publisher.publish(everything: everything, changes: changes, refold: refold, progress: progress)
            }
            if outcome.incomplete { (self.refold, publishEverything) = (self.refold.union(refold), true) }
            stoppedForScan = outcome.stoppedForScan
            for problem in outcome.problems { reportOnce(problem.key, .error, problem.text) }
            changed += outcome.changed
            if let next = outcome.nextUpkeep, await scheduling.wakeUp(.collectionUpkeep).map({ next < $0 }) ?? true {
                await scheduling.setWakeUp(.collectionUpkeep, at: next)
            }
        } while publishAgain && waiting.isEmpty && heldBecause == nil && (allowed || !publishEverything)
        // Stopped for a scan, the publish goes on after it (``folderChanged``): what it wrote so far stays known.
        if !stoppedForScan { progress.reset() }
        release()
        if publishEverything && !allowed { everythingAsked.continuation.yield() }
        if !stoppedForScan, !scanAfterPublish.isEmpty {
            let names = scanAfterPublish
            scanAfterPublish = []
            await scan(named: names)
        }
        if changed > 0 { await requestSync(at: context.clock.now().adding(seconds: Self.syncDelaySeconds)) }
        return changed
    }

    /// Waits until no publish or scan runs, then holds the collection. A publish running stops after its page
    /// for it, and goes on after.
    func acquire() async {
        if busy {
            progress.scanArrives()
            await withCheckedContinuation { waiting.append($0) }  // handed over by ``release()``: busy stays set
        } else {
            busy = true
        }
    }

    /// Hands the collection to the next scan or relink waiting, else frees it.
    func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        if waiting.isEmpty { progress.noScanWaits() }
    }

    /// The file of the reminder item with `uid` (nil: none, or the store cannot say; the item is then applied
    /// and the store's unique checks stand).
    func reminderFile(ofUID uid: String) -> String? {
        do { return try stores.collection.fileName(ofReminderUID: uid) } catch { return nil }
    }

    // MARK: The sync command

    /// Runs the sync command at `instant` (or earlier, if a run is planned sooner).
    func requestSync(at instant: Instant) async {
        guard folder != nil, context.settings.configuration.syncCommand != nil, commands != nil else { return }
        if let planned = await scheduling.wakeUp(.collectionSync), planned <= instant { return }
        await scheduling.setWakeUp(.collectionSync, at: instant)
    }

    /// Plans a sync a little before the next repeat or window end of an announced occurrence (at most one a
    /// minute), so that a dose taken on another device meanwhile is known by then. The decision never waits
    /// for it: a sync that is late or hangs changes nothing but what is known.
    /// Also plans the next paced run while a dose waits for its tick (``SyncPace``).
    func syncBeforeDecisions(now: Instant) async {
        guard folder != nil, context.settings.configuration.syncCommand != nil else { return }
        if let paced = await pacedSync(now: now) { await requestSync(at: paced) }
        guard let decision = await scheduling.nextDecision, decision > now else { return }
        var at = decision.adding(seconds: -Self.syncLeadSeconds)
        if let last = sync.lastStarted { at = max(at, last.adding(seconds: Self.syncSpacingSeconds)) }
        at = max(at, now)
        guard at < decision else { return }
        await requestSync(at: at)
    }

    /// The next run while an announced dose waits for its tick (nil: none waits, or `sync-interval` is off).
    private func pacedSync(now: Instant) async -> Instant? {
        SyncPace.nextRun(
            waitingSince: await scheduling.newestWaitingAnnouncement, lastStarted: sync.lastStarted,
            intervalSeconds: context.settings.configuration.syncIntervalSeconds, now: now)
    }

    /// Whether a run of the sync command has not ended yet, or its end is still being taken in (tests wait).
    var syncRunning: Bool { sync.running || sync.planningAgain }

    /// The planned sync is due: runs it, or one more after the one running.
    func syncDue(now: Instant) {
        guard let command = context.settings.configuration.syncCommand, let commands else { return }
        guard !sync.running else { return sync.again = true }
        (sync.running, sync.lastStarted) = (true, now)
        sync.started += 1
        let run = UserCommand(
            arguments: command, environment: [], purpose: "sync command \(command.joined(separator: " "))",
            timeLimitMilliseconds: Self.syncTimeLimitMilliseconds, logsOutput: sync.failing ? .never : .onFailure)
        commands.run(run) { outcome in
            // Called on the runner's thread: back onto the service.
            Task { await self.syncFinished(outcome, of: run) }
        }
    }

    /// A run ended: reported once when it failed (until one succeeds), and run again if asked meanwhile; else
    /// the next runs after `sync-interval`.
    private func syncFinished(_ outcome: CommandOutcome, of run: UserCommand) async {
        // Until the next run is planned, it counts as running (tests wait for that).
        (sync.running, sync.planningAgain) = (false, true)
        defer { sync.planningAgain = false }
        sync.ended += 1
        let problem = outcome.problem(of: run)
        for (id, waiter) in sync.waiting where waiter.run <= sync.ended {
            sync.waiting[id] = nil
            waiter.continuation.resume(returning: problem?.text)
        }
        if let problem {
            if !sync.failing {
                context.say(problem.severity, problem.text + "; reminders fire from what this device has, and the next change tries again (said once until a sync succeeds)")
            }
            sync.failing = true
        } else if sync.failing {
            sync.failing = false
            context.say(.info, "The \(run.purpose) works again")
        }
        if sync.again {
            sync.again = false
            await requestSync(at: context.clock.now())
        } else if let interval = context.settings.configuration.syncIntervalSeconds {
            let now = context.clock.now()
            let paced = await pacedSync(now: now) ?? .endOfTime
            await requestSync(at: min(now.adding(seconds: interval), paced))
        }
    }

    // MARK: Changes from elsewhere in

    /// Reads the folder and publishes what it lacks: at start (the collection is held for it until then) and
    /// after a reload.
    func readFolder(publishing: Bool = true) async {
        if startingUp {
            startingUp = false
            release()
        }
        await scan()
        if publishing { await publishDue() }
    }

    /// Applies what others changed in the folder since it was last read: in the entries `named` when the watcher
    /// named them (one item written among 30,000 is one look and one row, not a listing of the folder and every
    /// row: each of remindd's own writes is seen by the watcher too), else anywhere in it.
    func scan(named: Set<String>? = nil) async {
        guard let folder else { return }
        // The running publish's own writes, reported by the watcher: looked at once it ends, without holding up
        // the watcher (another device's dose reported after them waited for the whole first publish).
        let own = busy ? named.map(progress.written(among:)) ?? [] : []
        scanAfterPublish.formUnion(own)
        let others = named?.subtracting(own)
        if others?.isEmpty ?? false { return }
        await acquire()
        defer { release() }
        let vdir = VdirFolder(path: folder)
        // A folder that is gone is read whole (and held).
        let named = access(folder, R_OK | X_OK) == 0 ? others : nil
        guard let input = await readFolderAndRows(folder, named: named, vdir: vdir) else { return }
        let (items, entries) = input
        let now = context.clock.now()
        let found = await offTheEventLoops { [items, entries] in ScanFindings(items: items, entries: entries) }
        let removalsDue = removals.due
        removals.scanned(gone: Set(found.gone.map(\.file)), lookedAt: named, now: now)
        // Judged as before; the files gone wait for a quiet (``PendingRemovals``), and the scan that applies
        // them looked at every one (its `missing` counts them all).
        let applyingRemovals = removals.apply(now: now, lookedAt: named)
        if found.missing > 0 {
            let known: Int
            do { known = named == nil ? found.linkedFiles : try stores.collection.linkedFileCount() } catch {
                linkedUnreadable(folder, error)
                return
            }
            if case .unavailable(let why) = CollectionPresence.judge(known: known, missing: found.missing) { return hold(folder, because: why) }
        }
        if let was = heldBecause {
            heldBecause = nil
            context.say(.notice, DaemonMessages.collectionBack, folder, was)
        }
        // Removals first: a reminder's logs are kept aside before the removal of the logs' own items is applied.
        // What the scan changed reaches the features through the change feed (the caller delivers it).
        if applyingRemovals { removals.clear() }
        await armRemovals(was: removalsDue, now: now)
        let removed = applyRemovals(applyingRemovals ? found.gone : [], now: now)
        var changedReminders = removed.removed
        pendingChanges.formUnion(CollectionChanges(reminders: removed.tasksGone))  // published after the scan
        var read = await readChanged(found.changed, found: found, items: items, vdir: vdir, named: named, now: now)
        changedReminders.formUnion(read.replan)
        let arrived = read.reminderUIDs.reduce(into: Set<String>()) { $0.formUnion(waitingForReminder.removeValue(forKey: $1) ?? []) }
            .subtracting(found.changed.map(\.name))
        if !arrived.isEmpty {
            read.records += await readChanged(vdir.look(at: arrived).entries, found: found, items: items, vdir: vdir, named: named, now: now).records
        }
        read.records += taskRecords(read.tasks, known: items, vdir: vdir, now: now)
        // Archives read now, and those of reminders that came back (their records went with them here).
        for (entry, text, archive) in read.archives + archivesOf(returned: changedReminders, except: Set(read.archives.map(\.entry.name))) {
            read.records += archiveRecords(archive, entry: entry, text: text, vdir: vdir, now: now)
        }
        // Logs kept while their reminder was gone: applied now if it is back.
        read.records += keptRecordsOfReturned(changedReminders, besides: read.records)
        await apply(applicable(read.records, items: items, now: now))
    }

    /// Keeps a wake-up for the deletions while some wait: at their due instant, or a second on when it passed and
    /// the look could not apply them (a publish was writing some of those files: they were left to the look after
    /// it, and the wake-up that came was used up); none when none wait.
    private func armRemovals(was: Instant?, now: Instant) async {
        guard let due = removals.due else {
            if was != nil { await scheduling.setWakeUp(.collectionRemovals, at: nil) }
            return
        }
        await scheduling.setWakeUp(.collectionRemovals, at: due > now ? due : now.adding(seconds: 1))
    }

    /// The wall clock was set: deletions waiting for their quiet are looked at now (a clock set back would have
    /// them wait for it to catch up; the look starts their quiet again, ``PendingRemovals``).
    func clockChanged(now: Instant) async {
        if !removals.files.isEmpty { await scheduling.setWakeUp(.collectionRemovals, at: now) }
    }

    /// The folder and why it is held, for `status` (nil: no collection is configured).
    nonisolated var state: CollectionStateValue? { folder.map { CollectionStateValue(folder: $0, heldBecause: published.withLock { $0 }) } }

    /// Stops using the folder until a scan finds it back: said once for each time it goes.
    func hold(_ folder: String, because why: String) {
        defer { heldBecause = why }
        removals.clear()  // the folder is read whole when it is used again
        guard heldBecause == nil else { return }
        context.say(.warning, """
            Collection \(folder) is not used: \(why) (a disk not mounted yet, a folder moved, emptied or replaced?). \
            Nothing is removed here and nothing written there until it holds them again; if it was reset or changed on \
            purpose, 'remindctl collection relink' writes this device's reminders and logs into it
            """)
    }

    /// Said once: a scan applies nothing while the store cannot say what was linked.
    func linkedUnreadable(_ folder: String, _ error: StoreError) {
        reportOnce("store \(error)", .error, "Collection \(folder): what was linked cannot be read (\(error)); nothing is applied from the folder until it can")
    }

    func reportOnce(_ key: String, _ severity: DaemonMessage.Severity, _ text: String) {
        guard reported.insert(key).inserted else { return }
        context.say(severity, text)
    }
}

extension CollectionService {
    /// The stores CollectionService holds, and no other: the linked collection's items and what they change.
    struct Stores: Sendable {
        let collection: CollectionStore
    }
}
