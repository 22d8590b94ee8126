import Foundation
import FitnessCore
import ReminderCore
import ReminderInterface
import ReminderStore
import TimeZoneDatabase
import VarlinkProtocol

/// What the daemon is built from: production passes the system clock, the journal and the file store; tests
/// pass a manual clock, a recording announcer and an in-memory store (`ReminderDaemonTesting`).
public struct DaemonPorts: Sendable {
    public var clock: any DaemonClock
    /// Every channel events go to (the Watch streams are added by the daemon itself).
    public var announcers: [any Announcer]
    public var status: any StatusReporter
    public var store: ReminderStore
    public var zones: TimeZoneDatabase
    public var configuration: DaemonConfiguration
    public var exercises: ExerciseLibrary
    /// Where routine files are read from, on every routine call (new files need no restart).
    public var routineDirectories: [String]
    /// Whether entries reach the journal (the Status call reports it).
    public var journalAvailable: @Sendable () -> Bool
    /// Where announcements are read back after a crash (the journal).
    public var ledger: any AnnouncementLedger
    /// Where files sent for an import wait (emptied at start): nil for `uploads` beside the store's file, or a
    /// temporary folder for a store in memory.
    public var uploadDirectory: String?
    /// The home folder, for `~/` in the config's folders: `$HOME`, as for the state and config paths.
    public var home: String
    /// What runs the linked collection's `sync-command` (nil: it is not run).
    public var commands: (any CommandRunner)?

    public init(
        clock: any DaemonClock, announcers: [any Announcer], status: any StatusReporter, store: ReminderStore, zones: TimeZoneDatabase,
        configuration: DaemonConfiguration, exercises: ExerciseLibrary, routineDirectories: [String],
        journalAvailable: @escaping @Sendable () -> Bool, ledger: any AnnouncementLedger = UnreadableLedger(), uploadDirectory: String? = nil,
        home: String = RemindPaths(environment: ProcessInfo.processInfo.environment, uid: getuid()).home, commands: (any CommandRunner)? = nil
    ) {
        self.clock = clock
        self.announcers = announcers
        self.status = status
        self.store = store
        self.zones = zones
        self.configuration = configuration
        self.exercises = exercises
        self.routineDirectories = routineDirectories
        self.journalAvailable = journalAvailable
        self.ledger = ledger
        self.uploadDirectory = uploadDirectory
        self.home = home
        self.commands = commands
    }
}

/// The composition root: builds the feature services from the ports and routes the Varlink methods to them.
/// `remindd` runs one over a socket and its system clock; tests build the same thing in-process.
public final class Daemon: Sendable {
    /// Every method of `io.remindd.Reminders`, for the Varlink server (or a test calling without a socket).
    public let router: MethodRouter

    /// (Internal: tests look at what waits for a lull.)
    let context: DaemonContext
    private let scheduling: SchedulingService
    private let reminders: ReminderService
    private let habits: HabitService
    private let fitness: FitnessService
    private let calendars: CalendarService
    private let collection: CollectionService
    private let medication: MedicationService
    private let lateLogs: PendingLateLogMatching
    /// The Watch streams (internal: tests wait for a subscriber before they fire).
    let watch = WatchAnnouncer()

