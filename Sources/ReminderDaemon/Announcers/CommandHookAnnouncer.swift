import Glibc
import ReminderCore
import ReminderScheduling
import Synchronization
import SystemdSupport

/// Runs commands when an occurrence is announced (fired, caught up, snoozed, repeated): the config's `on-fire`
/// and the reminder's own `--exec`; when an occurrence is missed: the config's `on-missed` and the reminder's
/// `--escalate-exec` (a caregiver told; a missed note is recorded and announced once, also when it is decided at
/// start for a window that closed while the daemon was down), which runs instead at the reminder's
/// `--escalate-after` delay when the occurrence is still due then; and for a low-stock notice. Each runs
/// without a shell, with the reminder in its environment
/// (``environment(for:)``), through the daemon's ``CommandQueue`` (a transient unit of the user manager, or a
/// child; bounded; its output capped in the journal under `remindd-hook`; a time limit). Announcing never
/// waits for a hook; a failing, hanging or dropped one is reported.
public final class CommandHookAnnouncer: Announcer {
    /// How long a hook may run.
    public static let timeLimitSeconds: Int32 = 10

    private let onFire: Mutex<[String]?>
    private let onMissed: Mutex<[String]?>
    private let commands: CommandQueue
    private let timeLimitMilliseconds: Int32
    private let report: @Sendable (DaemonMessage) -> Void

    /// - Parameters:
    ///   - onFire: the config's `on-fire` command (program and arguments).
    ///   - commands: what runs them.
    ///   - report: where a hook that fails, hangs or cannot start is reported (the journal).
    public init(
        onFire: [String]?, onMissed: [String]? = nil, commands: CommandQueue, timeLimitMilliseconds: Int32 = CommandHookAnnouncer.timeLimitSeconds * 1000,
        report: @escaping @Sendable (DaemonMessage) -> Void
    ) {
        self.onFire = Mutex(onFire)
        self.onMissed = Mutex(onMissed)
        self.commands = commands
        self.timeLimitMilliseconds = timeLimitMilliseconds
        self.report = report
    }

    /// Applies a reloaded `on-fire`.
    public func setOnFire(_ command: [String]?) {
        onFire.withLock { $0 = command }
    }

    /// Applies a reloaded `on-missed`.
    public func setOnMissed(_ command: [String]?) {
        onMissed.withLock { $0 = command }
    }

    public func announce(_ event: DaemonEvent) {
        let (name, configured, command, variables): (String, [String]?, [String]?, () -> [(String, String)])
        switch event {
        case .firing(let firing) where firing.kind.reachesThePerson:
            let reminder = firing.firing.reminder
            (name, configured, command, variables) = (reminder.name, onFire.withLock { $0 }, reminder.delivery.hook.command, { Self.environment(for: firing) })
        case .occurrence(let occurrence) where occurrence.state == .missed:
            let reminder = occurrence.firing.reminder
            (name, configured, command, variables) = (
                reminder.name, onMissed.withLock { $0 }, occurrence.escalated ? nil : reminder.delivery.escalation.command,
                { Self.environment(for: occurrence) })
        case .escalation(let escalation):
            let reminder = escalation.firing.reminder
            (name, configured, command, variables) = (reminder.name, nil, reminder.delivery.escalation.command, { Self.environment(for: escalation) })
        case .lowStock(let notice):
            (name, configured, command, variables) = (notice.name, onFire.withLock { $0 }, notice.command, { Self.environment(for: notice) })
        case .headsUp(let notice):
            (name, configured, command, variables) = (
                notice.reminder.name, onFire.withLock { $0 }, notice.reminder.delivery.hook.command, { Self.environment(for: notice) })
        default:
            return
        }
        let hooks = [configured, command].compactMap { $0 }
        guard !hooks.isEmpty else { return }  // most firings: nothing to make an environment for (6% of a burst)
        let environment = variables().map { "\($0.0)=\($0.1)" }
        for hook in hooks {
            let command = UserCommand(
                arguments: hook, environment: environment, purpose: "hook \(hook[0]) for \(name)", timeLimitMilliseconds: timeLimitMilliseconds)
            commands.run(command) { outcome in
                if let message = self.message(for: outcome, of: command) { self.report(message) }
            }
        }
    }

