import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemonTesting

/// A goal's streak before today is kept in memory (``SettledStreaks``). Each kind of change to those days (a
/// log, its deletion, a rest day, a window, a rule) gives the streak a full count gives (the same store after a
/// restart), and the count a person expects.
@Suite("Settled streaks follow changes to past days")
struct SettledStreakTests {
    /// Meds, daily at 08:00 UTC, logged at 08:05 on the 10 days before today but the 6th: a streak of 5.
    func daemon() async throws -> TestDaemon {
        let daemon = try await TestDaemon(now: instant("2026-03-20T12:00:00Z"))
        try await daemon.add("Meds", ["daily": true, "at": "08:00"], timeZone: "UTC")
        for day in [1, 2, 3, 4, 5, 7, 8, 9, 10] { try await daemon.log("Meds", at: morning(day)) }
        return daemon
    }

    func morning(_ daysAgo: Int) -> String { "\(date(daysAgo))T08:05:00Z" }
    func date(_ daysAgo: Int) -> String { LocalDate(dayNumber: LocalDate(year: 2026, month: 3, day: 20)!.dayNumber - daysAgo).description }

    /// The streak now, checked against a restarted daemon's.
    func streak(_ daemon: TestDaemon, _ comment: Comment) async throws -> Int {
        func medsStreak() async throws -> Int {
            let list = try await daemon.call("List", as: [String: [ReminderValue]].self)["reminders"]!
            return list.first { $0.name == "Meds" }!.streak
        }
        let kept = try await medsStreak()
        try await daemon.restart()
        let counted = try await medsStreak()
        #expect(kept == counted, comment)
        _ = try await medsStreak()  // fill the kept streaks again for the next change
        return kept
    }

    /// The rest days decide whether a missed day breaks a streak: when they cannot be read, the listing fails
    /// (it answered the streak as if no day had been rested), and answers the full count once they can be read.
    @Test func aStreakIsNotCountedWithoutItsRestDays() async throws {
        let daemon = try await daemon()
        try await daemon.call("RestMark", ["from": .string(date(6))])
        #expect(try await streak(daemon, "the missed day made a rest day") == 9)
        try daemon.setReadable(false, table: "restDay")
        await #expect { try await daemon.call("List") } throws: { ($0 as? VarlinkError)?.name == "io.remindd.Reminders.StoreFailure" }
        try daemon.setReadable(true, table: "restDay")
        #expect(try await streak(daemon, "rest days readable again") == 9)
    }

    @Test func eachChangeToAPastDayGivesTheFullCount() async throws {
        let daemon = try await daemon()
        #expect(try await streak(daemon, "logged") == 5)
        try await daemon.call("RestMark", ["from": .string(date(6))])
        #expect(try await streak(daemon, "the missed day made a rest day") == 9)
        try await daemon.call("RestUnmark", ["date": .string(date(6))])
        #expect(try await streak(daemon, "the rest day unmarked") == 5)
        let log = try await daemon.call("Log", ["reminder": "Meds", "at": .string(morning(6))], as: LogReply.self)
        #expect(try await streak(daemon, "the missed day logged") == 10)
        try await daemon.call("DeleteLog", ["id": .number(Double(log.log.id))])
        #expect(try await streak(daemon, "that log deleted") == 5)
        try await daemon.call("Update", ["reminder": "Meds", "window": "1m"])
        #expect(try await streak(daemon, "a window that ends before 08:05") == 0)
        try await daemon.call("Update", ["reminder": "Meds", "window": ""])
        #expect(try await streak(daemon, "the window back") == 5)
        try await daemon.call("Update", ["reminder": "Meds", "rule": .object(["daily": true, "at": "08:00,20:00"])])
        #expect(try await streak(daemon, "a second daily dose never logged") == 0)
    }

    /// A pause that reaches back over the missed day makes it neutral: the settled streak kept before is dropped.
    @Test func aPauseOverAMissedDayGivesTheFullCount() async throws {
        let daemon = try await daemon()
        #expect(try await streak(daemon, "logged") == 5)
        try await daemon.call("Pause", ["reminder": "Meds", "from": .string(date(6)), "until": "2026-03-21"])
        #expect(try await streak(daemon, "the missed day paused") == 9)
    }

    @Test func theStreakGoesOnAsDaysPassAndTheClockGoesBack() async throws {
        let daemon = try await daemon()
        #expect(try await streak(daemon, "logged") == 5)
        try await daemon.log("Meds", at: "2026-03-20T12:00:00Z")
        await daemon.advance(to: instant("2026-03-21T07:00:00Z"))
        #expect(try await streak(daemon, "a day later, today's dose ahead") == 6)
        await daemon.setClock(to: instant("2026-03-19T23:00:00Z"))
        // Back on the 19th, whose dose was taken at 08:05: the 15th to the 19th.
        #expect(try await streak(daemon, "the clock back to yesterday") == 5)
    }

    /// A streak asked between another writer's commit and its delivery (reads do not wait for the change feed)
    /// may be counted from the settled days kept before it; once the change is delivered, it is the full count,
    /// and what that read kept does not outlive the change.
    @Test func aStreakReadBeforeAChangeIsDeliveredIsRightOnceItIs() async throws {
        let daemon = try await daemon()
        #expect(try await streak(daemon, "logged") == 5)
        let meds = try #require(try await daemon.call("List", as: [String: [ReminderValue]].self)["reminders"]?.first { $0.name == "Meds" })
        try await daemon.database.write { db in  // another writer: the missed day logged, not yet delivered
            try db.execute(sql: "INSERT INTO intake (reminderId, at, timeZone) VALUES (?, ?, 'UTC')", arguments: [meds.id, instant(morning(6)).secondsSinceEpoch])
        }
        _ = try await daemon.call("List", as: [String: [ReminderValue]].self)  // counted meanwhile, from what was kept
        await daemon.current.deliverChanges()
        let list = try await daemon.call("List", as: [String: [ReminderValue]].self)["reminders"]!
        #expect(list.first { $0.name == "Meds" }?.streak == 10, "the missed day's log counts once delivered")
        #expect(try await streak(daemon, "and after a restart") == 10)
    }
}