    public init(_ ports: DaemonPorts) {
        let context = DaemonContext(ports: ports, announcer: AnnouncerGroup(ports.announcers + [watch]))
        let store = ports.store
        let scheduling = SchedulingService(
            context: context, stores: .init(firings: store.firings, reminders: store.reminders, intake: store.intake), statusReporter: ports.status)
        let habits = HabitService(context: context, stores: .init(habits: store.habits), scheduling: scheduling, activities: .stores(store))
        let medication = MedicationService(context: context, stores: .init(stock: store.stock, reminders: store.reminders, intake: store.intake))
        let collection = CollectionService(
            context: context, stores: .init(collection: store.collection), scheduling: scheduling, home: ports.home, commands: ports.commands)
        let reminders = ReminderService(
            context: context, stores: .init(reminders: store.reminders, intake: store.intake), scheduling: scheduling, habits: habits, medication: medication,
            freshness: collection)
        let fitness = FitnessService(context: context, stores: .init(fitness: store.fitness))
        let routines = RoutineService(context: context, reminders: reminders, habits: habits, fitness: fitness)
        (self.context, self.scheduling, self.reminders, self.habits, self.fitness) = (context, scheduling, reminders, habits, fitness)
        calendars = CalendarService(context: context, stores: .init(calendarAlarms: store.calendarAlarms), home: ports.home)
        self.collection = collection

        self.medication = medication
        var router = MethodRouter()
        router.storeFailed = { context.say(.error, "A call failed because the store cannot be used: \($0)") }
        router.beforeReply = { await context.feed.deliver() }
        // In this order: a log settles its occurrence before the habits count it and the collection writes it.
        context.feed.subscribe { changes in await scheduling.apply(changes, now: context.clock.now()) }
        context.feed.subscribe { changes in await habits.apply(changes, now: context.clock.now()) }
        context.feed.subscribe { changes in
            if !changes.collection.isEmpty { await collection.publish(changes.collection) }
            // A log (here or from another device), a deleted one, a count or a changed dose changes how long a
            // medication lasts.
            if !changes.reminders(changing: [.definition, .logs, .stock]).isEmpty { medication.checkLowStock(now: context.clock.now()) }
        }
        reminders.register(in: &router)
        habits.register(in: &router)
        fitness.register(in: &router)
        routines.register(in: &router)
        let lateLogs = PendingLateLogMatching(context: context, reminders: store.reminders, intake: store.intake, firings: store.firings)
        self.lateLogs = lateLogs
        BackupService(context: context, stores: .init(backups: store.backups), uploads: Self.uploads(ports), lateLogs: lateLogs)
            .register(in: &router)
        medication.register(in: &router)
        ReportService(
            context: context,
            stores: .init(reminders: store.reminders, intake: store.intake, firings: store.firings, stock: store.stock, fitness: store.fitness),
            reminders: reminders, habits: habits, fitness: fitness
        ).register(in: &router)
        Self.registerDaemonRoutes(
            in: &router, context: context, journalAvailable: ports.journalAvailable, reminders: reminders, scheduling: scheduling, collection: collection, watch: watch)
        self.router = router
    }

    /// Where uploaded files wait (`Backup.Upload`): beside the store, or a folder of its own for a store in memory.
    private static func uploads(_ ports: DaemonPorts) -> Uploads {
        Uploads(directory: ports.uploadDirectory ?? (ports.store.path.hasPrefix("/")
            ? (ports.store.path as NSString).deletingLastPathComponent + "/uploads"
            : NSTemporaryDirectory() + "remindd-uploads-" + String(UInt64.random(in: .min ... .max), radix: 16)))
    }

    /// The daemon's own methods: Status, RelinkCollection and Watch.
    private static func registerDaemonRoutes(
        in router: inout MethodRouter, context: DaemonContext, journalAvailable: @escaping @Sendable () -> Bool, reminders: ReminderService,
        scheduling: SchedulingService, collection: CollectionService, watch: WatchAnnouncer
    ) {
        router.on(Reminders.Status.self, readsOnly: true) { _ in
            let counts = try reminders.counts()
            let status = scheduling.publishedStatus()
            let next = status.next.map { FiringValue(reminderID: $0.0.id, name: $0.0.name, occurrence: $0.1) }
            return StatusValue(
                version: RemindVersion.current, reminders: counts.total, enabled: counts.enabled, next: next, status: status.line,
                storePath: context.storePath, journal: journalAvailable(), systemTimeZone: context.settings.systemZone,
                timeZone: context.settings.followedZone.name, timeZoneSource: context.settings.followedZone.source,
                collection: collection.state)
        }
        router.on(Reminders.RelinkCollection.self) { _ in
            let relinked = try await collection.relink()
            return .init(folder: relinked.folder, restored: relinked.restored)
        }
        router.stream(Reminders.Watch.self) { call, _, reply in
            guard call.more == true else { throw VarlinkError.expectedMore() }
            let subscription = watch.subscribe()
            do {
                // A burst leaves thousands of entries queued: they go out 64 to a write, and other connections'
                // calls run between two full batches.
                while let batch = await subscription.next(atMost: 64) {
                    try await reply(continuing: batch)
                    if batch.count == 64 { await yieldToQueuedWork() }
                }
            } catch {
                watch.unsubscribe(subscription.id)
                throw error
            }
            // The stream ends at shutdown, when the client is gone (the task is cancelled), or when it lagged.
            if watch.unsubscribe(subscription.id) { throw ServiceError.watchTooSlow(WatchAnnouncer.queueLimit) }
        }
    }

    /// Loads the store and plans every reminder; then handles what is already due (catch-up after downtime).
    /// - Returns: the number of enabled reminders.
    @discardableResult
    public func start() async throws(StoreError) -> Int {
        let count = try await startReminders()
        await startHabits()
        return count
    }

