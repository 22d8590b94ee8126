import ArgumentParser
import Glibc
import ReminderCore
@testable import RemindCommands
import Synchronization
import VarlinkProtocol

/// A daemon stand-in: answers each method (by qualified name) with a canned JSON reply, or an error, and
/// records every call it got.
final class StubDaemon: VarlinkClient, Sendable {
    private let replies: [String: String]
    private let errors: [String: VarlinkError]
    private let received = Mutex<[(method: String, parameters: JSONValue)]>([])

    init(replies: [String: String] = [:], errors: [String: VarlinkError] = [:]) {
        (self.replies, self.errors) = (replies, errors)
    }

    /// The calls made, in order.
    var calls: [(method: String, parameters: JSONValue)] { received.withLock { $0 } }

    func call(_ method: String, _ parameters: JSONValue, timeout: Int) throws -> JSONValue {
        received.withLock { $0.append((method, parameters)) }
        if let error = errors[method] { throw error }
        guard let text = replies[method] else { throw VarlinkError.methodNotFound(method) }
        return try VarlinkWire.decode(JSONValue.self, from: Array(text.utf8))
    }

    /// A stream of the reply, once for each element when the canned reply is a JSON array.
    func stream(_ method: String, _ parameters: JSONValue, body: (JSONValue) throws -> Bool) throws {
        let reply = try call(method, parameters, timeout: 30)
        let elements: [JSONValue]
        if case .array(let all) = reply { elements = all } else { elements = [reply] }
        for element in elements {
            guard try body(element) else { return }
        }
    }

    func callOneway(_ method: String, _ parameters: JSONValue) throws {
        received.withLock { $0.append((method, parameters)) }
    }
}

/// Runs remindctl's commands in-process against a stub daemon, a fixed clock and zone, and captured output.
struct CommandHarness {
    var daemon = StubDaemon()
    /// 2026-11-22 07:45:00 UTC, a Sunday.
    var now = Instant(secondsSinceEpoch: 1_795_333_500)
    var zone = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
    var terminal = false
    var environment: [String: String] = [
        "TERM": "xterm-256color", "REMINDD_SOCKET": "/nonexistent/control.sock", "XDG_RUNTIME_DIR": CommandHarness.runtimeFolder,
    ]

    /// A runtime folder of the test process's own (`remindctl ui` writes its login token there), not the user's.
    static let runtimeFolder: String = {
        var template = Array("/tmp/remindctl-tests-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }()

    struct Outcome {
        let output: String
        /// The one-line error the user reads, when the command failed.
        let error: String?
    }

    func run(_ arguments: String...) -> Outcome { run(arguments) }

    /// - Parameter directly: parsed as remindctl parses its frequent commands (``FrequentCommands``),
    ///   falling back to the whole tree as it does.
    func run(_ arguments: [String], directly: Bool = false) -> Outcome {
        let captured = CapturedOutput()
        let context = CommandContext(
            connect: { [daemon] _ in daemon }, write: captured.append, environment: environment, stdoutIsTerminal: terminal,
            stdinIsTerminal: false, now: { [now] in now }, zone: zone)
        let error: String? = CommandContext.$current.withValue(context) {
            do {
                if directly, let command = FrequentCommands.parse(arguments) {
                    try command()
                } else {
                    var command = try RemindCtl.parseAsRoot(arguments)
                    try command.run()
                }
                return nil
            } catch {
                return RemindCtl.fullMessage(for: error)
            }
        }
        return Outcome(output: captured.value, error: error)
    }
}
