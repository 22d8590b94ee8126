import FitnessCore
import Foundation
import ReminderCore
import ReminderInterface
import ReminderScheduling
import ReminderStore
import SystemdSupport
import TimeZoneDatabase
import VarlinkProtocol

/// The daemon's state and behaviour: reminders in the store, their next firings in the scheduler, firings
/// announced in the journal and reported to the service manager.
///
/// An actor: Varlink calls and the clock's events arrive concurrently and are applied one at a time.
/// Every decision comes from the pure core (`Scheduler`, `ReminderRule`); this type performs them.
public actor ReminderService {
    public struct Dependencies: Sendable {
        public var store: ReminderStore
        public var journal: Journal
        public var notifier: Notifier
        public var zones: TimeZoneDatabase
        public var configuration: DaemonConfiguration
        /// Reads the system zone's name (`$TZ`, `/etc/localtime`, ...).
        public var systemZoneName: @Sendable () -> String
        /// The wall clock; injected so tests can move time.
        public var now: @Sendable () -> Instant
        /// Arms the wake-up timer (nil: nothing to wait for).
        public var armTimer: @Sendable (Instant?) -> Void
        /// The exercise library (loaded from its data file at start-up).
        public var exercises: ExerciseLibrary
        /// Where routine files are read from, on every routine call (new files need no restart).
        public var routineDirectories: [String]

        public init(
            store: ReminderStore, journal: Journal, notifier: Notifier, zones: TimeZoneDatabase, configuration: DaemonConfiguration,
            systemZoneName: @escaping @Sendable () -> String, now: @escaping @Sendable () -> Instant, armTimer: @escaping @Sendable (Instant?) -> Void,
            exercises: ExerciseLibrary, routineDirectories: [String]
        ) {
            self.store = store
            self.journal = journal
            self.notifier = notifier
            self.zones = zones
            self.configuration = configuration
            self.systemZoneName = systemZoneName
            self.now = now
            self.armTimer = armTimer
            self.exercises = exercises
            self.routineDirectories = routineDirectories
        }
    }

    var dependencies: Dependencies
    var scheduler = Scheduler()
    var zoneCache: [String: TimeZoneRules] = [:]
    var systemZone: String
    var watchers: [UInt64: AsyncStream<HistoryEntryValue>.Continuation] = [:]
    var nextWatcherID: UInt64 = 0
    /// Snoozed re-announcements, by due instant.
    var snoozes: [(due: Instant, firing: DueFiring)] = []
    /// The last STATUS= sent: a status is sent only when it changes (sd_notify blocks when the manager lags).
    var lastStatus: String?
    /// The next rest-suggestion wake-up, computed once per day and again after a habit event (it reads every log).
    var restDeadlineCache: (day: Int, deadline: Instant?)?

    public init(_ dependencies: Dependencies) {
        self.dependencies = dependencies
        self.systemZone = dependencies.systemZoneName()
    }

    /// Loads every enabled reminder and plans its next firing; missed firings become due at once.
    ///
    /// A large store is read and its rules parsed in parallel parts (one per core, each on its own SQLite
    /// reader); only the cheap queue inserts run on the actor.
    /// - Returns: the number of reminders loaded.
    @discardableResult
    public func start() async throws(StoreError) -> Int {
        addBuiltInReminders()
        pruneOldEntries()
        guard let bounds = try dependencies.store.reminderIDBounds() else { return 0 }
        let parts = bounds.count > 10_000 ? max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) : 1
        let step = (bounds.upperBound - bounds.lowerBound) / Int64(parts) + 1
        let store = dependencies.store
        let loaded: [[(StoredReminder, ReminderRule?)]]
        do {
            loaded = try await withThrowingTaskGroup(of: (Int, [(StoredReminder, ReminderRule?)]).self) { group in
                for part in 0..<parts {
                    let low = bounds.lowerBound + Int64(part) * step
                    let ids = low...min(low + step - 1, bounds.upperBound)
                    group.addTask {
                        let rows = try store.reminders(ids: ids)
                        return (part, rows.filter(\.enabled).map { ($0, try? $0.rule.makeRule()) })
                    }
                }
                var results = Array(repeating: [(StoredReminder, ReminderRule?)](), count: parts)
                for try await (part, rows) in group { results[part] = rows }
                return results
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .unavailable(path: dependencies.store.path, detail: "\(error)")
        }
        restoreSnoozes()
        var count = 0
        scheduler.reserveCapacity(loaded.map(\.count).reduce(0, +))
        for (reminder, rule) in loaded.joined() {
            count += 1
            guard let rule, let zone = try? zone(named: reminder.timeZone) else {
                dependencies.journal.send("Reminder \(reminder.name) (id \(reminder.id!)) cannot be scheduled: its rule or zone is invalid now", priority: .warning)
                continue
            }
            scheduler.schedule(
                SchedulableReminder(id: reminder.id!, name: reminder.name, rule: rule, zone: zone),
                handledThrough: Instant(secondsSinceEpoch: reminder.handledThrough))
        }
        return count
    }

    /// Loads the snoozes recorded before a restart (their reminders' rules and zones as they are now).
    private func restoreSnoozes() {
        guard let stored = try? dependencies.store.snoozes() else { return }
        snoozes = stored.compactMap { snooze in
            guard let reminder = try? dependencies.store.reminder(String(snooze.reminderID)), let schedulable = try? schedulable(reminder),
                let occurrence = schedulable.rule.nextOccurrence(after: snooze.scheduledAt.adding(seconds: -1), in: schedulable.zone),
                occurrence.instant == snooze.scheduledAt
            else { return nil }
            return (snooze.dueAt, DueFiring(reminder: schedulable, occurrence: occurrence, slotsDue: 1, lateSeconds: 0))
        }
    }

    /// Handles everything due now, then re-arms the timer and refreshes STATUS.
    public func tick() {
        let now = dependencies.now()
        for firing in scheduler.takeDue(now: now) {
            handle(firing, now: now)
        }
        let dueSnoozes = snoozes.filter { $0.due <= now }
        snoozes.removeAll { $0.due <= now }
        if !dueSnoozes.isEmpty { try? dependencies.store.removeSnoozes(dueThrough: now) }
        for snooze in dueSnoozes {
            announce(snooze.firing, kind: .fired, now: now, prefix: "Reminder (snoozed)", record: false)
        }
        announceRestSuggestion()
        replan()
    }

    /// The system time zone changed: reminders that follow it are re-planned from now (nothing fires twice).
    public func systemTimeZoneChanged() {
        let name = dependencies.systemZoneName()
        guard name != systemZone else { return }
        systemZone = name
        dependencies.journal.send("System time zone is now \(name); re-planning reminders that follow it", priority: .info)
        if let stored = try? dependencies.store.reminders() {
            for reminder in stored where reminder.enabled && reminder.timeZone == nil {
                reschedule(reminder, handledThrough: dependencies.now())
            }
        }
        tick()
    }

    /// Re-reads nothing but re-plans everything (SIGHUP after the caller applied a new configuration).
    public func reload(configuration: DaemonConfiguration, journal: Journal) async throws(StoreError) {
        dependencies.configuration = configuration
        dependencies.journal = journal
        scheduler = Scheduler()
        try await start()
        tick()
    }

    /// The one-line state for STATUS= and Status(): `3 reminders, next: Vitamin D at Sun 09:00`.
    public func statusLine() -> String {
        let count = scheduler.count
        let noun = count == 1 ? "reminder" : "reminders"
        guard let (reminder, occurrence) = scheduler.nextFiring() else { return "\(count) \(noun), none scheduled" }
        return "\(count) \(noun), next: \(reminder.name) at \(Wording.when(occurrence))"
    }

    func replan() {
        let deadlines = [scheduler.nextDeadline(), snoozes.map(\.due).min(), restSuggestionDeadline()].compactMap { $0 }
        dependencies.armTimer(deadlines.min())
        let status = statusLine()
        if status != lastStatus {
            dependencies.notifier.status(status)
            lastStatus = status
        }
    }

    // MARK: Firing

    private func handle(_ firing: DueFiring, now: Instant) {
        let occurrence = firing.occurrence
        let logs = (try? dependencies.store.intakes(
            reminderID: firing.reminder.id, from: occurrence.instant.adding(seconds: -2 * 86400), through: occurrence.instant)) ?? []
        let action = scheduler.action(for: firing, logs: logs, catchUpEnabled: dependencies.configuration.catchUp)
        switch action {
        case .fire: announce(firing, kind: .fired, now: now, prefix: "Reminder")
        case .catchUp: announce(firing, kind: .late, now: now, prefix: "Reminder")
        case .suppress(_, let reason): announce(firing, kind: .suppressed, now: now, prefix: "Suppressed reminder", detail: reason)
        case .skipMissed: announce(firing, kind: .skipped, now: now, prefix: "Missed reminder", detail: "catch-up is off")
        }
    }

    /// Records the firing durably first, then writes it to the journal: a crash in between loses one journal
    /// line but never repeats a slot.
    /// - Parameter record: false for a snoozed repeat, whose slot was recorded when it first fired.
    private func announce(_ firing: DueFiring, kind: FiringRecord.Kind, now: Instant, prefix: String, detail: String? = nil, record shouldRecord: Bool = true) {
        let record = FiringRecord(
            reminderId: firing.reminder.id, reminderName: firing.reminder.name, slot: firing.slotID,
            scheduledAt: firing.occurrence.instant.secondsSinceEpoch, handledAt: now.secondsSinceEpoch, kind: kind,
            lateSeconds: firing.lateSeconds, slotsDue: firing.slotsDue, detail: detail)
        if shouldRecord {
            do {
                guard try dependencies.store.recordFiring(record, handledThrough: max(firing.occurrence.instant, now)) else { return }
            } catch {
                dependencies.journal.send("Could not record firing \(firing.slotID): \(error)", priority: .error)
            }
        }
        var message = "\(prefix): \(Wording.reminder(firing))"
        var priority = Journal.Priority.notice
        var messageID = MessageID.fired
        switch kind {
        case .late:
            messageID = MessageID.caughtUp
            message += ", late by \(Wording.duration(seconds: firing.lateSeconds))"
            if firing.slotsDue > 1 { message += " (missed \(firing.slotsDue) times)" }
        case .suppressed, .skipped:
            messageID = MessageID.suppressed
            priority = .debug
            if let detail { message += ": \(detail)" }
        case .fired:
            break
        }
        var fields = [
            ("MESSAGE_ID", messageID), ("REMINDER_ID", String(firing.reminder.id)), ("REMINDER_NAME", firing.reminder.name),
            ("REMINDER_SLOT", firing.slotID), ("SCHEDULED_UTC", firing.occurrence.instant.description),
            ("FIRED_UTC", now.description), ("LATE_SECONDS", String(firing.lateSeconds)),
            ("REMINDER_SLOTS_DUE", String(firing.slotsDue)),
        ]
        if let detail { fields.append(("REMINDER_DETAIL", detail)) }
        dependencies.journal.send(message, priority: priority, fields: fields)
        let entry = HistoryEntryValue(record)
        for watcher in watchers.values { watcher.yield(entry) }
    }

    // MARK: Reminders

    func zone(named name: String?) throws(ServiceError) -> TimeZoneRules {
        let zoneName = name ?? dependencies.configuration.timeZone ?? systemZone
        if let cached = zoneCache[zoneName] { return cached }
        do {
            let rules = try dependencies.zones.rules(named: zoneName)
            zoneCache[zoneName] = rules
            return rules
        } catch {
            throw .unknownTimeZone(zoneName, error.description)
        }
    }

    func schedulable(_ reminder: StoredReminder) throws(ServiceError) -> SchedulableReminder {
        let rule: ReminderRule
        do { rule = try reminder.rule.makeRule() } catch { throw .invalidRule(error.message) }
        return SchedulableReminder(id: reminder.id!, name: reminder.name, rule: rule, zone: try zone(named: reminder.timeZone))
    }

    func reschedule(_ reminder: StoredReminder, handledThrough: Instant) {
        guard let id = reminder.id else { return }
        scheduler.remove(id: id)
        if reminder.enabled, let schedulable = try? schedulable(reminder) {
            scheduler.schedule(schedulable, handledThrough: max(handledThrough, Instant(secondsSinceEpoch: reminder.handledThrough)))
        }
        replan()
    }

    /// Registers a Watch stream; the returned id unregisters it.
    func addWatcher() -> (UInt64, AsyncStream<HistoryEntryValue>) {
        let (stream, continuation) = AsyncStream.makeStream(of: HistoryEntryValue.self, bufferingPolicy: .bufferingNewest(1000))
        nextWatcherID += 1
        watchers[nextWatcherID] = continuation
        return (nextWatcherID, stream)
    }

    func removeWatcher(_ id: UInt64) {
        watchers.removeValue(forKey: id)?.finish()
    }

    /// Ends every Watch stream (at shutdown).
    public func finishWatchers() {
        for watcher in watchers.values { watcher.finish() }
        watchers.removeAll()
    }
}

