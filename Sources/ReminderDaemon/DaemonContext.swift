import FitnessCore
import ReminderCore
import ReminderStore
import Translation

/// What every feature service shares: the ports, the store's file (each service holds its own stores), the
/// change feed, and the settings a reload or a change of the system zone replaces (``DaemonSettings``).
final class DaemonContext: Sendable {
    let clock: any DaemonClock
    let announcer: any Announcer
    /// Where announcements are read back after a crash (the journal).
    let ledger: any AnnouncementLedger
    /// The database: only the context reads it whole (a service holds the feature stores it owns).
    private let store: ReminderStore
    /// The configuration, the zones and the quiet hours.
    let settings: DaemonSettings
    let exercises: ExerciseLibrary
    let routineDirectories: [String]
    /// What every writer committed, handed to the features that follow it.
    let feed: ChangeFeed
    /// When no firing is due for a while: a long write (an import's move) waits for one.
    let lulls: FiringLulls
    /// Imports and restores, one at a time (from any client): each sees what the one before added.
    let importTurns = ImportTurns()

    init(ports: DaemonPorts, announcer: any Announcer) {
        let clock = ports.clock
        self.clock = clock
        self.announcer = announcer
        lulls = FiringLulls(clock: clock)
        ledger = ports.ledger
        store = ports.store
        exercises = ports.exercises
        routineDirectories = ports.routineDirectories
        settings = DaemonSettings(configuration: ports.configuration, zoneFiles: ports.zones, systemZoneName: { clock.systemZoneName() })
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

    /// The rule a stored reminder fires by now: its own; for one timed from its last dose (`--from-last-dose`),
    /// counted from the last dose logged (read from the store).
    func firingRule(of reminder: StoredReminder) throws(ServiceError) -> ReminderRule {
        // The stored rule made where it lies, not copied first (each start makes every reminder's rule); through
        // `fields`, as a key path applied to a borrowed row copies the row.
        guard reminder.fields.rule.fromLastDose == true else { return try Self.made(reminder.fields.rule) }
        let last = try storing { () throws(StoreError) in try store.intake.lastDose(reminderID: reminder.id) }
        return try Self.made(reminder.fields.rule.counted(fromLastDose: last, in: try settings.zone(named: reminder.fields.timeZone)))
    }

    private static func made(_ spec: RuleSpec) throws(ServiceError) -> ReminderRule {
        do { return try spec.makeRule() } catch { throw .invalidRule(error.message) }
    }

    /// A reminder's rule (``firingRule(of:)``) and zone, or nil when either cannot be used now (the scheduler
    /// says why): what a log is weighed with.
    func usableRuleAndZone(of reminder: StoredReminder) -> (rule: ReminderRule, zone: TimeZoneRules)? {
        do {
            return (try firingRule(of: reminder), try settings.zone(named: reminder.timeZone))
        } catch {
            return nil
        }
    }

    /// Announces a message about the daemon itself.
    func say(_ severity: DaemonMessage.Severity, _ text: String) {
        announcer.announce(.daemon(DaemonMessage(severity, text)))
    }

    /// Announces a message about the daemon itself, made beforehand.
    func say(_ message: DaemonMessage) {
        announcer.announce(.daemon(message))
    }

    /// Announces a message of a table: the journal says it in the daemon's language.
    func say(_ severity: DaemonMessage.Severity, _ message: Message, _ arguments: any CustomStringConvertible...) {
        announcer.announce(.daemon(DaemonMessage(severity, message, arguments.map(\.description))))
    }

    /// Announces a message of a table about `count` things (its plural form chosen by it).
    func say(_ severity: DaemonMessage.Severity, _ message: Message, count: Int, _ arguments: any CustomStringConvertible...) {
        announcer.announce(.daemon(DaemonMessage(severity, message, count: count, arguments.map(\.description))))
    }

    /// Announces a firing, marked quiet as ``DaemonSettings/quieted(_:)`` says.
    func announce(firing event: FiringEvent) {
        announcer.announce(.firing(settings.quieted(event)))
    }

    /// Announces firings that happened together, each marked quiet as ``DaemonSettings/quieted(_:)`` says.
    func announce(firings events: [FiringEvent]) {
        announcer.announce(events.map { .firing(settings.quieted($0)) })
    }
}
