import FoundationEssentials
@testable import RemindCommands
import Testing

/// `remindctl status --format waybar`: one JSON line a status bar's custom module reads, its class from what is
/// due now (the harness's clock: 2026-11-22 07:45 UTC).
@Suite struct StatusBarTests {
    func occurrence(_ name: String, at time: String, _ state: String, dose: String = "") -> String {
        #"{"reminderId": 1, "reminderName": "\#(name)", "slot": "1@2026-11-22T\#(time)", "local": "2026-11-22T\#(time):00+00:00", "utc": "2026-11-22T\#(time):00Z", "state": "\#(state)", "windowEndUtc": "2026-11-22T23:59:59Z"\#(dose)}"#
    }

    func line(_ occurrences: [String]) throws -> [String: String] {
        var replies = Samples.replies
        replies["io.remindd.Reminders.Occurrences"] = #"{"date": "2026-11-22", "occurrences": [\#(occurrences.joined(separator: ", "))]}"#
        let outcome = CommandHarness(daemon: StubDaemon(replies: replies)).run("status", "--format", "waybar")
        #expect(outcome.error == nil)
        #expect(outcome.output.split(separator: "\n").count == 1, "one line")
        return try JSONDecoder().decode([String: String].self, from: Data(outcome.output.utf8))
    }

    @Test func dueOverdueMissedAndIdle() throws {
        let idle = try line([occurrence("Vitamin D", at: "09:00", "upcoming")])
        #expect(idle["class"] == "idle" && idle["text"] == "Vitamin D 09:00")
        #expect(idle["tooltip"]?.contains("Today: 0 of 1 done\nNext: Vitamin D at 09:00 (in 1h 15min)") == true)
        let due = try line([occurrence("Metformin", at: "07:40", "due", dose: #", "dose": 500, "unit": "mg""#), occurrence("Ramipril", at: "07:40", "due")])
        #expect(due["class"] == "due" && due["alt"] == "due" && due["text"] == "⏰ Metformin 500 mg · Ramipril")
        let overdue = try line([occurrence("Metformin", at: "07:30", "due"), occurrence("Water", at: "07:00", "taken")])
        #expect(overdue["class"] == "overdue" && overdue["tooltip"]?.contains("Today: 1 of 2 done") == true)
        let missed = try line([occurrence("Metformin", at: "07:00", "missed")])
        #expect(missed["class"] == "missed" && missed["tooltip"]?.hasPrefix("Missed today: Metformin") == true)
    }

    /// `today` lists every dose of the day, taken ones too, and says how many of each medication's are taken.
    @Test func todaySaysHowManyOfEachMedicationsDosesAreTaken() throws {
        var replies = Samples.replies
        let mg = #", "dose": 500, "unit": "mg""#
        let occurrences = [
            occurrence("Metformin", at: "07:00", "taken", dose: mg), occurrence("Water", at: "07:10", "missed"),
            occurrence("Metformin", at: "12:00", "suppressed", dose: mg), occurrence("Metformin", at: "19:00", "upcoming", dose: mg),
            occurrence("Ramipril", at: "07:00", "missed", dose: mg),
        ]
        replies["io.remindd.Reminders.Occurrences"] = #"{"date": "2026-11-22", "occurrences": [\#(occurrences.joined(separator: ", "))]}"#
        let text = CommandHarness(daemon: StubDaemon(replies: replies)).run("today")
        #expect(text.error == nil)
        #expect(text.output.contains("Doses: Metformin 2 of 3 taken · Ramipril 0 of 1 taken, 1 missed\n"), "\(text.output)")
        let json = CommandHarness(daemon: StubDaemon(replies: replies)).run("today", "--json")
        struct Count: Decodable { let reminderName: String, taken: Int, of: Int, missed: Int }
        struct Day: Decodable { let doses: [Count] }
        let doses = try JSONDecoder().decode(Day.self, from: Data(json.output.utf8)).doses
        #expect(doses.map(\.reminderName) == ["Metformin", "Ramipril"])
        #expect(doses.map(\.taken) == [2, 0] && doses.map(\.of) == [3, 1] && doses.map(\.missed) == [0, 1])
    }
}
