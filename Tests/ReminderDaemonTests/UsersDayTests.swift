import ReminderCore
import ReminderInterface
import Testing

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// `today` (and the status bar, `done --all-due` and the web window, which read it) is the user's day, in the
/// zone remindd follows, for a reminder that keeps another zone too. Before, it listed the reminder's own date:
/// at 00:31 UTC a dose at 12:30 in UTC-12 (00:30 UTC), taken a minute before, was listed as the next day's
/// occurrence, "upcoming", and nothing was due.
@Suite("Today is the user's day")
struct UsersDayTests {
    func today(_ daemon: TestDaemon, _ date: String? = nil) async throws -> [(utc: String, state: String)] {
        try await daemon.call(Reminders.Occurrences.self, .init(date: date)).occurrences.map { ($0.utc, $0.state) }
    }

    @Test func aDoseJustAfterTheUsersMidnightIsTodaysWhateverTheReminderZoneSays() async throws {
        let daemon = try await TestDaemon(now: instant("2026-11-30T12:00:00Z"), systemZone: "UTC")
        try await daemon.add("Levothyroxine", ["daily": true, "at": "12:30"], timeZone: "Etc/GMT+12")
        await daemon.advance(to: instant("2026-12-02T00:30:10Z"))
        #expect(try await today(daemon).map(\.utc) == ["2026-12-02T00:30:00Z"])
        #expect(try await today(daemon).map(\.state) == ["due"])
        try await daemon.log("Levothyroxine")
        await daemon.advance(to: instant("2026-12-02T00:31:00Z"))
        #expect(try await today(daemon).map(\.state) == ["taken"])
        // The day before holds the one a day earlier, missed (nothing was logged on the reminder's 30 November).
        #expect(try await today(daemon, "2026-12-01").map(\.utc) == ["2026-12-01T00:30:00Z"])
        #expect(try await today(daemon, "2026-12-01").map(\.state) == ["missed"])
        // What today listed is still true after a restart.
        try await daemon.restart()
        #expect(try await today(daemon).map(\.utc) == ["2026-12-02T00:30:00Z"])
        #expect(try await today(daemon).map(\.state) == ["taken"])
    }

    @Test func aWindowAcrossTheUsersMidnightKeepsItsDoseDueToday() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T23:00:00Z"), systemZone: "UTC")
        try await daemon.add("Insulin", ["daily": true, "at": "11:50"], timeZone: "Etc/GMT+12", ["window": "1h"])
        await daemon.advance(to: instant("2026-12-02T00:10:00Z"))
        // Fired at 23:50 yesterday (the user's), due until 00:50: today lists it, due, before today's own.
        #expect(try await today(daemon).map(\.utc) == ["2026-12-01T23:50:00Z", "2026-12-02T23:50:00Z"])
        #expect(try await today(daemon).map(\.state) == ["due", "upcoming"])
        // Taken, it is yesterday's again (taken there); the day before knew it all along.
        try await daemon.log("Insulin")
        #expect(try await today(daemon).map(\.state) == ["upcoming"])
        #expect(try await today(daemon, "2026-12-01").map(\.state) == ["taken"])
    }

    @Test func aZoneAheadOfTheUsersSplitsItsDayAcrossTwoOfTheUsers() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-02T06:00:00Z"), systemZone: "America/New_York")
        try await daemon.add("Pills", ["daily": true, "at": "08:00,20:00"], timeZone: "Asia/Tokyo")
        // New York's 2 December (05:00Z to 05:00Z) holds Tokyo's 20:00 of the 2nd (11:00Z) and 08:00 of the 3rd
        // (23:00Z).
        #expect(try await today(daemon).map(\.utc) == ["2026-12-02T11:00:00Z", "2026-12-02T23:00:00Z"])
        #expect(try await today(daemon).map(\.state) == ["upcoming", "upcoming"])
    }
}
