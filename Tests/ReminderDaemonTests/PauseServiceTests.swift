import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import Testing
import VarlinkProtocol

/// `remindctl pause` on the manual clock: a paused week of a daily dose with repeats and an escalation announces,
/// misses and escalates nothing, across a restart in the middle; `today`, `history` and the report count it
/// apart; the dose comes back when the pause ends.
@Suite("Pause with dates")
struct PauseServiceTests {
    func daemon() async throws -> TestDaemon {
        let daemon = try await TestDaemon(now: instant("2026-12-01T09:00:00Z"))
        try await daemon.add(
            "Meds", ["daily": true, "at": "08:00"], timeZone: "UTC",
            ["dose": "1", "unit": "tablet", "repeat": "10m", "escalateCommand": .array(["/bin/true"]), "escalateAfter": "30m"])
        return daemon
    }

    func pause(_ daemon: TestDaemon, _ parameters: [String: JSONValue]) async throws -> Reminders.Pause.Reply {
        try await daemon.call("Pause", parameters, as: Reminders.Pause.Reply.self)
    }

    @Test func aPausedWeekAnnouncesMissesAndEscalatesNothing() async throws {
        let daemon = try await daemon()
        let reply = try await pause(daemon, ["reminder": "Meds", "from": "2026-12-02T00:00:00Z", "until": "2026-12-09T00:00:00Z", "reason": "hospital"])
        #expect(reply.count == 1 && reply.loggedWithin == 0)
        #expect(reply.reminders.first?.delivery.pause.pauses == [.init(from: "2026-12-02T00:00:00Z", until: "2026-12-09T00:00:00Z", reason: "hospital")])

        await daemon.advance(to: instant("2026-12-05T12:00:00Z"))
        try await daemon.restart()  // what was paused stays paused
        await daemon.advance(to: instant("2026-12-09T07:00:00Z"))
        #expect(daemon.firings(of: "Meds").filter(\.kind.reachesThePerson).isEmpty, "nothing announced in the pause")
        #expect(daemon.announcer.occurrences.filter { $0.state == .missed && $0.firing.reminder.name == "Meds" }.isEmpty, "nothing missed")
        #expect(daemon.announcer.escalations.isEmpty, "nothing escalated")
        let recorded = try await daemon.history(of: "Meds").filter { $0.kind == "skipped" && $0.detail?.hasPrefix("paused until") == true }
        #expect(recorded.count == 7, "each paused occurrence recorded as paused: \(recorded.map(\.scheduledUtc))")
        let day = try await daemon.call("Occurrences", ["date": "2026-12-04"], as: Reminders.Occurrences.Reply.self)
        #expect(day.occurrences.filter { $0.reminderName == "Meds" }.map(\.state) == ["paused"])

        await daemon.advance(to: instant("2026-12-09T08:05:00Z"))
        #expect(daemon.firings(of: "Meds").filter(\.kind.reachesThePerson).map(\.scheduled) == [instant("2026-12-09T08:00:00Z")], "back after the pause")
        try await daemon.log("Meds", at: "2026-12-09T08:05:00Z")
        let report = try await daemon.call("Report", ["from": "2026-12-01", "to": "2026-12-09", "reminders": .array(["Meds"])], as: Reminders.Report.Reply.self)
        let meds = try #require(report.reminders.first)
        #expect(meds.paused == 7 && meds.due == 1 && meds.adherence == 1, "the paused week is counted apart, not in the adherence")
        #expect(meds.days.first { $0.date == "2026-12-04" }?.states == ["paused"])
    }

