import FitnessCore
import ReminderCore
import ReminderStore
import Synchronization
import TimeZoneDatabase

/// What every feature service shares: the ports, the store's file (each service holds its own stores), and the settings that a reload or a change of
/// the system zone replaces.
///
/// A final class whose mutable part (configuration, system zone, parsed zones) sits behind a `Mutex`: reads are
/// short and never wait on I/O other than reading a zone file once.
final class DaemonContext: Sendable {
    let clock: any DaemonClock
    let announcer: any Announcer
    /// Where announcements are read back after a crash (the journal).
    let ledger: any AnnouncementLedger
    /// The database: only the context reads it whole (a service holds the feature stores it owns).
    private let store: ReminderStore
    let zoneFiles: TimeZoneDatabase
    let exercises: ExerciseLibrary
    let routineDirectories: [String]
    /// What every writer committed, handed to the features that follow it.
    let feed: ChangeFeed

    private struct Settings {
        var configuration: DaemonConfiguration
        var systemZone: String
        var zoneCache: [String: TimeZoneRules] = [:]
    }
    private let settings: Mutex<Settings>

    init(ports: DaemonPorts, announcer: any Announcer) {
        clock = ports.clock
        self.announcer = announcer
        ledger = ports.ledger
        store = ports.store
        zoneFiles = ports.zones
        exercises = ports.exercises
        routineDirectories = ports.routineDirectories
        settings = Mutex(Settings(configuration: ports.configuration, systemZone: ports.clock.systemZoneName()))
        let store = ports.store
        feed = ChangeFeed(take: { () throws(StoreError) in try store.takeChanges() }, failed: { error in
            announcer.announce(.daemon(DaemonMessage(.error, "What was just written could not be read back for the other features (it is at the next change): \(error)")))
        })
    }

    /// The store's file.
    var storePath: String { store.path }

    /// Calls `ring` after each commit that changed a row the change feed follows (``ReminderStore/onCommit(_:)``).
    func onStoreCommit(_ ring: @escaping @Sendable () -> Void) { store.onCommit(ring) }

    /// Why the store's file cannot be written (deleted or replaced while open), or nil.
    var storeFileProblem: StoreError? { store.fileProblem }

    /// The configuration in force.
    var configuration: DaemonConfiguration { settings.withLock { $0.configuration } }

    /// Replaces the configuration (a reload that passed every check).
    func apply(_ configuration: DaemonConfiguration) {
        settings.withLock { $0.configuration = configuration }
    }

    /// The system zone the daemon last saw.
    var systemZone: String { settings.withLock { $0.systemZone } }

    /// The zone reminders without their own follow, and why: "config" (its `time-zone`), else "system".
    var followedZone: (name: String, source: String) {
        settings.withLock { state in
            state.configuration.timeZone.map { ($0, "config") } ?? (state.systemZone, "system")
        }
    }

    /// Reads the system zone from the clock; true when it differs from the one the daemon had.
    func refreshSystemZone() -> Bool {
        let name = clock.systemZoneName()
        return settings.withLock { state in
            guard state.systemZone != name else { return false }
            state.systemZone = name
            return true
        }
    }

    /// Forgets the zone rules read so far: the next use of each zone reads its file again (a tzdata update).
    func forgetZoneRules() {
        settings.withLock { $0.zoneCache = [:] }
    }

    /// The rules of a zone: `name`, else the configured `time-zone`, else the system zone.
    func zone(named name: String?) throws(ServiceError) -> TimeZoneRules {
        let (zoneName, cached) = settings.withLock { state in
            let zoneName = name ?? state.configuration.timeZone ?? state.systemZone
            return (zoneName, state.zoneCache[zoneName])
        }
        if let cached { return cached }
        do {
            let rules = try zoneFiles.rules(named: zoneName)
            settings.withLock { $0.zoneCache[zoneName] = rules }
            return rules
        } catch {
            throw .unknownTimeZone(zoneName, error.description)
        }
    }

    /// The rule a stored reminder fires by now: its own; for one timed from its last dose (`--from-last-dose`),
    /// counted from the last dose logged (read from the store).
    func firingRule(of reminder: StoredReminder) throws(ServiceError) -> ReminderRule {
        var spec = reminder.rule
        if spec.fromLastDose == true {
            let last = try storing { () throws(StoreError) in try store.intake.lastDose(reminderID: reminder.id) }
            spec = spec.counted(fromLastDose: last, in: try zone(named: reminder.timeZone))
        }
        do { return try spec.makeRule() } catch { throw .invalidRule(error.message) }
    }