    /// The first half of ``start()``: loads the reminders and handles what came due while the daemon was not
    /// running. The daemon can answer after it.
    @discardableResult
    public func startReminders() async throws(StoreError) -> Int {
        await reminders.addBuiltIns()
        fitness.pruneOldEntries()
        lateLogs.run()
        await scheduling.followTheZone(now: context.clock.now(), replanning: false)  // it moved while remindd was not running
        let count = try await scheduling.load()
        let now = context.clock.now()
        await scheduling.announceUnconfirmed(now: now)
        await perform(await scheduling.tick(now: now, afterDowntime: true), now: now)
        await context.feed.deliver()
        return count
    }

    /// The second half of ``start()``: counts the activities of the whole history (the first habit answer would
    /// otherwise), announces the habit notices that are due and plans the rest suggestion.
    public func startHabits() async {
        await habits.announceDue(now: context.clock.now())
    }

    /// Acts on what the clock reports: handles what is due, re-plans after a clock or zone change.
    public func handle(_ event: ClockEvent) async {
        if event == .timeZoneChanged {
            guard context.settings.refreshSystemZone() else { return }
            context.say(.info, DaemonMessages.systemZoneNow, context.settings.systemZone)
            await scheduling.followTheZone(now: context.clock.now())
        }
        if event == .timeZoneDataChanged {
            context.settings.forgetZoneRules()
            habits.forgetCountedActivities()
            habits.forgetSettledStreaks()
            let replanned = await scheduling.zoneRulesChanged(now: context.clock.now())
            context.say(.info, DaemonMessages.zoneDataChanged, count: replanned, replanned)
        }
        if event == .clockChanged {
            await scheduling.clockChanged(now: context.clock.now())
            await collection.clockChanged(now: context.clock.now())
        }
        let now = context.clock.now()
        await perform(await scheduling.tick(now: now), now: now)
        await collection.syncBeforeDecisions(now: context.clock.now())
        // What the firings wrote (a one-off missed: its task in the collection is cancelled) reaches the features
        // through the feed's bell: the next firing never waits for a delivery (one that handled another device's
        // 30,000 logs held the clock's events, and a dose fired 33.7 s late).
    }

    /// Hands the wake-ups that came due to the services that asked for them.
    private func perform(_ wakeUps: [SchedulingService.WakeUp], now: Instant) async {
        for wakeUp in wakeUps {
            switch wakeUp {
            case .restSuggestion: await habits.restSuggestionDue(now: now)
            case .collectionSync: await collection.syncDue(now: now)
            case .collectionUpkeep: await collection.windowMoved()
            case .collectionRemovals:
                if let folder = collection.folder { await folderChanged(folder, names: await collection.removals.files) }
            }
        }
    }

    /// Carries out what the user chose on a desktop notification, as the matching remindctl command would;
    /// a choice that no longer applies (the occurrence was already taken) is said in the journal.
    /// - Returns: false when nothing of the choice applies now (nothing due, the reminder gone): its line goes.
    @Sendable
    public func perform(_ action: DesktopAnnouncer.Action) async -> Bool {
        do {
            switch action {
            case .taken(let id): _ = try await reminders.done(key: String(id))
            case .takenLate(let id): _ = try await reminders.takeLate(key: String(id))
            case .snooze(let id, let minutes): _ = try await reminders.snooze(key: String(id), minutes: minutes)
            case .skip(let id): _ = try await reminders.skip(key: String(id), reason: nil)
            case .dismiss(let id): _ = try await reminders.skip(key: String(id), reason: "dismissed")
            case .markRestDay(let date): _ = try await habits.markRest(from: date, to: nil, reason: nil, light: [])
            }
            await context.feed.deliver()
            return true
        } catch {
            await context.feed.deliver()
            context.say(.notice, DaemonMessages.actionNotCarriedOut, "\(action)", error.message)
            switch error {
            case .nothingDue, .notFound: return false
            default: return true
            }
        }
    }

    /// Checks what start-up and reload check beyond the file's syntax: the `time-zone` exists, the `on-fire`
    /// program is an executable file.
    /// - Throws: the reason, as `time-zone: ...` or `on-fire: ...`.
    public static func check(_ configuration: DaemonConfiguration, zones: TimeZoneDatabase) throws(ConfigurationRefused) {
        if let command = configuration.onFire, let problem = HookCommand.problem(command) {
            throw ConfigurationRefused(description: "on-fire: \(problem)")
        }
        if let command = configuration.onMissed, let problem = HookCommand.problem(command) {
            throw ConfigurationRefused(description: "on-missed: \(problem)")
        }
        if let command = configuration.syncCommand, let problem = HookCommand.problem(command) {
            throw ConfigurationRefused(description: "sync-command: \(problem)")
        }
        guard let zone = configuration.timeZone else { return }
        do { _ = try zones.rules(named: zone) } catch { throw ConfigurationRefused(description: "time-zone: \(error)") }
    }

