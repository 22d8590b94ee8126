import ArgumentParser
import FoundationEssentials
import Glibc
import HabitCore
import ReminderCore
import ReminderInterface
import TimeZoneDatabase
import VarlinkProtocol
import Translation

/// How to reach the daemon: `--socket`, else `$REMINDD_SOCKET`, else `$XDG_RUNTIME_DIR/remindd/control.sock`.
struct ConnectionOptions: ParsableArguments, DaemonConnecting {
    @Option(help: ArgumentHelp("The daemon's control socket (default: $XDG_RUNTIME_DIR/remindd/control.sock).", valueName: "path"))
    var socket: String?
}

/// The daemon at `--socket` when one was read without argument-parser (``FrequentCommands``).
struct DaemonSocket: DaemonConnecting {
    let socket: String?
}

/// What reaches the daemon and calls it, given the socket the user named (or none): ``ConnectionOptions``, or
/// ``DaemonSocket``.
protocol DaemonConnecting {
    /// The socket given with `--socket`, if any.
    var socket: String? { get }
}

extension DaemonConnecting {
    var socketPath: String { socket ?? Self.defaultSocketPath }

    /// `$REMINDD_SOCKET`, else `$XDG_RUNTIME_DIR/remindd/control.sock`.
    static var defaultSocketPath: String {
        let environment = CommandContext.current.environment
        if let fromEnvironment = environment["REMINDD_SOCKET"], !fromEnvironment.isEmpty { return fromEnvironment }
        return RemindPaths(environment: environment, uid: getuid()).socket
    }

    /// Calls a method of the catalogue and decodes its reply.
    func call<Method: VarlinkMethod>(_ method: Method.Type, _ parameters: Method.Parameters) throws -> Method.Reply {
        try withConnection { connection in
            do {
                return try connection.call(method, parameters)
            } catch let error as VarlinkError where error.name == ConnectionOptions.nothingDue {
                // Said by what was asked, in the user's language (the daemon's message is English).
                guard let said = ConnectionOptions.nothingDue(error, calling: Method.name) else { throw error }
                throw CLIError(said)
            } catch let error as VarlinkError where error.name == ConnectionOptions.doseNotAllowed {
                // Facts that do not decode (a daemon of another version) leave the daemon's own English message.
                guard let refusal = try? error.parameters.decode(RemindErrors.DoseNotAllowed.self), let said = ConnectionOptions.words(for: refusal) else { throw error }
                throw CLIError(said)
            }
        }
    }

    /// Calls a method without parameters.
    func call<Method: VarlinkMethod>(_ method: Method.Type) throws -> Method.Reply where Method.Parameters == NoFields {
        try call(method, NoFields())
    }

    /// Every reminder, a page of 1,000 at a time: as ``ReminderValue``s, or as the daemon wrote them
    /// (``JSONValue``: `list --json` prints them so, rather than decode 10,000 reminders and encode them again,
    /// two thirds of its 1.5 s).
    /// The pages are asked for on one connection (a connection each was ten for 10,000 reminders).
    func allReminders<Reminder: Decodable>(as: Reminder.Type = ReminderValue.self) throws -> [Reminder] {
        try withConnection { connection in
            var reminders: [Reminder] = []
            var after: Int64? = 0
            while let start = after {
                let parameters = try JSONValue(encoding: Reminders.List.Parameters(after: start, limit: 1000))
                let page = try connection.call(Reminders.List.qualifiedName, parameters, timeout: 30).decode(ListPage<Reminder>.self)
                reminders += page.reminders
                after = page.after
            }
            return reminders
        }
    }

    /// Opens a connection and maps transport and Varlink errors to one-line messages.
    func withConnection<T>(_ body: (any VarlinkClient) throws -> T) throws -> T {
        do {
            let connection = try CommandContext.current.connect(socketPath)
            do {
                return try body(connection)
            } catch let error as VarlinkError where error.name == ConnectionOptions.reminderNotFound {
                let line = ConnectionOptions.describe(error)
                throw CLIError(ConnectionOptions.didYouMean(error.string("reminder") ?? "", connection).map { out.words(CommandMessages.didYouMean, line, $0) } ?? line)
            }
        } catch let error as CLIError {
            throw error
        } catch VarlinkConnection.ConnectionError.notRunning(let path) {
            throw CLIError(out.words(CommandMessages.notRunning, path))
        } catch let error as VarlinkError {
            throw CLIError(ConnectionOptions.describe(error))
        } catch VarlinkConnection.ConnectionError.notAccepting(_, let seconds) {
            throw CLIError(out.words(CommandMessages.notAccepting, seconds))
        } catch VarlinkConnection.ConnectionError.timedOut(let seconds) {
            throw CLIError(out.words(CommandMessages.noAnswer, seconds))
        } catch let error as VarlinkConnection.ConnectionError {
            throw CLIError(out.words(CommandMessages.cannotTalk, error))
        }
    }
}