    /// The variables an `on-missed` or `--escalate-exec` command gets for a missed occurrence: REMINDER_STATE=missed,
    /// REMINDER_DECIDED_LATE=1 when it was decided after its window closed (the daemon was not running then).
    public static func environment(for event: OccurrenceEvent) -> [(String, String)] {
        let firing = event.firing
        var variables = [
            ("REMINDER_ID", String(firing.reminder.id)), ("REMINDER_NAME", firing.reminder.name), ("REMINDER_SLOT", firing.slotID),
            ("SCHEDULED_UTC", firing.occurrence.instant.description), ("REMINDER_LOCAL", firing.occurrence.localISO8601),
            ("REMINDER_STATE", "missed"), ("WINDOW_END_UTC", event.windowEnd.description), ("DECIDED_UTC", event.decidedAt.description),
            ("REMINDER_DECIDED_LATE", event.decidedAt.secondsSinceEpoch > event.windowEnd.secondsSinceEpoch + 60 ? "1" : "0"),
            ("REMINDER_MESSAGE", "Missed: \(FiringWording.english.reminder(firing)), nothing logged by \(FiringWording.english.when(firing.reminder.zone, event.windowEnd))"),
        ]
        if event.reannounced { variables.append(("REMINDER_REANNOUNCED", "1")) }
        return variables + FiringWording.doseFields(firing.dose)
    }

    /// The variables an `--escalate-exec` command gets for an occurrence not taken at its `--escalate-after`
    /// delay: REMINDER_STATE=overdue, REMINDER_ESCALATED_LATE=1 when the daemon was not running at the delay's end.
    public static func environment(for event: EscalationEvent) -> [(String, String)] {
        let firing = event.firing
        let after = FiringWording.duration(seconds: firing.reminder.delivery.escalation.afterSeconds ?? 0)
        return [
            ("REMINDER_ID", String(firing.reminder.id)), ("REMINDER_NAME", firing.reminder.name), ("REMINDER_SLOT", firing.slotID),
            ("SCHEDULED_UTC", firing.occurrence.instant.description), ("REMINDER_LOCAL", firing.occurrence.localISO8601),
            ("REMINDER_STATE", "overdue"), ("ESCALATED_UTC", event.at.description), ("REMINDER_ESCALATED_LATE", event.late ? "1" : "0"),
            ("REMINDER_MESSAGE", "Not taken \(after) after its time: \(FiringWording.english.reminder(firing))"),
        ] + FiringWording.doseFields(firing.dose)
    }

    /// The variables a hook gets for a low-stock notice (REMINDER_STATE=low-stock).
    public static func environment(for notice: LowStockNotice) -> [(String, String)] {
        [
            ("REMINDER_ID", String(notice.reminderID)), ("REMINDER_NAME", notice.name), ("REMINDER_STATE", "low-stock"),
            ("STOCK_LEFT", notice.left.amountText), ("REMINDER_UNIT", notice.left.unit), ("STOCK_DAYS", String(notice.days)),
            ("STOCK_THROUGH", notice.through?.description ?? ""), ("STOCK_ORDER_BY", notice.orderBy?.description ?? ""), ("REMINDER_MESSAGE", "Running low: \(notice.name), \(FiringWording.english.stock(notice))"),
        ]
    }

    /// The variables a hook gets for a notice before an occurrence: REMINDER_STATE=upcoming,
    /// REMINDER_ANNOUNCEMENT=before, BEFORE_MINUTES.
    public static func environment(for notice: HeadsUp) -> [(String, String)] {
        let firing = notice.firing
        let before = FiringWording.duration(seconds: Int64(notice.minutesBefore) * 60)
        return [
            ("REMINDER_ID", String(firing.reminder.id)), ("REMINDER_NAME", firing.reminder.name), ("REMINDER_SLOT", firing.slotID),
            ("SCHEDULED_UTC", firing.occurrence.instant.description), ("REMINDER_STATE", "upcoming"), ("REMINDER_ANNOUNCEMENT", "before"),
            ("BEFORE_MINUTES", String(notice.minutesBefore)), ("REMINDER_LOCAL", firing.occurrence.localISO8601),
            ("REMINDER_MESSAGE", "Coming up in \(before): \(FiringWording.english.reminder(firing))"),
        ] + FiringWording.doseFields(firing.dose)
    }

