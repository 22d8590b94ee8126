import ArgumentParser
import Foundation
@testable import RemindCommands
import Testing

/// The manual's command table (docs/reminders.md) is the command tree: one row per command, with its abstract
/// and whether it takes --json. A new or renamed command fails this until the table is updated (the failure
/// prints it).
@Suite struct ReadmeCommandTableTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/reminders.md")

    @Test func theReadmeListsEveryCommandWithItsAbstract() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = try #require(text.range(of: "<!-- commands: checked by ReadmeCommandTableTests -->\n"))
        let end = try #require(text.range(of: "<!-- /commands -->", range: start.upperBound..<text.endIndex))
        let table = String(text[start.upperBound..<end.lowerBound])
        let expected = Self.table()
        #expect(table == expected, "docs/reminders.md's command table should be:\n\(expected)")
    }

    static func table() -> String {
        var rows = ["| command | what it does | `--json` |", "| --- | --- | --- |"]
        func walk(_ command: any ParsableCommand.Type, _ path: [String]) {
            let subcommands = command.configuration.subcommands
            guard subcommands.isEmpty else {
                for sub in subcommands where sub.configuration.shouldDisplay { walk(sub, path + [sub._commandName]) }
                return
            }
            let takesJSON = (try? RemindCtl.parseAsRoot(path + Self.sampleArguments(path) + ["--json"])) != nil
            rows.append("| `remindctl \(path.joined(separator: " "))` | \(command.configuration.abstract) | \(takesJSON ? "yes" : "") |")
        }
        walk(RemindCtl.self, [])
        return rows.joined(separator: "\n") + "\n"
    }

    /// The required arguments of a command in ``CommandOutputTests/invocations``.
    static func sampleArguments(_ path: [String]) -> [String] {
        let invocation = CommandOutputTests.invocations.first { Array($0.prefix(path.count)) == path } ?? path
        return Array(invocation.dropFirst(path.count))
    }
}