/// A reply of `List` with its reminders as `Reminder` (``Reminders/List/Reply`` when that is ``ReminderValue``).
private struct ListPage<Reminder: Decodable>: Decodable {
    var reminders: [Reminder]
    var after: Int64?
}

/// The daemon's errors said in words.
extension ConnectionOptions {
    fileprivate static let reminderNotFound = Reminders.interface + "." + RemindErrors.ReminderNotFound.errorName
    static let nothingDue = Reminders.interface + "." + RemindErrors.NothingDue.errorName
    static let doseNotAllowed = Reminders.interface + "." + RemindErrors.DoseNotAllowed.errorName

    /// A dose the reminder's limits refused, in words: which limit, the dose it is too close to, from when the
    /// next is allowed; nil when the daemon sent no facts (an older one: its English message is shown).
    /// `offeringForce`: whether the line ends by offering `--force` (the terminal's; a page has no such option).
    static func words(for refusal: RemindErrors.DoseNotAllowed, offeringForce: Bool = true) -> String? {
        let words = out.words
        guard let at = refusal.atUtc.flatMap(Output.instant), let other = refusal.otherUtc, let otherInstant = Output.instant(other),
            let allowed = Output.instant(refusal.allowedFromUtc)
        else { return nil }
        var line: String
        switch (refusal.limit, refusal.minIntervalSeconds, refusal.count, refusal.maxPerDay) {
        case ("interval", let interval?, _, _):
            let message = otherInstant <= at ? CommandMessages.lastDoseAt : CommandMessages.anotherDoseAt
            line = words(message, refusal.reminder, out.near(other), WindowLength.text(interval))
        case ("per-day", _, let count?, let most?):
            line = words(CommandMessages.wouldBeDose, refusal.reminder, count, out.near(other), most)
        case ("apart", _, _, _):
            guard let partner = refusal.otherReminder, let gap = refusal.gapSeconds else { return nil }
            let message = otherInstant <= at ? CommandMessages.partnerTakenAt : CommandMessages.partnerLoggedAt
            line = words(message, refusal.reminder, partner, out.near(other), WindowLength.text(gap))
        default:
            return nil
        }
        if allowed > at { line = words(CommandMessages.nextAllowedFrom, line, out.near(refusal.allowedFromUtc)) }
        if offeringForce { line = words(CommandMessages.forceAnyway, line) }
        return refusal.unsynced.map { "\(line) (\($0))" } ?? line
    }

    /// Why `done`, `done --late`, `skip` or `snooze` found nothing to act on; nil for another method.
    static func nothingDue(_ error: VarlinkError, calling method: String) -> String? {
        guard let reminder = error.string("reminder") else { return nil }
        switch method {
        case Reminders.Done.name:
            // The next one as times are shown (it was its raw ISO 8601 text).
            return error.string("next").map { out.words(CommandMessages.nothingDueNext, reminder, out.time($0)) } ?? out.words(CommandMessages.nothingDueNow, reminder)
        case Reminders.TakeLate.name: return out.words(CommandMessages.nothingMissed, reminder)
        case Reminders.Skip.name: return out.words(CommandMessages.nothingToSkip, reminder)
        case Reminders.Unskip.name: return out.words(CommandMessages.nothingToUnskip, reminder)
        case Reminders.Snooze.name: return out.words(CommandMessages.nothingToSnooze, reminder)
        default: return nil
        }
    }

    /// `Vitamin D` when a reminder's name is one typo away from `typed`.
    fileprivate static func didYouMean(_ typed: String, _ connection: any VarlinkClient) -> String? {
        guard let names = try? connection.call(Reminders.List.self, .init(limit: 1000)).reminders.map(\.name) else { return nil }
        return EditDistance.suggestion(for: typed, among: names)
    }