    @Test func resumeEndsThePauseNowAndTheNextDoseIsAnnounced() async throws {
        let daemon = try await daemon()
        _ = try await pause(daemon, ["reminder": "Meds", "until": "2026-12-20"])
        await daemon.advance(to: instant("2026-12-03T12:00:00Z"))
        let resumed = try await daemon.call("Resume", ["reminder": "Meds"], as: Reminders.Resume.Reply.self)
        #expect(resumed.reminders.first?.delivery.pause.pauses?.first?.until == "2026-12-03T12:00:00Z", "kept, ended now")
        await daemon.advance(to: instant("2026-12-04T08:00:00Z"))
        #expect(daemon.firings(of: "Meds").filter(\.kind.reachesThePerson).map(\.scheduled) == [instant("2026-12-04T08:00:00Z")])
        await #expect { try await daemon.call("Resume", ["reminder": "Meds"]) } throws: { error in
            (error as? VarlinkError)?.string("message")?.contains("is not paused now") == true
        }
    }

    /// Each refusal says how to fix the input, and changes nothing.
    @Test func aPauseInThePastBackwardsOrTooLongIsRefused() async throws {
        let daemon = try await daemon()
        let refusals: [([String: JSONValue], String)] = [
            (["reminder": "Meds", "from": "2026-10-01", "until": "2026-12-05"], "at most 31 days back"),
            (["reminder": "Meds", "from": "2026-11-20", "until": "2026-11-30"], "would end in the past"),
            (["reminder": "Meds", "from": "2026-12-05", "until": "2026-12-04"], "give --until after --from"),
            (["reminder": "Meds", "until": "2028-01-01"], "at most a year"),
            (["reminder": "Meds", "all": true, "until": "2026-12-05"], "not both"),
            (["until": "2026-12-05"], "name one reminder"),
            (["reminder": "Meds", "until": "someday"], "invalid until"),
        ]
        for (parameters, says) in refusals {
            await #expect { try await daemon.call("Pause", parameters) } throws: { error in
                (error as? VarlinkError)?.string("message")?.contains(says) == true
            }
        }
        let list = try await daemon.call("List", as: [String: [ReminderValue]].self)["reminders"]!
        #expect(list.allSatisfy { $0.delivery.pause.pauses == nil }, "nothing paused")
        // Today's date: from its midnight.
        let today = try await pause(daemon, ["reminder": "Meds", "from": "2026-12-01", "until": "2026-12-02"])
        #expect(today.reminders.first?.delivery.pause.pauses?.first?.from == "2026-12-01T00:00:00Z")
    }

    /// `--all` pauses every reminder of the user's, not a calendar's alarms, and says how many doses are logged
    /// within (logged ahead).
    @Test func pauseAllCountsTheDosesAlreadyLoggedWithin() async throws {
        let daemon = try await daemon()
        try await daemon.add("Walk", ["daily": true, "at": "18:00"], timeZone: "UTC")
        try await daemon.log("Meds", at: "2026-12-01T08:30:00Z")
        let reply = try await pause(daemon, ["all": true, "from": "2026-12-01T08:00:00Z", "until": "2026-12-03"])
        #expect(reply.count >= 2 && reply.reminders.contains { $0.name == "Walk" })
        #expect(reply.loggedWithin == 1, "the dose logged at 08:30 is within, and stays recorded")
    }

    /// A pause that starts in the past covers the occurrence announced and due now: its repeats stop, and it is
    /// not missed when its window closes (a person back from hospital pauses from the morning they went in).
    @Test func aPauseFromEarlierTodaySettlesTheDoseDueNow() async throws {
        let daemon = try await daemon()
        await daemon.advance(to: instant("2026-12-02T08:05:00Z"))
        #expect(daemon.firings(of: "Meds").filter(\.kind.reachesThePerson).count == 1)
        _ = try await pause(daemon, ["reminder": "Meds", "from": "2026-12-02T00:00:00Z", "until": "2026-12-03T00:00:00Z"])
        await daemon.advance(to: instant("2026-12-03T07:00:00Z"))
        #expect(daemon.firings(of: "Meds").filter(\.kind.reachesThePerson).count == 1, "no repeat once paused")
        #expect(daemon.announcer.occurrences.filter { $0.state == .missed && $0.firing.reminder.name == "Meds" }.isEmpty)
        #expect(daemon.announcer.escalations.isEmpty)
        let day = try await daemon.call("Occurrences", ["date": "2026-12-02"], as: Reminders.Occurrences.Reply.self)
        #expect(day.occurrences.filter { $0.reminderName == "Meds" }.map(\.state) == ["paused"])
    }
}
