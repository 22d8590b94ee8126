import FitnessCore
import Foundation
import GRDB
import Logging
import ReminderCore
import ReminderDaemon
import ReminderInterface
import ReminderStore
import ServiceLifecycle
import Synchronization
import SystemdSupport
import TimeZoneDatabase
import VarlinkProtocol

/// A whole daemon in-process: the real services, routes and store schema, on an in-memory database, a
/// ``ManualClock`` and a ``RecordingAnnouncer``. Calls go through the same method table as over the socket.
///
/// Time moves only through this type: ``advance(by:)`` is time passing with a punctual timer,
/// ``setClock(to:)`` is the clock being set (a jump either way), ``resume(at:)`` is a suspend that ends past
/// the wake-up. ``restart()`` builds a new daemon on the same database, as after `kill -9`.
public final class TestDaemon: Sendable {
    public let clock: ManualClock
    public let announcer: RecordingAnnouncer
    public let status: RecordingStatus
    public let database: DatabaseQueue
    private let configuration: DaemonConfiguration
    private let zones: TimeZoneDatabase
    private let commands: (any CommandRunner)?
    private let daemon: Mutex<Daemon>

    /// Builds and starts a daemon.
    /// - Parameters:
    ///   - now: the clock's starting instant.
    ///   - systemZone: the machine's zone.
    ///   - configuration: the config file's settings.
    ///   - database: an existing database (a restart); nil: a new, empty one.
    ///   - zones: the zone files (a private copy, to change one as a tzdata update would).
    ///   - commands: what runs the collection's sync command (nil: it is not run).
    ///   - readsFolders: whether the calendars and the collection are read once started (as the folder watcher
    ///     does after READY); false: a test calls ``Daemon/scanFolders()`` itself.
    public init(
        now: Instant, systemZone: String = "UTC", configuration: DaemonConfiguration = DaemonConfiguration(), database: DatabaseQueue? = nil,
        zones: TimeZoneDatabase = TimeZoneDatabase(), commands: (any CommandRunner)? = nil, readsFolders: Bool = true
    ) async throws {
        clock = ManualClock(now: now, systemZone: systemZone)
        announcer = RecordingAnnouncer()
        status = RecordingStatus()
        self.database = try database ?? DatabaseQueue()
        self.configuration = configuration
        self.zones = zones
        self.commands = commands
        daemon = Mutex(try Self.make(
            clock: clock, announcer: announcer, status: status, database: self.database, configuration: configuration, zones: zones, commands: commands))
        try await current.start()
        if readsFolders { await current.scanFolders() }
    }

    private static func make(
        clock: ManualClock, announcer: RecordingAnnouncer, status: RecordingStatus, database: DatabaseQueue, configuration: DaemonConfiguration,
        zones: TimeZoneDatabase, commands: (any CommandRunner)?
    ) throws -> Daemon {
        Daemon(DaemonPorts(
            clock: clock, announcers: [announcer], status: status, store: try ReminderStore(database: database),
            zones: zones, configuration: configuration, exercises: try shippedExercises(),
            routineDirectories: [shareDirectory + "/routines"], journalAvailable: { false }, ledger: announcer, commands: commands))
    }

    /// The daemon now running.
    public var current: Daemon { daemon.withLock { $0 } }

    /// Stops this daemon without ceremony and starts a new one on the same database and clock (kill -9, then start).
    public func restart() async throws {
        let next = try Self.make(
            clock: clock, announcer: announcer, status: status, database: database, configuration: configuration, zones: zones, commands: commands)
        daemon.withLock { $0 = next }
        try await next.start()
        await next.scanFolders()
    }

    /// The watcher saw a change in a watched folder (a calendar's, the collection).
    public func folderChanged(_ folder: String, names: Set<String>? = nil) async {
        await current.folderChanged(folder, names: names)
        await current.publishCollectionIfDue()
    }

