import Glibc
import ReminderCore
import Synchronization
import SystemdSupport

/// Runs commands when an occurrence is announced (fired, caught up, snoozed, repeated): the config's `on-fire`
/// and the reminder's own `--exec`. Each runs without a shell, with the reminder in its environment
/// (``environment(for:)``), its output in the journal (identifier `remindd-hook`), and a time limit, after
/// which its process group is killed. Announcing never waits for a hook; a failing or hanging one is reported.
public final class CommandHookAnnouncer: Announcer {
    /// How long a hook may run.
    public static let timeLimitSeconds: Int32 = 10

    private let onFire: Mutex<[String]?>
    private let journal: Journal
    private let timeLimitMilliseconds: Int32
    private let report: @Sendable (DaemonMessage) -> Void
    private let children = ChildProcesses()

    /// - Parameters:
    ///   - onFire: the config's `on-fire` command (program and arguments).
    ///   - report: where a hook that fails, hangs or cannot start is reported (the journal).
    public init(
        onFire: [String]?, journal: Journal, timeLimitMilliseconds: Int32 = CommandHookAnnouncer.timeLimitSeconds * 1000,
        report: @escaping @Sendable (DaemonMessage) -> Void
    ) {
        self.onFire = Mutex(onFire)
        self.journal = journal
        self.timeLimitMilliseconds = timeLimitMilliseconds
        self.report = report
    }

    /// Applies a reloaded `on-fire`.
    public func setOnFire(_ command: [String]?) {
        onFire.withLock { $0 = command }
    }

    public func announce(_ event: DaemonEvent) {
        guard case .firing(let firing) = event, firing.kind.reachesThePerson else { return }
        let commands = [onFire.withLock { $0 }, firing.firing.reminder.delivery.command].compactMap { $0 }
        guard !commands.isEmpty else { return }  // most firings: nothing to make an environment for (6% of a burst)
        let environment = Self.inheritedEnvironment() + Self.environment(for: firing).map { "\($0.0)=\($0.1)" }
        for command in commands {
            run(command, environment: environment, for: firing.firing.reminder.name)
        }
    }

    /// The variables a hook gets for a firing, in this order.
    public static func environment(for event: FiringEvent) -> [(String, String)] {
        let firing = event.firing
        return [
            ("REMINDER_ID", String(firing.reminder.id)), ("REMINDER_NAME", firing.reminder.name), ("REMINDER_SLOT", firing.slotID),
            ("SCHEDULED_UTC", firing.occurrence.instant.description), ("FIRED_UTC", event.handledAt.description),
            ("REMINDER_STATE", "due"), ("REMINDER_ANNOUNCEMENT", event.kind.rawValue),
            ("REMINDER_LOCAL", firing.occurrence.localISO8601), ("REMINDER_MESSAGE", "Reminder: \(FiringWording.reminder(firing))"),
        ]
    }

    private func run(_ command: [String], environment: [String], for name: String) {
        let output = journal.streamDescriptor(identifier: "remindd-hook", priority: .info)
        defer { close(output) }
        let program = command[0]
        let report = self.report
        let limit = timeLimitMilliseconds % 1000 == 0 ? "\(timeLimitMilliseconds / 1000) s" : "\(timeLimitMilliseconds) ms"
        children.run(command, environment: environment, output: output, timeLimitMilliseconds: timeLimitMilliseconds) { outcome in
            switch outcome {
            case .exited(0): return
            case .exited(let status): report(DaemonMessage(.warning, "Hook \(program) for \(name) exited with status \(status)"))
            case .signalled(let signal): report(DaemonMessage(.warning, "Hook \(program) for \(name) was killed by signal \(signal)"))
            case .killedAtTimeLimit:
                report(DaemonMessage(.warning, "Hook \(program) for \(name) was still running after \(limit) and was killed"))
            case .stoppedWithTheDaemon:
                report(DaemonMessage(.notice, "Hook \(program) for \(name) was still running when remindd stopped and was killed"))
            case .notStarted(let reason):
                report(DaemonMessage(.warning, "Hook \(program) for \(name) could not start: \(reason); check the path and that it is executable"))
            }
        }
    }

    /// Kills the hooks still running: the daemon is stopping.
    public func stopRunning() {
        children.stopAll()
    }

    /// The daemon's own environment (PATH, DISPLAY, DBUS_SESSION_BUS_ADDRESS...) without old REMINDER_ values.
    private static func inheritedEnvironment() -> [String] {
        var result: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if !text.hasPrefix("REMINDER_") { result.append(text) }
            entry += 1
        }
        return result
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
