import Glibc

/// A command remindd runs for the user (a hook, later the sync command): a program with its arguments, what
/// its environment adds, and how long it may run.
public struct UserCommand: Sendable {
    /// The program (an absolute path) and its arguments; run without a shell.
    public var arguments: [String]
    /// `NAME=value` entries added to the environment it would get anyway (the daemon's, or the user manager's).
    public var environment: [String]
    /// What it is, for the journal and the unit's Description ("hook for Meds").
    public var purpose: String
    public var timeLimitMilliseconds: Int32
    /// When its output is logged.
    public var logsOutput: OutputLogging

    /// When a command's output is logged (within ``CommandQueue/outputLineLimit`` lines a run).
    public enum OutputLogging: Sendable {
        case always
        /// When a run fails: the sync command (vdirsyncer says every item it copies, a line each, every run).
        case onFailure
        /// Never: a sync that fails again, already said.
        case never
    }

    public init(arguments: [String], environment: [String], purpose: String, timeLimitMilliseconds: Int32, logsOutput: OutputLogging = .always) {
        self.arguments = arguments
        self.environment = environment
        self.purpose = purpose
        self.timeLimitMilliseconds = timeLimitMilliseconds
        self.logsOutput = logsOutput
    }

    /// The time limit in words ("10 s", "500 ms").
    public var timeLimitText: String {
        timeLimitMilliseconds % 1000 == 0 ? "\(timeLimitMilliseconds / 1000) s" : "\(timeLimitMilliseconds) ms"
    }
}

/// How a run of a ``UserCommand`` ended.
public enum CommandOutcome: Hashable, Sendable {
    case exited(Int32)
    case signalled(Int32)
    /// Still running at the time limit: it was killed with everything it started.
    case killedAtTimeLimit
    /// It could not be started (the reason, in words).
    case notStarted(String)
    /// Still running when the daemon stopped: it was killed with everything it started.
    case stoppedWithTheDaemon
    /// It ended, but how is not known (the reason: the user manager could not be asked).
    case unknown(String)
    /// Not run: too many commands were waiting (``CommandQueue/maximumWaiting``).
    case dropped
}

/// One way of starting a command: as a child process of the daemon, or as a transient unit of the user's
/// service manager. ``CommandQueue`` runs every command through one.
public protocol CommandLauncher: Sendable {
    /// Starts `command` with standard output and error on `output` (standard input: /dev/null) and returns
    /// at once.
    func launch(_ command: UserCommand, output: Int32) throws(LaunchFailure) -> any LaunchedCommand
}

/// A command that could not be started, and why (in words, for the journal).
public struct LaunchFailure: Error, Sendable {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// A command started by a ``CommandLauncher``, driven by the thread that waits for it.
public protocol LaunchedCommand {
    /// A descriptor that becomes readable when there is news of the command (a pidfd, a bus connection), and
    /// the poll events to wait for on it.
    var descriptor: pollfd { get }
    /// Called when ``descriptor`` is ready: handles the news and says whether the command has ended.
    mutating func process() -> Bool
    /// Kills the command and everything it started; callable from any thread, any number of times, until
    /// ``finish(timedOut:)``.
    var kill: @Sendable () -> Void { get }
    /// After it ended (or was killed): ends what it left behind, frees what it held and says how it ended.
    consuming func finish() -> CommandOutcome
}
