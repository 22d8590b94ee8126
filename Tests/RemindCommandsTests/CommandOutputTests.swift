import ArgumentParser
import FoundationEssentials
import ReminderCore
import ReminderInterface
@testable import RemindCommands
import Testing
import VarlinkProtocol

/// Every command, run in-process against a stub daemon: its plain output, its coloured output (the same
/// text with colour, none with NO_COLOR or TERM=dumb), and its `--json`.
@Suite struct CommandOutputTests {
    /// One invocation of every command remindctl has (`everyCommandIsCovered` keeps this complete).
    static let invocations: [[String]] = [
        ["add", "Vitamin D", "--daily", "--at", "09:00"], ["list"], ["show", "Vitamin D"], ["update", "Vitamin D", "--daily", "--at", "10:00"],
        ["delete", "Vitamin D"], ["enable", "Vitamin D"], ["disable", "Vitamin D"],
        ["pause", "set", "Vitamin D", "--until", "2026-12-08"], ["pause", "list"], ["resume", "Vitamin D"], ["travel"],
        ["log", "add", "Vitamin D"], ["log", "list"], ["log", "delete", "7"], ["done", "Vitamin D"], ["skip", "Vitamin D"], ["unskip", "Vitamin D"], ["snooze", "Vitamin D"],
        ["next"], ["history"], ["calories", "--from", "2026-11-01"], ["status"], ["watch"], ["preview", "--daily", "--at", "09:00", "--count", "2", "--tz", "UTC"],
        ["streak"], ["rest", "mark", "2026-11-24"], ["rest", "unmark", "2026-11-24"], ["rest", "list"], ["rest", "stats"], ["rest", "tips"],
        ["freeze", "history"], ["recover", "--yes"], ["achievements"], ["calendar"],
        ["exercise", "search", "run"], ["exercise", "list"], ["exercise", "show", "running"],
        ["workout", "add", "running", "--minutes", "30"], ["workout", "update", "3", "--minutes", "40"], ["workout", "delete", "3", "--yes"], ["workout", "list"],
        ["food", "add", "Oatmeal", "--kcal", "350"], ["food", "list"], ["food", "delete", "4", "--yes"],
        ["today"], ["day", "2026-11-22"], ["profile", "show"], ["profile", "set", "--weight", "82kg"],
        ["routine", "list"], ["routine", "show", "beginner-full-body"], ["routine", "select", "beginner-full-body"], ["routine", "current"], ["routine", "clear"],
        ["export", "--format", "csv", "--what", "food"], ["import", #filePath],  // remindctl reads the file: any file that exists
        ["resolve-conflict", #filePath, #filePath],  // two equal versions: nothing is written
        ["stock", "show"], ["stock", "set", "Vitamin D", "12"], ["stock", "add", "Vitamin D", "30"], ["report"],
        ["collection", "show"], ["collection", "relink"], ["ui", "--print"],
    ]

    /// Commands that print no record, only that something was done, and `export`, whose output is JSON or CSV
    /// by --format: they take no --json.
    static let confirmationsOnly: Set<String> = ["rest unmark", "rest tips", "routine clear", "export", "resolve-conflict", "ui"]

    static let escape = "\u{1B}["

    var harness = CommandHarness(daemon: StubDaemon(replies: Samples.replies))

    @Test func everyCommandIsCovered() throws {
        func leaves(_ command: any ParsableCommand.Type, _ path: [String]) -> [String] {
            let subcommands = command.configuration.subcommands
            if subcommands.isEmpty { return [path.joined(separator: " ")] }
            return subcommands.flatMap { leaves($0, path + [$0._commandName]) }
        }
        let all = Set(leaves(RemindCtl.self, []))
        let covered = Set(try Self.invocations.map { arguments in
            let command = try RemindCtl.parseAsRoot(arguments)
            return Self.path(of: type(of: command), in: RemindCtl.self, []) ?? "?"
        })
        #expect(all.subtracting(covered).sorted() == [], "commands without an output test")
        #expect(all.count >= 45)
    }

    @Test(arguments: invocations)
    func plainColouredAndJSON(_ arguments: [String]) throws {
        let plain = harness.run(arguments)
        #expect(plain.error == nil, "\(arguments): \(plain.error ?? "")")
        #expect(!plain.output.isEmpty)
        #expect(!plain.output.contains(Self.escape), "colour when not a terminal")

        var terminal = harness
        terminal.terminal = true
        let coloured = terminal.run(arguments)
        #expect(Self.withoutToken(Self.withoutColour(coloured.output)) == Self.withoutToken(plain.output), "colour changed more than colour")
        if plain.output.split(separator: "\n").first?.allSatisfy({ $0.isUppercase || $0 == " " || $0 == "/" || $0 == "(" || $0 == ")" }) == true {
            #expect(coloured.output.hasPrefix(Self.escape), "a table's header is bold on a terminal")
        }
        for environment in [["NO_COLOR": "1"], ["TERM": "dumb"]] {
            var plainTerminal = terminal
            plainTerminal.environment.merge(environment) { $1 }
            #expect(Self.withoutToken(plainTerminal.run(arguments).output) == Self.withoutToken(plain.output), "colour with \(environment)")
        }

        let name = Self.path(of: type(of: try RemindCtl.parseAsRoot(arguments)), in: RemindCtl.self, []) ?? "?"
        if Self.confirmationsOnly.contains(name) {
            #expect(throws: (any Error).self) { try RemindCtl.parseAsRoot(arguments + ["--json"]) }
        } else {
            let json = harness.run(arguments + ["--json"])
            #expect(json.error == nil, "\(arguments) --json: \(json.error ?? "")")
            // One JSON document, or (watch) one per line.
            let documents = name == "watch" ? json.output.split(separator: "\n").map(String.init) : [json.output]
            for document in documents {
                #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(document.utf8))) != nil, "\(arguments) --json printed \(document)")
            }
        }
    }

    static func path(of type: any ParsableCommand.Type, in command: any ParsableCommand.Type, _ path: [String]) -> String? {
        if type == command { return path.joined(separator: " ") }
        for sub in command.configuration.subcommands {
            if let found = Self.path(of: type, in: sub, path + [sub._commandName]) { return found }
        }
        return nil
    }

    /// `ui --print`'s link without its token, which is new each time.
    static func withoutToken(_ text: String) -> String {
        guard let start = text.range(of: "token=") else { return text }
        return String(text[..<start.upperBound]) + String(text[start.upperBound...].drop { $0.isHexDigit })
    }

    static func withoutColour(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.firstIndex(of: "\u{1B}") {
            result += rest[..<start]
            rest = rest[start...].drop { $0 != "m" }.dropFirst()
        }
        return result + rest
    }
}

/// `list --json` prints the reminders as the daemon sent them (not decoded and encoded again): the same text
/// as encoding the typed records, for reminders with every kind of field.
@Suite struct ListJSONTests {
    static let medication = #"{"id": 12, "name": "Ibuprofen \"400\" / día", "rule": {"asNeeded": true}, "summary": "as needed", "timeZone": "Europe/Berlin", "effectiveTimeZone": "Europe/Berlin", "enabled": false, "streak": 0, "windowSeconds": 5400, "urgency": "critical", "snoozeMinutes": 15, "dose": 0.5, "unit": "tablet", "calendar": "Work"}"#

    @Test func theDaemonsRemindersArePrintedAsTheTypedRecordsWouldBe() throws {
        let typed = try JSONParser.parse(Array(#"[\#(Samples.reminder), \#(Self.medication)]"#.utf8)).decode([ReminderValue].self)
        #expect(typed.count == 2 && typed[1].delivery.medication.dose != nil)
        let sent = String(decoding: JSONWriter.write(try JSONValue(encoding: Reminders.List.Reply(reminders: typed, after: nil))), as: UTF8.self)
        let harness = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.List": sent]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(typed), as: UTF8.self) + "\n"
        let printed = harness.run("list", "--json")
        #expect(printed.error == nil)
        #expect(printed.output == expected)
    }
}
