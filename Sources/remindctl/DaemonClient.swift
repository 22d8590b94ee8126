import ArgumentParser
import FoundationEssentials
import Glibc
import ReminderCore
import ReminderInterface
import VarlinkProtocol

/// How to reach the daemon: `--socket`, else `$REMINDD_SOCKET`, else `$XDG_RUNTIME_DIR/remindd/control.sock`.
struct ConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The daemon's control socket (default: $XDG_RUNTIME_DIR/remindd/control.sock).", valueName: "path"))
    var socket: String?

    var socketPath: String {
        let environment = SystemEnvironment.variables()
        if let socket { return socket }
        if let fromEnvironment = environment["REMINDD_SOCKET"], !fromEnvironment.isEmpty { return fromEnvironment }
        return RemindPaths(environment: environment, uid: getuid()).socket
    }

    /// Calls a method of the catalogue and decodes its reply.
    func call<Method: VarlinkMethod>(_ method: Method.Type, _ parameters: Method.Parameters) throws -> Method.Reply {
        try withConnection { connection in try connection.call(method, parameters) }
    }

    /// Calls a method without parameters.
    func call<Method: VarlinkMethod>(_ method: Method.Type) throws -> Method.Reply where Method.Parameters == NoFields {
        try call(method, NoFields())
    }

    /// Opens a connection and maps transport and Varlink errors to one-line messages.
    func withConnection<T>(_ body: (VarlinkConnection) throws -> T) throws -> T {
        do {
            let connection = try VarlinkConnection(path: socketPath)
            return try body(connection)
        } catch VarlinkConnection.ConnectionError.notRunning(let path) {
            throw CLIError("remindd is not running (nothing listens on \(path)): start it with 'systemctl --user enable --now remindd.socket remindd.service'")
        } catch let error as VarlinkError {
            throw CLIError(Self.describe(error))
        } catch VarlinkConnection.ConnectionError.notAccepting(_, let seconds) {
            throw CLIError("remindd did not accept the connection within \(seconds) s (too many open connections?): try again, and see 'journalctl --user -u remindd'")
        } catch VarlinkConnection.ConnectionError.timedOut(let seconds) {
            throw CLIError("remindd did not answer within \(seconds) s: see 'systemctl --user status remindd' and 'journalctl --user -u remindd'")
        } catch let error as VarlinkConnection.ConnectionError {
            throw CLIError("cannot talk to remindd: \(error)")
        }
    }

    /// Words for the daemon's errors.
    static func describe(_ error: VarlinkError) -> String {
        switch error.name {
        case Reminders.interface + "." + RemindErrors.ReminderNotFound.errorName:
            return "no reminder '\(error.string("reminder") ?? "?")': see 'remindctl list' for names and ids"
        case Reminders.interface + "." + RemindErrors.NameTaken.errorName, Routines.interface + "." + RemindErrors.NameTaken.errorName:
            return "a reminder named '\(error.string("name") ?? "?")' already exists: choose another name, or change it with 'remindctl update'"
        case "org.varlink.service.InvalidParameter":
            return "the daemon refused the parameter '\(error.string("parameter") ?? "?")'"
        case "org.varlink.service.PermissionDenied":
            return "remindd refused the connection: it serves only the user it runs as"
        default:
            return error.description
        }
    }
}

/// JSON output for `--json`: pretty, keys sorted, one document.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// Prints rows as aligned columns under a header.
func printTable(_ header: [String], _ rows: [[String]]) {
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].displayWidth }.max() ?? 0 }
    for row in [header] + rows {
        let cells = row.enumerated().map { index, cell in
            index == row.count - 1 ? cell : cell.padded(toDisplayWidth: widths[index])
        }
        let line = cells.joined(separator: "  ")
        print(String(line.reversed().drop { $0 == " " }.reversed()))  // an empty last cell leaves no trailing spaces
    }
}

/// `Sun 2026-11-22 09:00 -05:00` from an ISO 8601 local time with offset.
func humanTime(_ iso: String) -> String {
    guard let parsed = ISO8601.parseInstant(iso) else { return iso }
    let local = parsed.local
    let offset = parsed.offsetSeconds.map { " " + ISO8601.formatOffset($0) } ?? ""
    return "\(local.date.weekday.displayName) \(local.date) \(local.time)\(offset)"
}

