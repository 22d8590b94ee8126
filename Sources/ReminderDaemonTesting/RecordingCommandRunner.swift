import ReminderCore
import ReminderDaemon
import Synchronization
import SystemdSupport

/// A command runner that records each run (with the manual clock's time) and ends it when the test says, with
/// the outcome the test gives: a sync that hangs is one never finished.
public final class RecordingCommandRunner: CommandRunner {
    public struct Run: Sendable {
        public var arguments: [String]
        public var at: Instant
        public var timeLimitMilliseconds: Int32
    }

    private let state = Mutex<(runs: [Run], waiting: [@Sendable (CommandOutcome) -> Void], clock: ManualClock?)>(([], [], nil))

    public init() {}

    /// The clock whose time each run is recorded at (the daemon's, once it is built).
    public func attach(_ clock: ManualClock) { state.withLock { $0.clock = clock } }

    public func run(_ command: UserCommand, finished: @escaping @Sendable (CommandOutcome) -> Void) {
        state.withLock {
            let at = $0.clock?.now() ?? Instant(secondsSinceEpoch: 0)
            $0.runs.append(Run(arguments: command.arguments, at: at, timeLimitMilliseconds: command.timeLimitMilliseconds))
            $0.waiting.append(finished)
        }
    }

    /// The runs so far.
    public var runs: [Run] { state.withLock { $0.runs } }

    private let stopped = Mutex(false)

    /// The daemon stopped its commands (its services stopped).
    public var stoppedAll: Bool { stopped.withLock { $0 } }

    public func stopAll() { stopped.withLock { $0 = true } }

    /// Ends the oldest run still running with `outcome`. - Returns: whether one was running.
    @discardableResult
    public func finish(_ outcome: CommandOutcome) -> Bool {
        guard let finished = state.withLock({ $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }) else { return false }
        finished(outcome)
        return true
    }
}