    /// The daemon's services (``Daemon/services(_:)``) run as remindd runs them, on the daemon now running: the
    /// change feed's bell, the command runner, the folders' watch (inotify on the real folders), reloads and the
    /// habits' warm-up; no control socket (ready at once) and no desktop. The clock's events and the signals are
    /// what the test sends (``Services/send(_:)``): SIGHUP runs `reload`, SIGTERM stops the group.
    public func runServices(reload: @escaping @Sendable () async -> Void) throws -> Services {
        let (events, send) = AsyncStream.makeStream(of: SystemClockMonitor.Event.self)
        let daemon = current
        let commands = self.commands
        let parts = DaemonServiceParts(
            clockEvents: events, notifier: Notifier(), folderWatcher: try FolderWatcher(),
            stopCommands: { commands?.stopAll() }, desktop: nil,
            serve: { onBound in
                await onBound()
                try await gracefulShutdown()
            },
            reload: reload, onReady: {}, report: { [announcer] in announcer.announce(.daemon($0)) })
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: daemon.services(parts), logger: Logger(label: "remindd-test")))
        return Services(events: send, group: Task { try await group.run() })
    }

    /// The services running (``runServices(reload:)``).
    public struct Services: Sendable {
        let events: AsyncStream<SystemClockMonitor.Event>.Continuation
        let group: Task<Void, any Error>

        /// Sends a clock event or a signal, as the clock monitor would.
        public func send(_ event: SystemClockMonitor.Event) { events.yield(event) }

        /// Stops them as SIGTERM does, and waits until they have.
        public func stop() async throws {
            events.yield(.signal(SIGTERM))
            try await group.value
        }
    }

    // MARK: Time

    /// The daemon handles a clock event, then what it wrote reaches the features, as the feed's bell has it, and
    /// a publish of everything asked for runs, as the collection's publisher runs it.
    private func handle(_ event: ClockEvent) async {
        await current.handle(event)
        await current.deliverChanges()
        await current.publishCollectionIfDue()
    }

    /// Time passes up to `instant`; the timer fires at each wake-up on the way, exactly at its instant.
    public func advance(to instant: Instant) async {
        while let wakeUp = clock.wakeUp, wakeUp <= instant {
            clock.set(max(wakeUp, clock.now()))
            await handle(.deadlineReached)
            if clock.wakeUp == wakeUp { break }  // nothing moved the wake-up on: do not spin
        }
        clock.set(instant)
    }

    /// Time passes for `seconds`.
    public func advance(by seconds: Int64) async {
        await advance(to: clock.now().adding(seconds: seconds))
    }

    /// The clock is set to `instant` (forward or back), as `date -s` or an NTP step would.
    public func setClock(to instant: Instant) async {
        clock.set(instant)
        await handle(.clockChanged)
    }

    /// The machine sleeps through the wake-up and resumes at `instant`: the timer fires once, late.
    public func resume(at instant: Instant) async {
        clock.set(instant)
        await handle(.deadlineReached)
    }

    /// The system zone setting changes to `name`.
    public func setSystemZone(_ name: String) async {
        clock.setSystemZone(name)
        await handle(.timeZoneChanged)
    }

    /// The zone files were updated (tzdata): the daemon is told, as the monitor's inotify watch would.
    public func zoneFilesChanged() async {
        await handle(.timeZoneDataChanged)
    }

    /// Makes the store refuse to record firings with SQLite's "database or disk is full" (as a full disk
    /// would), or accept them again. (Temporary triggers: `PRAGMA query_only` does not survive GRDB's reads.)
    public func setStoreWritable(_ writable: Bool) throws {
        try database.writeWithoutTransaction { db in
            if writable {
                try db.execute(sql: "DROP TRIGGER IF EXISTS temp.full_disk_firing; DROP TRIGGER IF EXISTS temp.full_disk_reminder")
            } else {
                try db.execute(sql: """
                    CREATE TEMP TRIGGER full_disk_firing BEFORE INSERT ON firing BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END;
                    CREATE TEMP TRIGGER full_disk_reminder BEFORE UPDATE ON reminder BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END
                    """)
            }
        }
    }

    /// Makes the store refuse to confirm announced firings, or accept it again: what the store holds is then
    /// what a `kill -9` right after the announcements (before their confirmation) leaves.
    public func setConfirmationsFail(_ fail: Bool) throws {
        try database.writeWithoutTransaction { db in
            if fail {
                // A firing's confirmation sets `confirmed`, or clears `againPending` (an announcement again) or
                // `escalationPending` (an escalation).
                try db.execute(sql: """
                    CREATE TEMP TRIGGER killed_before_confirming BEFORE UPDATE ON firing
                    WHEN (NEW.confirmed AND NOT OLD.confirmed) OR (NEW.againPending IS NULL AND OLD.againPending IS NOT NULL)
                      OR (NEW.escalationPending IS NULL AND OLD.escalationPending IS NOT NULL)
                    BEGIN SELECT RAISE(FAIL, 'killed before confirming'); END;
                    CREATE TEMP TRIGGER killed_before_confirming_outcome BEFORE UPDATE OF confirmed ON outcome
                    BEGIN SELECT RAISE(FAIL, 'killed before confirming'); END
                    """)
            } else {
                try db.execute(sql: "DROP TRIGGER IF EXISTS temp.killed_before_confirming; DROP TRIGGER IF EXISTS temp.killed_before_confirming_outcome")
            }
        }
    }

    /// Makes the store refuse to read a table, logged intake unless told (SQLite: "no such table"), or read it
    /// again: a temporary view named like the table hides it and reads from a table that does not exist.
    public func setReadable(_ readable: Bool, table: String = "intake") throws {
        try database.writeWithoutTransaction { db in
            if readable {
                try db.execute(sql: "DROP VIEW IF EXISTS temp.\(table)")
            } else {
                try db.execute(sql: "CREATE TEMP VIEW \(table) AS SELECT * FROM \(table)_cannot_be_read")
            }
        }
    }

    // MARK: Calls

    /// Calls a method as a Varlink client would, and decodes its one reply.
    public func call<Method: VarlinkMethod>(_ method: Method.Type, _ parameters: Method.Parameters) async throws -> Method.Reply {
        guard case .object(let fields) = try JSONValue(encoding: parameters) else { preconditionFailure("parameters are an object") }
        return try await call(method.qualifiedName, fields, as: Method.Reply.self)
    }

    /// Calls a method by its name (`Streak`; `List` is io.remindd.Reminders', another interface's `List` is
    /// called qualified) as a Varlink client would, and decodes its one reply.
    /// - Throws: the method's ``VarlinkError``.
    public func call<Result: Decodable>(_ method: String, _ parameters: [String: JSONValue] = [:], as: Result.Type) async throws -> Result {
        let replies = Mutex<[VarlinkReply]>([])
        try await current.router.handle(VarlinkCall(method: Self.qualified(method), parameters: .object(parameters))) { reply in
            replies.withLock { $0.append(reply) }
        }
        await current.publishCollectionIfDue()  // as the collection's publisher would, after the reply
        guard let reply = replies.withLock({ $0.first }), let parameters = reply.parameters else {
            throw VarlinkError(name: "org.varlink.service.InvalidParameter", parameters: ["parameter": .string("reply")])
        }
        return try parameters.decode(Result.self)
    }

    /// `io.remindd.Habits.Streak` for `Streak`.
    static func qualified(_ method: String) -> String {
        if method.contains(".") { return method }
        let matches = Catalogue.interfaces.flatMap(\.methods).filter { $0.name == method }
        return (matches.first { $0.interface == Reminders.interface } ?? matches.first)?.qualifiedName ?? Reminders.interface + "." + method
    }

    /// Calls a method and ignores its reply.
    /// `io.remindd.Backup.Export` as a `more` call, its pages put together as the document `remindctl export`
    /// writes (header fields and `tables`).
    public func exportBackup() async throws -> [String: JSONValue] {
        let replies = Mutex<[Backup.Export.Reply]>([])
        try await current.router.handle(VarlinkCall(method: Backup.Export.qualifiedName, parameters: .object([:]), more: true)) { reply in
            let decoded = try (reply.parameters ?? .object([:])).decode(Backup.Export.Reply.self)
            replies.withLock { $0.append(decoded) }
        }
        var document: [String: JSONValue] = [:]
        var tables: [String: [JSONValue]] = [:]
        for reply in replies.withLock({ $0 }) {
            if let header = reply.header {
                document = ["format": .string(header.format), "version": .number(Double(header.version)), "schema": .string(header.schema),
                            "exportedAt": .string(header.exportedAt)]
            }
            if let table = reply.table { tables[table, default: []] += reply.rows ?? [] }
        }
        document["tables"] = .object(tables.mapValues(JSONValue.array))
        return document
    }

    public func call(_ method: String, _ parameters: [String: JSONValue] = [:]) async throws {
        _ = try await call(method, parameters, as: JSONValue.self)
    }
}

/// The checkout's `share/remindd`, found from this file's place.
let shareDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("share/remindd").path

/// The shipped exercise library.
func shippedExercises() throws -> ExerciseLibrary {
    let path = shareDirectory + "/exercises.csv"
    return try ExerciseLibrary(csv: String(contentsOfFile: path, encoding: .utf8), file: path)
}