/// A failure of a Varlink method, each mapped to one error of `io.remindd.Reminders`.
enum ServiceError: Error {
    case notFound(String)
    case nameTaken(String)
    case invalidRule(String)
    case invalidTime(parameter: String, message: String)
    case unknownTimeZone(String, String)
    case nothingToSnooze(String, String)
    case habit(String)
    case invalidInput(parameter: String, message: String)
    case store(String)

    /// Any error from a store call, a service call, or an encoder, as the one error a method reports.
    init(mapping error: any Error) {
        switch error {
        case let error as ServiceError: self = error
        case let error as StoreError: self.init(error)
        default: self = .store("\(error)")
        }
    }

    init(_ error: StoreError) {
        switch error {
        case .notFound(let key): self = .notFound(key)
        case .nameTaken(let name): self = .nameTaken(name)
        default: self = .store(error.description)
        }
    }

    var varlinkError: VarlinkError {
        let interface = "io.remindd.Reminders."
        switch self {
        case .notFound(let key):
            return VarlinkError(name: interface + "ReminderNotFound", parameters: ["reminder": .string(key)])
        case .nameTaken(let name):
            return VarlinkError(name: interface + "NameTaken", parameters: ["name": .string(name)])
        case .invalidRule(let message):
            return VarlinkError(name: interface + "InvalidRule", parameters: ["message": .string(message)])
        case .invalidTime(let parameter, let message):
            return VarlinkError(name: interface + "InvalidTime", parameters: ["parameter": .string(parameter), "message": .string(message)])
        case .unknownTimeZone(let zone, let message):
            return VarlinkError(name: interface + "UnknownTimeZone", parameters: ["timeZone": .string(zone), "message": .string(message)])
        case .nothingToSnooze(let reminder, let message):
            return VarlinkError(name: interface + "NothingToSnooze", parameters: ["reminder": .string(reminder), "message": .string(message)])
        case .invalidInput(let parameter, let message):
            return VarlinkError(name: interface + "InvalidInput", parameters: ["parameter": .string(parameter), "message": .string(message)])
        case .habit(let message):
            return VarlinkError(name: interface + "HabitRefused", parameters: ["message": .string(message)])
        case .store(let message):
            return VarlinkError(name: interface + "StoreFailure", parameters: ["message": .string(message)])
        }
    }
}
