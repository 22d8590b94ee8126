import Testing

@testable import RemindCommands

/// `remindctl report` in the terminal, 80 columns at most: the figures, a bar per reminder, the notes, and
/// each reminder's days as a grid a week per row; the same symbols with and without colour (NO_COLOR, a pipe).
@Suite("remindctl report")
struct ReportOutputTests {
    static let reply = #"""
        {"from": "2026-11-02", "to": "2026-11-12", "timeZone": "UTC", "madeUtc": "2026-11-24T21:00:00Z", "reminders": [
         {"reminderId": 1, "reminderName": "Metformin", "due": 21, "onTime": 15, "loggedAhead": 1, "late": 2, "lateMinutesMedian": 95,
          "lateMinutesP90": 180, "skipped": 2, "skipReasons": [{"reason": "travel", "count": 1}, {"reason": "", "count": 1}],
          "missed": ["2026-11-05T20:00:00+00:00", "2026-11-10T08:00:00+00:00"], "adherence": 0.8947368421052632,
          "days": [{"date": "2026-11-02", "states": ["taken", "taken"]}, {"date": "2026-11-03", "states": ["suppressed", "taken"]},
                   {"date": "2026-11-04", "states": ["taken-late", "taken"]}, {"date": "2026-11-05", "states": ["taken", "missed"]},
                   {"date": "2026-11-06", "states": ["skipped", "taken"]}, {"date": "2026-11-07", "states": ["taken", "taken"]},
                   {"date": "2026-11-08", "states": ["taken", "skipped"]}, {"date": "2026-11-09", "states": ["taken", "taken-late"]},
                   {"date": "2026-11-10", "states": ["missed", "taken"]}, {"date": "2026-11-11", "states": ["taken", "taken"]},
                   {"date": "2026-11-12", "states": ["taken"]}]}]}
        """#

    var harness = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.Report": reply]))

    @Test func plainTextAt80Columns() {
        let result = harness.run("report")
        #expect(result.error == nil)
        let expected = """
            Adherence, 2026-11-02 to 2026-11-12 (11 days, UTC)
            Made Tue 2026-11-24 21:00 +00:00

            REMINDER   DUE  ON TIME  LATE  SKIPPED  MISSED  ADHERENCE
            Metformin  21   15       2     2        2       89.5%  ██████████▊
            Metformin:
              late by 95 min (median), 180 min (90th percentile)
              skipped: travel 1, no reason 1
              missed: Thu 2026-11-05 20:00, Tue 2026-11-10 08:00

            Metformin  - due  ✕ missed  · skipped  □ suppressed  ■ taken  ◆ taken-late
            2026-11-02  ■■ □■ ◆■ ■✕ ·■ ■■ ■·
            2026-11-09  ■◆ ✕■ ■■ ■

            """
        #expect(result.output == expected)
        #expect(result.output.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func privateLeavesTheNamesOut() {
        let result = harness.run("report", "--private")
        #expect(!result.output.contains("Metformin") && result.output.contains("Medication 1  21"))
        #expect(!harness.run("report", "--private", "--json").output.contains("Metformin"))
    }

    @Test func colouredOnATerminalAndPlainWithNoColor() {
        var terminal = harness
        terminal.terminal = true
        let coloured = terminal.run("report").output
        #expect(coloured.contains("\u{1B}[1;31m✕\u{1B}[0m") && coloured.contains("\u{1B}[32m■\u{1B}[0m") && coloured.contains("\u{1B}[33m◆\u{1B}[0m"))
        terminal.environment["NO_COLOR"] = "1"
        #expect(terminal.run("report").output == harness.run("report").output)
    }
}

extension ReportOutputTests {
    @Test func aLongListIsWrappedWithin80Columns() {
        let text = "missed: " + (1...40).map { "Thu 2026-11-\($0 < 10 ? "0" : "")\($0) 20:00" }.joined(separator: ", ")
        let lines = ReportCommand.wrapped(text, width: 80, indent: 2).split(separator: "\n")
        #expect(lines.count > 5 && lines.allSatisfy { $0.count <= 80 })
        #expect(lines.joined(separator: " ").split(separator: " ").joined(separator: " ") == text)
    }
}
