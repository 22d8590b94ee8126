import ArgumentParser
import Glibc
import ReminderCore

/// `remindctl`: the control CLI of remindd.
public struct RemindCtl: ParsableCommand {
    /// What `--version` prints: its own constant, so that answering it makes none of the commands' types.
    static let versionLine = "remindctl \(RemindVersion.current)"

    public static let configuration = CommandConfiguration(
        commandName: "remindctl",
        abstract: "Control remindd, the reminder and habit daemon.",
        discussion: """
            Talks to remindd over its Varlink socket ($XDG_RUNTIME_DIR/remindd/control.sock). 'preview' \
            works without the daemon. Commands that read or print a record take --json.

            Examples:
              remindctl add "Vitamin D" --weekly sun --at 09:00
              remindctl add "Meds" --preset "Twice a Day" --start 08:00
              remindctl log "Vitamin D"
              remindctl done Meds
              remindctl next
              remindctl history --since 7d
              remindctl preview --monthly 31 --at 09:00 --tz Europe/Berlin --count 4
              remindctl streak
              remindctl rest mark --from 2026-12-20 --to 2026-12-27 --reason Travel
              remindctl calendar

            Fired reminders are in the journal: journalctl --user -t remindd
            """,
        version: versionLine,
        subcommands: [
            AddCommand.self, ListCommand.self, ShowCommand.self, UpdateCommand.self, DeleteCommand.self,
            EnableCommand.self, DisableCommand.self, PauseCommand.self, ResumeCommand.self, TravelCommand.self, LogCommand.self, DoneCommand.self, SkipCommand.self, UnskipCommand.self, SnoozeCommand.self, NextCommand.self,
            HistoryCommand.self, StatusCommand.self, WatchCommand.self, PreviewCommand.self,
            StreakCommand.self, RestCommand.self, FreezeCommand.self, RecoverCommand.self, AchievementsCommand.self,
            CalendarCommand.self, ExerciseCommand.self, WorkoutCommand.self, FoodCommand.self, TodayCommand.self,
            DayCommand.self, CaloriesCommand.self, ProfileCommand.self, RoutineCommand.self, ExportCommand.self, ImportCommand.self,
            StockCommand.self, ReportCommand.self, CollectionCommand.self, ResolveConflictCommand.self, UICommand.self,
        ]
    )

    public init() {}
}

/// A failure to show the user in one line (printed as `Error: ...`, exit status 1).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// An option's value given under its name or its old spelling (kept as a hidden alias for one release);
/// both at once is refused.
func alias<Value>(_ value: Value?, old: Value?, _ name: String) throws -> Value? {
    if value != nil && old != nil { throw CLIError("\(name) is given twice (once under its old name): give it once") }
    return value ?? old
}

extension RemindCtl {
    /// Runs remindctl with the process's arguments; a mistyped subcommand is answered with the nearest one.
    public static func start() {
        let (spelled, renamed) = currentSpelling(Array(CommandLine.arguments.dropFirst()))
        let arguments = amountsTogether(spelled)
        if let renamed { FileHandleOutput.standardError("remindctl: \(renamed)\n") }
        // What argument-parser would print, without building every command's options, nor even the
        // configuration that lists every command (a tenth of the 4 ms it takes: scripts ask it often).
        if arguments == ["--version"] { return print(versionLine) }
        if let command = FrequentCommands.parse(arguments) { return run(command) }
        if let message = unknownSubcommand(arguments) ?? optionItDoesNotHave(arguments) {
            FileHandleOutput.standardError("Error: \(message)\n")
            Glibc.exit(64)
        }
        let command: any ParsableCommand
        do { command = try parseAsRoot(arguments) } catch { exit(withError: error) }
        run {
            var parsed = command
            try parsed.run()
        }
    }

    /// Runs a parsed command as ArgumentParser's main does, but a failure of remindctl's own says "Error" in the
    /// user's language.
    private static func run(_ command: () throws -> Void) {
        do {
            try command()
        } catch let error as CLIError {
            FileHandleOutput.standardError(out.words(CommandMessages.error, error.description) + "\n")
            Glibc.exit(EXIT_FAILURE)
        } catch {
            exit(withError: error)
        }
    }

