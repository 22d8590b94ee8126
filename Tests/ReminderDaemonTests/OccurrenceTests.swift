import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Closing the loop: an announced occurrence nobody logs is missed when its window closes, recorded and
/// announced once; a log in the window takes it. On a manual clock.
@Suite("Occurrences: missed at the window's end, taken by a log")
struct OccurrenceTests {
    func missed(_ daemon: TestDaemon, _ name: String) -> [Instant] {
        daemon.announcer.occurrences.filter { $0.firing.reminder.name == name && $0.state == .missed }.map(\.firing.occurrence.instant)
    }

    @Test func twiceADayLeftAloneIsMissedWhenTheNextOccurrenceComes() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00,20:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T19:59:59Z"))
        #expect(missed(daemon, "Pills").isEmpty)
        await daemon.advance(to: instant("2026-03-02T20:00:00Z"))
        #expect(missed(daemon, "Pills") == [instant("2026-03-02T08:00:00Z")])
        let event = try #require(daemon.announcer.occurrences.first)
        #expect(event.windowEnd == instant("2026-03-02T20:00:00Z") && event.decidedAt == instant("2026-03-02T20:00:00Z"))
        // The evening's window closes at midnight: the daemon wakes for it, with nothing else due then.
        #expect(daemon.clock.wakeUp == instant("2026-03-03T00:00:00Z"))
        await daemon.advance(to: instant("2026-03-03T00:00:00Z"))
        #expect(missed(daemon, "Pills") == [instant("2026-03-02T08:00:00Z"), instant("2026-03-02T20:00:00Z")])
        let history = try await daemon.history(of: "Pills")
        #expect(history.map(\.kind) == ["fired", "missed", "fired", "missed"])
        #expect(history[1].scheduledUtc == "2026-03-02T08:00:00Z" && history[1].handledUtc == "2026-03-02T20:00:00Z")
    }

    @Test func aLogInTheWindowTakesTheOccurrence() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00,20:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T08:20:00Z"))
        try await daemon.log("Pills")
        await daemon.advance(to: instant("2026-03-03T00:00:00Z"))
        #expect(missed(daemon, "Pills") == [instant("2026-03-02T20:00:00Z")])
    }

    @Test func aWindowOfItsOwnClosesEarlier() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        let added = try await daemon.call(
            "Add", ["name": "Pills", "rule": .object(["daily": true, "at": "08:00"]), "timeZone": "UTC", "window": "1h30m"],
            as: [String: ReminderValue].self)["reminder"]!
        #expect(added.windowSeconds == 5400)
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        #expect(daemon.clock.wakeUp == instant("2026-03-02T09:30:00Z"))
        await daemon.advance(to: instant("2026-03-02T09:30:00Z"))
        #expect(missed(daemon, "Pills") == [instant("2026-03-02T08:00:00Z")])
        // A log after the window closed does not take the occurrence back; the next day is on its own.
        try await daemon.log("Pills")
        await daemon.advance(to: instant("2026-03-03T09:00:00Z"))
        try await daemon.log("Pills")
        await daemon.advance(to: instant("2026-03-04T00:00:00Z"))
        #expect(missed(daemon, "Pills") == [instant("2026-03-02T08:00:00Z")])
    }

    struct Day: Decodable { let date: String; let occurrences: [OccurrenceValue] }

    /// "Did I take my morning pill?": the Occurrences method answers with each occurrence's state.
    @Test func occurrencesOfADayWithTheirStates() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00,20:00"], timeZone: "UTC")
        func states(_ date: String? = nil) async throws -> [String] {
            var parameters: [String: JSONValue] = ["reminder": "Pills"]
            if let date { parameters["date"] = .string(date) }
            return try await daemon.call("Occurrences", parameters, as: Day.self).occurrences.map(\.state)
        }
        #expect(try await states() == ["upcoming", "upcoming"])
        // Added at 09:00, a reminder has no 08:00 occurrence that day: nothing was due before it existed.
        daemon.clock.set(instant("2026-03-02T09:00:00Z"))
        try await daemon.add("Late starter", ["daily": true, "at": "08:00,20:00"], timeZone: "UTC")
        let lateStarter = try await daemon.call("Occurrences", ["reminder": "Late starter"], as: Day.self).occurrences
        #expect(lateStarter.map(\.utc) == ["2026-03-02T20:00:00Z"])
        try await daemon.call("Remove", ["reminder": "Late starter"])
        daemon.clock.set(instant("2026-03-02T07:00:00Z"))
        await daemon.advance(to: instant("2026-03-02T08:20:00Z"))
        #expect(try await states() == ["due", "upcoming"])
        try await daemon.log("Pills")
        let day = try await daemon.call("Occurrences", ["reminder": "Pills"], as: Day.self)
        #expect(day.date == "2026-03-02")
        #expect(day.occurrences.map(\.state) == ["taken", "upcoming"])
        #expect(day.occurrences[0].loggedUtc == "2026-03-02T08:20:00Z" && day.occurrences[0].windowEndUtc == "2026-03-02T20:00:00Z")
        await daemon.advance(to: instant("2026-03-03T09:00:00Z"))
        #expect(try await states("2026-03-02") == ["taken", "missed"])
        #expect(try await states() == ["due", "upcoming"])
        // Every enabled reminder, in time order, then by id (the built-in check-in: Sundays at 08:00, id 1).
        let all = try await daemon.call("Occurrences", ["date": "2026-03-08"], as: Day.self).occurrences
        #expect(all.map(\.reminderName) == ["Planning a rest day this week?", "Pills", "Pills"])
        #expect(all.map(\.utc) == ["2026-03-08T08:00:00Z", "2026-03-08T08:00:00Z", "2026-03-08T20:00:00Z"])
        await #expect(throws: VarlinkError.self) { try await daemon.call("Occurrences", ["date": "2026-13-01"]) }
        await #expect(throws: VarlinkError.self) { try await daemon.call("Occurrences", ["reminder": "Nope"]) }
    }

    @Test func badWindowsAreRefusedAndChangeNothing() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        for window in ["0m", "25h", "2x", "", "99999999999999999999h"] {
            await #expect(throws: VarlinkError.self) {
                try await daemon.call("Add", ["name": "Pills", "rule": .object(["daily": true, "at": "08:00"]), "window": .string(window)])
            }
        }
        #expect(try await daemon.call("List", as: [String: [ReminderValue]].self)["reminders"]!.map(\.name) == ["Planning a rest day this week?"])
    }

    /// Exactly once across restarts: a window that closed while the daemon was down is decided at start,
    /// late; a second restart announces nothing again.
    @Test func aWindowThatClosedWhileDownIsDecidedOnceAtStart() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00,20:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T08:05:00Z"))
        daemon.clock.set(instant("2026-03-02T19:00:00Z"))
        try await daemon.restart()
        #expect(missed(daemon, "Pills").isEmpty)
        #expect(daemon.clock.wakeUp == instant("2026-03-02T20:00:00Z"))
        daemon.clock.set(instant("2026-03-02T21:00:00Z"))
        try await daemon.restart()
        #expect(missed(daemon, "Pills") == [instant("2026-03-02T08:00:00Z")])
        #expect(daemon.announcer.occurrences.first?.decidedAt == instant("2026-03-02T21:00:00Z"))
        try await daemon.restart()
        await daemon.advance(to: instant("2026-03-02T23:00:00Z"))
        #expect(missed(daemon, "Pills") == [instant("2026-03-02T08:00:00Z")])
    }
}
