import HabitCore
import ReminderCore
import ReminderInterface
import Testing
import Translation
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// The habit day and the habit notices, on a manual clock.
@Suite("Habit days and notices")
struct HabitDayTests {
    /// The calendar's state of each day, and which day is today.
    private func calendar(_ daemon: TestDaemon) async throws -> (states: [String: String], today: String?) {
        let value = try await daemon.call("Calendar", as: CalendarValue.self)
        return (Dictionary(uniqueKeysWithValues: value.days.map { ($0.date, $0.state) }), value.days.first(where: \.today)?.date)
    }

    private func noGrace(dayStart: String = "00:00") -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        configuration.graceMinutes = 0
        configuration.dayStart = ISO8601.parseTime(dayStart)!
        return configuration
    }

    /// Marking a rest day a second time answered "the database cannot be used" (an upsert's conflict clause
    /// replaced the history trigger's INSERT OR IGNORE, and the write failed): it says the day is a rest day
    /// already, changes nothing, and another reason or a range around it is marked.
    @Test func aRestDayMarkedTwiceIsSaidToBeOneAlready() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-10T12:00:00Z"))
        let first = try await daemon.call(Habits.RestMark.self, .init(from: "2026-12-12"))
        #expect(first.dates == ["2026-12-12"] && first.alreadyMarked == nil)
        let again = try await daemon.call(Habits.RestMark.self, .init(from: "2026-12-12"))
        #expect(again.alreadyMarked == ["2026-12-12"])
        let otherReason = try await daemon.call(Habits.RestMark.self, .init(from: "2026-12-12", reason: "Travel"))
        #expect(otherReason.alreadyMarked == nil, "a new reason is a change")
        let range = try await daemon.call(Habits.RestMark.self, .init(from: "2026-12-11", to: "2026-12-13", reason: "Travel"))
        #expect(range.dates.count == 3 && range.alreadyMarked == ["2026-12-12"])
        let listed = try await daemon.call(Habits.RestList.self, .init(from: "2026-12-11", to: "2026-12-13"))
        #expect(listed.restDays.map(\.date) == ["2026-12-11", "2026-12-12", "2026-12-13"])
    }

    /// "Up to a year ahead" is through the same date next year: 2027-11-22 from 2026-11-22, not 366 days; from
    /// 29 February, through 28 February.
    @Test func restDaysArePlannedThroughTheSameDateNextYear() async throws {
        let daemon = try await TestDaemon(now: instant("2026-11-22T12:00:00Z"))
        let marked = try await daemon.call("RestMark", ["from": "2027-11-22"], as: [String: [String]].self)["dates"]
        #expect(marked == ["2027-11-22"])
        let refused = await #expect(throws: VarlinkError.self) { try await daemon.call("RestMark", ["from": "2027-11-23"]) }
        #expect(refused?.string("message") == "2027-11-23 is more than a year ahead: rest days can be planned through 2027-11-22")
        let leap = try await TestDaemon(now: instant("2028-02-29T12:00:00Z"))
        await #expect(throws: VarlinkError.self) { try await leap.call("RestMark", ["from": "2029-03-01"]) }
        #expect(try await leap.call("RestMark", ["from": "2029-02-28"], as: [String: [String]].self)["dates"] == ["2029-02-28"])
    }

    /// Planned rest days show in the calendar (they were invisible) and `RestList` lists rest days with reasons.
    @Test func plannedRestDaysAreInTheCalendarAndInRestList() async throws {
        let daemon = try await TestDaemon(now: instant("2026-11-22T12:00:00Z"))
        try await daemon.call("RestMark", ["from": "2026-11-20", "reason": "Illness"])
        try await daemon.call("RestMark", ["from": "2026-11-25", "to": "2026-11-26", "reason": "Travel", "light": .array([.string("Light Walk")])])
        let days = try await calendar(daemon).states
        #expect(["2026-11-20", "2026-11-24", "2026-11-25", "2026-11-26"].map { days[$0] } == ["rest", "future", "planned", "planned"])
        let listed = try await daemon.call("RestList", ["from": "2026-11-21"], as: [String: [RestDayValue]].self)["restDays"]!
        #expect(listed == [
            RestDayValue(date: "2026-11-25", reason: "Travel", light: ["Light Walk"], planned: true),
            RestDayValue(date: "2026-11-26", reason: "Travel", light: ["Light Walk"], planned: true),
        ])
        let all = try await daemon.call("RestList", as: [String: [RestDayValue]].self)["restDays"]!
        #expect(all.map(\.date) == ["2026-11-20", "2026-11-25", "2026-11-26"] && all[0].reason == "Illness" && !all[0].planned)
    }

    @Test func theHabitDayChangesAtMidnight() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-10T23:00:00Z"), configuration: noGrace())
        try await daemon.add("Water", ["daily": true, "at": "20:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-10T23:59:59Z"))
        try await daemon.log("Water")
        var days = try await calendar(daemon)
        #expect(days.today == "2026-03-10")
        #expect(days.states["2026-03-10"] == "active")

        await daemon.advance(to: instant("2026-03-11T00:00:00Z"))
        days = try await calendar(daemon)
        #expect(days.today == "2026-03-11")
        #expect(days.states["2026-03-11"] != "active")
        try await daemon.log("Water")
        #expect(try await calendar(daemon).states["2026-03-11"] == "active")
    }

    @Test func withDayStartTheHabitDayChangesAtThatTime() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-11T03:59:00Z"), configuration: noGrace(dayStart: "04:00"))
        try await daemon.add("Water", ["daily": true, "at": "20:00"], timeZone: "UTC")
        try await daemon.log("Water")
        var days = try await calendar(daemon)
        #expect(days.today == "2026-03-10")
        #expect(days.states["2026-03-10"] == "active")

        await daemon.advance(to: instant("2026-03-11T04:00:00Z"))
        days = try await calendar(daemon)
        #expect(days.today == "2026-03-11")
        #expect(days.states["2026-03-11"] != "active")
    }

    @Test func anAchievementIsAnnouncedOnce() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-10T12:00:00Z"))
        try await daemon.call("RestMark", ["from": "2026-03-10"])
        try await daemon.call("Streak")
        try await daemon.restart()
        try await daemon.call("Streak")
        let unlocked = daemon.announcer.events.filter { $0 == .habit(.achievement(.firstRestDay)) }
        #expect(unlocked.count == 1)
        let entry = JournalAnnouncer.entry(for: unlocked[0], in: english)
        #expect(entry.message == "Achievement unlocked: Recovery Mode (+10 XP)")
        #expect(entry.fields.first == .init(name: "MESSAGE_ID", value: MessageID.achievement))
    }

    @Test func theRestSuggestionComesAtTheMorningAfterSixActiveDays() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-01T12:00:00Z"))
        try await daemon.add("Stretch", ["daily": true, "at": "20:00"], timeZone: "UTC")
        for day in 0..<6 {
            await daemon.advance(to: instant("2026-03-01T12:00:00Z").adding(seconds: Int64(day) * 86400))
            try await daemon.log("Stretch")
        }
        let suggestion = DaemonEvent.habit(.restSuggestion(date: LocalDate(year: 2026, month: 3, day: 7)!))
        await daemon.advance(to: instant("2026-03-07T07:59:59Z"))
        #expect(!daemon.announcer.events.contains(suggestion))
        await daemon.advance(to: instant("2026-03-07T08:00:00Z"))
        #expect(daemon.announcer.events.filter { $0 == suggestion }.count == 1)
        try await daemon.restart()
        await daemon.advance(to: instant("2026-03-07T12:00:00Z"))
        #expect(daemon.announcer.events.filter { $0 == suggestion }.count == 1)
    }
}

/// The messages as the tables write them.
private let english = UntranslatedCatalog()