    /// Applies a new configuration and re-plans everything from the store; all or nothing: a configuration
    /// that ``check(_:zones:)`` refuses, or a store that cannot be read, leaves the running one and its schedule.
    public func reload(_ configuration: DaemonConfiguration) async throws {
        try Self.check(configuration, zones: context.settings.zoneFiles)
        let previous = context.settings.configuration
        context.settings.apply(configuration)
        await scheduling.followTheZone(now: context.clock.now(), replanning: false)  // a new time-zone
        do {
            try await scheduling.load()
        } catch {
            context.settings.apply(previous)
            throw error
        }
        await handle(.deadlineReached)
        await habits.announceDue(now: context.clock.now())
        await scanFolders()
    }

    /// The change feed: what every writer committed (tests subscribe to check it).
    var changeFeed: ChangeFeed { context.feed }

    /// Hands what was committed and not yet handled to the features (the store's commit bell calls for it:
    /// ``ReminderStore/onCommit(_:)``).
    public func deliverChanges() async { await context.feed.deliver() }

    /// Calls `ring` after each commit that changed a row the change feed follows (the feed's bell).
    func onStoreCommit(_ ring: @escaping @Sendable () -> Void) { context.onStoreCommit(ring) }

    /// Whether the collection's sync command is running (tests wait for its end to be taken in).
    func syncRunning() async -> Bool { await collection.syncRunning }

    /// When the collection's sync command runs next (tests step from one run to the next).
    func nextSync() async -> Instant? { await scheduling.wakeUp(.collectionSync) }

    /// The folders to watch: the read-only calendars' and the linked collection's (absolute paths).
    public var watchedFolders: [String] { calendars.folders + (collection.folder.map { [$0] } ?? []) }

    /// Reads the read-only calendars and the linked collection, and publishes to the collection what it lacks
    /// (at start, after the reminders are loaded, and after a reload). With `publishing` false, the caller
    /// publishes (``publishCollectionWhenAsked()``) beside the folder watcher: at start, the first publish of 100,000
    /// reminders takes half a minute, and another device's dose written meanwhile is read at once.
    public func scanFolders(publishing: Bool = true) async {
        await calendars.scanAll()
        await collection.readFolder(publishing: publishing)
        await context.feed.deliver()
    }

    /// The linked collection's publisher: publishes what it lacks at start, and each publish of everything asked
    /// for later (a change feed's delivery or the clock's events never run one), until cancelled.
    public func publishCollectionWhenAsked() async {
        await collection.publishWhenAsked()
    }

    /// Runs the publish the collection's publisher would run now (tests, which run no publisher).
    public func publishCollectionIfDue() async {
        await collection.publishDue()
    }

    /// Applies what changed in one watched folder (the watcher saw it): in the entries `names`, or anywhere (nil).
    public func folderChanged(_ folder: String, names: Set<String>? = nil) async {
        if folder == collection.folder {
            await collection.scan(named: names)
            await context.feed.deliver()  // another device's dose: the stock it leaves, the streaks
            await collection.publish()
        } else {
            await calendars.scan(folder, names: names)
            await context.feed.deliver()
        }
    }

    /// The one-line state for STATUS=: `3 reminders, next: Vitamin D at Sun 09:00`.
    public func statusLine() async -> String { await scheduling.statusLine() }

    /// The occurrences announced and still due, to show again on a desktop that appeared.
    public func stillDue() async -> [FiringEvent] { await scheduling.stillDue() }

    /// Ends every Watch stream (at shutdown).
    public func finishWatchers() { watch.finishAll() }
}

/// A configuration that parses but cannot be used (a `time-zone` that does not exist).
public struct ConfigurationRefused: Error, CustomStringConvertible, Sendable {
    public let description: String
}

extension ActivitySource {
    /// The adapter over the intake store's logs and the fitness store's workouts.
    static func stores(_ store: ReminderStore) -> ActivitySource {
        ActivitySource(
            all: { () throws(StoreError) in
                let workouts = try store.fitness.entries(.workout, from: Instant(secondsSinceEpoch: .min / 2), through: Instant(secondsSinceEpoch: .max / 2))
                return try store.intake.everyLog() + workouts.map { ($0.at, $0.timeZone) }
            },
            goalHistory: { (ids, from, through) throws(StoreError) in
                (try store.intake.instants(reminderIDs: ids, from: from, through: through),
                 try store.intake.lateTakes(reminderIDs: ids, from: from, through: through))
            })
    }
}
