import Glibc
import ReminderCore
import Synchronization
import TimeZoneDatabase
import VarlinkProtocol
import Translation

/// What a command runs against: the daemon, standard output, the environment, the clock and the user's zone.
/// remindctl runs with the real ones (``system``); tests bind a stub daemon and capture the output with
/// `CommandContext.$current.withValue(...)`.
public struct CommandContext: Sendable {
    /// Opens a connection to the daemon's socket.
    public var connect: @Sendable (_ socketPath: String) throws -> any VarlinkClient
    /// Writes to standard output.
    public var write: @Sendable (String) -> Void
    public var environment: [String: String]
    public var stdoutIsTerminal: Bool
    public var stdinIsTerminal: Bool
    public var now: @Sendable () -> Instant
    /// The zone times are shown in: the user's current one (`TZ`, else the system's).
    public var zone: TimeZoneRules
    /// The language the commands speak: the shell's (`LANG`, `LC_MESSAGES`); English as written by default.
    public var words: any MessageCatalog

    public init(
        connect: @escaping @Sendable (String) throws -> any VarlinkClient, write: @escaping @Sendable (String) -> Void,
        environment: [String: String], stdoutIsTerminal: Bool, stdinIsTerminal: Bool, now: @escaping @Sendable () -> Instant, zone: TimeZoneRules,
        words: any MessageCatalog = UntranslatedCatalog()
    ) {
        (self.connect, self.write, self.environment) = (connect, write, environment)
        (self.stdoutIsTerminal, self.stdinIsTerminal, self.now, self.zone, self.words) = (stdoutIsTerminal, stdinIsTerminal, now, zone, words)
    }

    @TaskLocal public static var current: CommandContext = .system

    /// The process's own: its socket connections, standard output, environment, real clock, zone and language
    /// (its locale is set here, when remindctl first asks for it, before it starts any thread).
    public static let system: CommandContext = {
        let words = GettextCatalog.start(executable: GettextCatalog.runningExecutable())
        if let refusal = words.refusal { FileHandleOutput.standardError("remindctl: \(refusal)\n") }
        let environment = SystemEnvironment.variables()
        let database = TimeZoneDatabase.system(environment: environment)
        let zone = (try? database.rules(named: database.systemZoneName(environment: environment))) ?? TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        return CommandContext(
            connect: { try VarlinkConnection(path: $0) },
            write: { text in
                var bytes = Array(text.utf8)
                var offset = 0
                while offset < bytes.count {
                    let n = bytes[offset...].withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { return }
                    offset += n
                }
            },
            environment: environment, stdoutIsTerminal: isatty(STDOUT_FILENO) == 1, stdinIsTerminal: isatty(STDIN_FILENO) == 1,
            now: SystemEnvironment.now, zone: zone, words: words)
    }()
}

/// A buffer that collects what commands write (for tests, and for anything that wants the text).
public final class CapturedOutput: Sendable {
    private let text = Mutex("")
    public init() {}
    public func append(_ more: String) { text.withLock { $0 += more } }
    public var value: String { text.withLock { $0 } }
}

extension CommandContext {
    /// A time the user typed for something that happened (`--at`, `--since`: `TimeText`'s forms), read in the
    /// user's zone and sent as an instant with that offset, so the daemon, whatever zone it runs in, reads what
    /// was meant and says it back the same way. Text that is none of the forms goes as typed, for the daemon
    /// to refuse with the forms.
    func typedTime(_ text: String?) -> String? {
        guard let text, let instant = TimeText.instant(text, now: now(), zone: zone) else { return text }
        if ISO8601.parseInstant(text)?.offsetSeconds != nil { return text }
        return ISO8601.format(instant, offsetSeconds: zone.offset(at: instant), zulu: false)
    }

    /// Where the user's zone comes from, in words: "TZ" or "the system's".
    var zoneSource: String { environment["TZ"].map { $0.isEmpty ? "the system's" : "TZ" } ?? "the system's" }
}