    /// A reminder's rule (``firingRule(of:)``) and zone, or nil when either cannot be used now (the scheduler
    /// says why): what a log is weighed with.
    func usableRuleAndZone(of reminder: StoredReminder) -> (rule: ReminderRule, zone: TimeZoneRules)? {
        do {
            return (try firingRule(of: reminder), try zone(named: reminder.timeZone))
        } catch {
            return nil
        }
    }

    /// The zones an iCalendar plan may use (`CalendarImport`): the system's, by name, and `names` (every zone
    /// file's, to match a VTIMEZONE a file defines).
    func importZones(names: [String]) throws(ServiceError) -> CalendarImport.Zones {
        // An unknown name is nil: the plan then looks for the file's VTIMEZONE of that name.
        CalendarImport.Zones(named: { [self] name in try? zone(named: name) }, names: names, system: try zone(named: nil))
    }

    /// Announces a message about the daemon itself.
    /// A date the user typed (YYYY-MM-DD), or the parameter's error.
    func date(_ text: String, parameter: String) throws(ServiceError) -> LocalDate {
        guard let date = ISO8601.parseDate(text) else {
            throw .invalidTime(parameter: parameter, message: "invalid date \(quotedInput(text)): write YYYY-MM-DD, e.g. 2026-11-24")
        }
        return date
    }

    /// A date the user typed, or today in the system zone when none was given.
    func date(_ text: String?, parameter: String, now: Instant) throws(ServiceError) -> LocalDate {
        if let text { return try date(text, parameter: parameter) }
        return LocalDate(dayNumber: try zone(named: nil).localDayNumber(at: now))
    }

    /// How far back a log, a workout or a food entry may be dated: as far as rest days can be marked. (A log at
    /// the year 0 was taken, and every habit answer then counted twenty centuries, taking seconds.)
    static let historyYears = 10

    /// When something happened: now, or the time the user typed (`TimeText`, read in `zone` unless it gives its
    /// offset, as remindctl sends it), neither in the future (`future` says what may be given instead) nor more
    /// than ``historyYears`` back. Errors show the time as it was typed, at its offset.
    func pastInstant(_ text: String?, parameter: String, now: Instant, zone: TimeZoneRules, future: String) throws(ServiceError) -> Instant {
        guard let text else { return now }
        guard let instant = TimeText.instant(text, now: now, zone: zone) else {
            throw .invalidTime(parameter: parameter, message: "invalid \(parameter) \(quotedInput(text)): write \(TimeText.forms)")
        }
        guard instant <= now else {
            throw .invalidTime(parameter: parameter, message: "\(TimeText.display(instant, typed: text, zone: zone)) is in the future: \(future)")
        }
        let today = LocalDate(dayNumber: zone.localDayNumber(at: now))
        let earliest = today.adding(years: -Self.historyYears)
        guard instant < zone.resolve(LocalDateTime(date: earliest, time: TimeOfDay(hour: 0, minute: 0)!)) else { return instant }
        throw .invalidTime(
            parameter: parameter, message: "\(text) is more than \(Self.historyYears) years ago: give a time since \(earliest), as rest days are")
    }

    func say(_ severity: DaemonMessage.Severity, _ text: String) {
        announcer.announce(.daemon(DaemonMessage(severity, text)))
    }

    /// Announces a firing, marked quiet as ``quieted(_:)`` says.
    func announce(firing event: FiringEvent) {
        announcer.announce(.firing(quieted(event)))
    }

    /// A firing marked quiet when config.toml's quiet hours hold at its time in the followed zone and they
    /// quiet its reminder (``QuietHours/quiets(_:atSecondsSinceMidnight:)``).
    func quieted(_ event: FiringEvent) -> FiringEvent {
        var event = event
        if let quietHours = configuration.quietHours {
            do throws(ServiceError) {
                let local = try zone(named: nil).localDateTime(at: event.handledAt).time.secondsSinceMidnight
                event.quiet = quietHours.quiets(event.firing.reminder.delivery, atSecondsSinceMidnight: local)
            } catch {
                // No zone to tell the local time in (its file is gone): announced as at any other time, never
                // silenced by a missing zone file.
            }
        }
        return event
    }
}
