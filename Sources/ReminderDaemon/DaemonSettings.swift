import ReminderCore
import Synchronization
import TimeZoneDatabase

/// What a reload or a change of the system zone replaces, and what it decides: the configuration in force, the
/// zone reminders without their own follow, each zone's rules (read once from the zone files), and the quiet
/// hours' verdict on a firing.
///
/// A final class whose mutable part sits behind a `Mutex`: reads are short and never wait on I/O other than
/// reading a zone file once.
final class DaemonSettings: Sendable {
    let zoneFiles: TimeZoneDatabase
    private let systemZoneName: @Sendable () -> String

    private struct State {
        var configuration: DaemonConfiguration
        var systemZone: String
        var zoneCache: [String: TimeZoneRules] = [:]
    }
    private let state: Mutex<State>

    /// - Parameter systemZoneName: reads the system's zone setting (the clock's).
    init(configuration: DaemonConfiguration, zoneFiles: TimeZoneDatabase, systemZoneName: @escaping @Sendable () -> String) {
        self.zoneFiles = zoneFiles
        self.systemZoneName = systemZoneName
        state = Mutex(State(configuration: configuration, systemZone: systemZoneName()))
    }

    /// The configuration in force.
    var configuration: DaemonConfiguration { state.withLock { $0.configuration } }

    /// Replaces the configuration (a reload that passed every check).
    func apply(_ configuration: DaemonConfiguration) {
        state.withLock { $0.configuration = configuration }
    }

    /// The system zone the daemon last saw.
    var systemZone: String { state.withLock { $0.systemZone } }

    /// The zone reminders without their own follow, and why: "config" (its `time-zone`), else "system".
    var followedZone: (name: String, source: String) {
        state.withLock { state in
            state.configuration.timeZone.map { ($0, "config") } ?? (state.systemZone, "system")
        }
    }

    /// Reads the system zone setting again; true when it differs from the one the daemon had.
    func refreshSystemZone() -> Bool {
        let name = systemZoneName()
        return state.withLock { state in
            guard state.systemZone != name else { return false }
            state.systemZone = name
            return true
        }
    }

    /// Forgets the zone rules read so far: the next use of each zone reads its file again (a tzdata update).
    func forgetZoneRules() {
        state.withLock { $0.zoneCache = [:] }
    }

    /// A reminder's rule and zone, or nil when it cannot be scheduled on this device (its rule does not build here,
    /// or its zone is not known).
    func schedule(_ spec: RuleSpec, in zoneName: String?) -> (ReminderRule, TimeZoneRules)? {
        do {
            return (try spec.makeRule(), try zone(named: zoneName))
        } catch {
            return nil
        }
    }

    /// The rules of a zone: `name`, else the configured `time-zone`, else the system zone.
    func zone(named name: String?) throws(ServiceError) -> TimeZoneRules {
        let (zoneName, cached) = state.withLock { state in
            let zoneName = name ?? state.configuration.timeZone ?? state.systemZone
            return (zoneName, state.zoneCache[zoneName])
        }
        if let cached { return cached }
        do {
            let rules = try zoneFiles.rules(named: zoneName)
            state.withLock { $0.zoneCache[zoneName] = rules }
            return rules
        } catch {
            throw .unknownTimeZone(zoneName, error.description)
        }
    }

    /// The zones an iCalendar plan may use (`CalendarImport`): the system's, by name, and `names` (every zone
    /// file's, to match a VTIMEZONE a file defines).
    func importZones(names: [String]) throws(ServiceError) -> CalendarImport.Zones {
        // An unknown name is nil: the plan then looks for the file's VTIMEZONE of that name.
        CalendarImport.Zones(named: { [self] name in try? zone(named: name) }, names: names, system: try zone(named: nil))
    }

    /// A date the user typed, or today in the followed zone when none was given.
    func date(_ text: String?, parameter: String, now: Instant) throws(ServiceError) -> LocalDate {
        if let text { return try TypedTime.date(text, parameter: parameter) }
        return LocalDate(dayNumber: try zone(named: nil).localDayNumber(at: now))
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