    /// The variables a hook gets for a firing, in this order.
    public static func environment(for event: FiringEvent) -> [(String, String)] {
        let firing = event.firing
        var variables = [
            ("REMINDER_ID", String(firing.reminder.id)), ("REMINDER_NAME", firing.reminder.name), ("REMINDER_SLOT", firing.slotID),
            ("SCHEDULED_UTC", firing.occurrence.instant.description), ("FIRED_UTC", event.handledAt.description),
            ("REMINDER_STATE", "due"), ("REMINDER_ANNOUNCEMENT", event.kind.rawValue),
            ("REMINDER_LOCAL", firing.occurrence.localISO8601), ("REMINDER_MESSAGE", "Reminder: \(FiringWording.english.reminder(firing))"),
        ]
        if let calendar = firing.reminder.delivery.calendar { variables.append(("REMINDER_CALENDAR", calendar)) }
        if let person = firing.reminder.delivery.person.person { variables.append(("REMINDER_PERSON", person)) }
        return variables + FiringWording.doseFields(firing.dose)
    }

    /// What the journal says of a run that did not end well (nil: it did).
    func message(for outcome: CommandOutcome, of command: UserCommand) -> DaemonMessage? {
        if outcome == .dropped {
            let hook = command.purpose.prefix(1).uppercased() + command.purpose.dropFirst()
            return DaemonMessage(.warning, "\(hook) was not run: too many hooks were already waiting (\(commands.maximumWaiting); \(commands.maximumRunning) run at once)")
        }
        return outcome.problem(of: command)
    }
}

extension CommandOutcome {
    /// How a run of `command` went wrong, for the journal; nil when it exited with status 0.
    func problem(of command: UserCommand) -> DaemonMessage? {
        let what = command.purpose.prefix(1).uppercased() + command.purpose.dropFirst()
        switch self {
        case .exited(0): return nil
        case .exited(let status): return DaemonMessage(.warning, "\(what) exited with status \(status)")
        case .signalled(let signal): return DaemonMessage(.warning, "\(what) was killed by signal \(signal)")
        case .killedAtTimeLimit: return DaemonMessage(.warning, "\(what) was still running after \(command.timeLimitText) and was killed")
        case .stoppedWithTheDaemon: return DaemonMessage(.notice, "\(what) was still running when remindd stopped and was killed")
        case .notStarted(let reason): return DaemonMessage(.warning, "\(what) could not start: \(reason); check the path and that it is executable")
        case .unknown(let reason): return DaemonMessage(.warning, "\(what) ended, but how is not known: \(reason)")
        case .dropped: return DaemonMessage(.warning, "\(what) was not run: too many commands were already waiting")
        }
    }
}

/// Checks a hook command before it is stored: an absolute path to an executable file, and its arguments.
public enum HookCommand {
    /// The command, or why it cannot run (one line, with what to write instead).
    public static func problem(_ command: [String]) -> String? {
        guard let program = command.first, !program.isEmpty else { return "the command is empty: give a program and its arguments, e.g. [\"/usr/bin/notify-send\", \"Take it\"]" }
        guard program.hasPrefix("/") else {
            return "'\(program)' is not an absolute path: hooks run without a shell or PATH, e.g. /usr/bin/\(program)"
        }
        guard command.count <= 64, command.allSatisfy({ $0.utf8.count <= 4096 && !$0.contains("\0") }) else {
            return "the command is too long: at most 64 arguments of 4 KiB each"
        }
        var info = stat()
        guard stat(program, &info) == 0 else { return "'\(program)' does not exist: give the absolute path of an executable" }
        guard info.st_mode & S_IFMT == S_IFREG, access(program, X_OK) == 0 else {
            return "'\(program)' is not an executable file: chmod +x it, or give another program"
        }
        return nil
    }
}