    /// Words for the daemon's errors.
    static func describe(_ error: VarlinkError) -> String {
        switch error.name {
        case reminderNotFound:
            return out.words(CommandMessages.noSuchReminder, error.string("reminder") ?? "?")
        case let name where name.hasPrefix("io.remindd.") && name.hasSuffix("." + RemindErrors.NameTaken.errorName):  // any interface's
            return out.words(CommandMessages.nameTaken, error.string("name") ?? "?")
        case "org.varlink.service.InvalidParameter":
            return out.words(CommandMessages.parameterRefused, error.string("parameter") ?? "?")
        case "org.varlink.service.PermissionDenied":
            return out.words(CommandMessages.notYourDaemon)
        case let name where name.hasSuffix("." + RemindErrors.InvalidTime.errorName) && error.string("unreadable") != nil:
            let message = error.string("wanted") == "date" ? CommandMessages.unreadableDate : CommandMessages.unreadableTime
            return out.words(message, error.string("parameter") ?? "?", quotedInput(error.string("unreadable") ?? ""))
        case let name where name.hasSuffix("." + RemindErrors.LogNotFound.errorName):
            guard case .object(let fields) = error.parameters, case .number(let id)? = fields["id"] else { return error.description }
            return out.words(CommandMessages.logNotFound, Int64(id))
        case let name where name.hasSuffix("." + RemindErrors.StoreFailure.errorName):
            return out.words(CommandMessages.storeFailed, error.string("message") ?? "?")
        case let name where name.hasSuffix("." + RemindErrors.InvalidInput.errorName) && out.words.language != "en":
            // The daemon's message says what to give, in English: framed in the user's language.
            return out.words(CommandMessages.invalidInput, error.string("parameter") ?? "?", error.string("message") ?? "?")
        default:
            return error.description
        }
    }
}

/// Whether to go on with a deletion: on a terminal it asks (unless --yes); without one (a script) it goes on,
/// as every delete command does.
func confirmDeletion(_ what: String, yes: Bool) -> Bool {
    if yes || !CommandContext.current.stdinIsTerminal { return true }
    out.print("Delete \(what)? [y/N] ", terminator: "")
    return readLine()?.lowercased().hasPrefix("y") == true
}

/// Shell completions that ask the daemon: reminder names, exercise ids, routine ids. Nothing when the daemon
/// does not answer (completion must never print an error).
enum Completions {
    @Sendable static func reminders(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        names { try $0.call(Reminders.List.self, .init(limit: 1000)).reminders.map(\.name) }
    }

    @Sendable static func exercises(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        names { try $0.call(Fitness.ExerciseList.self, .init()).exercises.map(\.id) }
    }

    @Sendable static func routines(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        names { try $0.call(Routines.List.self).routines.map(\.id) }
    }

    @Sendable static func presets(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        escaped(Preset.allCases.map(\.rawValue))
    }

    @Sendable static func intensities(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        escaped(["light", "moderate", "vigorous"])
    }

    @Sendable static func restReasons(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        escaped(RestReason.allCases.map(\.rawValue))
    }

    /// The zone names of the system's tzdata (those starting with what is typed: there are about 600).
    @Sendable static func zones(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        escaped(TimeZoneDatabase.system(environment: CommandContext.current.environment).allZoneNames().filter { $0.hasPrefix(prefix) }.sorted())
    }

    /// What the daemon answers, for completion (nothing when it does not answer).
    private static func names(_ read: (any VarlinkClient) throws -> [String]) -> [String] {
        // Completion must never print an error: a daemon that does not answer completes nothing.
        escaped((try? read(CommandContext.current.connect(ConnectionOptions.defaultSocketPath))) ?? [])
    }

    /// The names as the requesting shell's script needs them. bash's passes them through `compgen -W`, which
    /// expands each once (`Eve's pill` lost its quote); zsh's hands them to `_describe`, which reads
    /// `name:description` with backslash escapes (`Meds: morning` completed as `Meds`, `back\slash` as
    /// `backslash`). fish's gets them unchanged.
    static func escaped(_ names: [String]) -> [String] {
        switch CompletionShell.requesting {
        case .bash?: return names.map(ShellWords.escaped)
        case .zsh?: return names.map { $0.replacing("\\", with: "\\\\").replacing(":", with: "\\:") }
        default: return names
        }
    }
}