    /// Options people reach for that remindctl does not have, with what to do instead (argument-parser's nearest
    /// spelling answered `--note` with "did you mean '--once'?").
    static let missingOptions = [
        "--note": "remindctl keeps no notes: a skip takes a reason (remindctl skip NAME --reason \"...\"), and a reminder's name can say more (remindctl update NAME --name \"...\")",
    ]

    /// The answer for an option of ``missingOptions`` among the arguments (before a `--`), or nil.
    public static func optionItDoesNotHave(_ arguments: [String]) -> String? {
        for word in arguments.prefix(while: { $0 != "--" }) {
            let name = String(word.prefix(while: { $0 != "=" }))
            if let answer = missingOptions[name] { return answer }
        }
        return nil
    }

    /// An amount as people type it after `--dose` or `--amount`: `-2` (argument-parser took it for an option and
    /// answered "Missing value") is given to the option, to be refused with why; `500 mg` (it answered
    /// "Unexpected argument 'mg'") is one amount with its unit.
    public static func amountsTogether(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            guard word == "--dose" || word == "--amount", index + 1 < arguments.count else {
                if word == "--" { return result + arguments[index...] }
                result.append(word)
                index += 1
                continue
            }
            let value = arguments[index + 1]
            if value.hasPrefix("-"), value.dropFirst().first.map({ $0.isNumber || $0 == "." }) == true {
                (result, index) = (result + [word + "=" + value], index + 2)
            } else if index + 2 < arguments.count, !arguments[index + 2].hasPrefix("-"), Dose.unitName(arguments[index + 2]) != nil,
                value.last?.isNumber == true
            {
                (result, index) = (result + [word + "=" + value + " " + arguments[index + 2]], index + 3)
            } else {
                (result, index) = (result + [word, value], index + 2)
            }
        }
        return result
    }

    /// Commands renamed in 0.2 (one word per concept), under the command path they belong to. The old names
    /// work for one release, hidden from help.
    static let renamedCommands: [(path: [String], old: String, new: String)] = [([], "remove", "delete"), (["workout"], "edit", "update")]

    /// The arguments with an old command name replaced by its new one, and a note saying so.
    public static func currentSpelling(_ arguments: [String]) -> (arguments: [String], note: String?) {
        for rename in renamedCommands where arguments.count > rename.path.count {
            let index = rename.path.count
            guard Array(arguments.prefix(index)) == rename.path, arguments[index] == rename.old else { continue }
            var replaced = arguments
            replaced[index] = rename.new
            let old = (rename.path + [rename.old]).joined(separator: " "), new = (rename.path + [rename.new]).joined(separator: " ")
            return (replaced, "'\(old)' is now '\(new)'; the old name goes in the next release")
        }
        return (arguments, nil)
    }

    /// "unknown command 'stauts': did you mean 'status'?" when a word where a subcommand belongs names none.
    public static func unknownSubcommand(_ arguments: [String]) -> String? {
        var command: any ParsableCommand.Type = RemindCtl.self
        var path = "remindctl"
        for word in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, command.configuration.defaultSubcommand == nil, !word.hasPrefix("-") else { return nil }
            let names = subcommands.flatMap { [$0._commandName] + $0.configuration.aliases }
            if let next = subcommands.first(where: { $0._commandName == word || $0.configuration.aliases.contains(word) }) {
                command = next
                path += " " + word
                continue
            }
            if word == "help" { return nil }
            let visible = subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }
            let hint = EditDistance.suggestion(for: word, among: names).map { ": did you mean '\(path) \($0)'?" }
                ?? ": see '\(path) --help' (\(visible.joined(separator: ", ")))"
            return "unknown command '\(word)'\(hint)"
        }
        return nil
    }
}

/// Writes straight to standard error (no buffering: before an exit).
enum FileHandleOutput {
    static func standardError(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
