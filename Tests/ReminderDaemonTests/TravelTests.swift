import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import Testing
import TimeZoneDatabase

/// A trip with a daily 08:00 dose that follows the computer's zone, on the manual clock: Berlin, Tokyo, New York.
/// Each local date's 08:00 is announced once (none twice flying west, none lost flying east), a dose pinned to
/// Berlin stays at Berlin's 08:00 throughout, and what moved and what stayed is said once at each change, also
/// when the zone changed while remindd was not running.
@Suite("Travel across zones")
struct TravelTests {
    @Test func berlinToTokyoToNewYorkAnnouncesEachLocalDoseOnce() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "Europe/Berlin")
        try await daemon.add("Insulin", ["daily": true, "at": "08:00"])
        try await daemon.add("Pinned", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin")
        await daemon.advance(to: instant("2026-12-02T01:00:00Z"))  // Berlin's 08:00 on the 1st: announced
        // Landed, and the change seen at Tokyo 10:00 on the 2nd: Tokyo's 08:00 on the 2nd passed, Berlin's had not
        // come. It is due at once (late), not lost.
        await daemon.setSystemZone("Asia/Tokyo")
        #expect(daemon.announcer.messages.last == "Following Asia/Tokyo now (was Europe/Berlin): 2 reminders move to local time; Pinned stays at 08:00 Europe/Berlin, which is 16:00 here")
        await daemon.advance(to: instant("2026-12-04T10:00:00Z"))  // Tokyo's 2nd, 3rd and 4th
        await daemon.setSystemZone("America/New_York")  // flew west: New York 05:00 on the 4th, whose 08:00 was Tokyo's
        await daemon.advance(to: instant("2026-12-05T14:00:00Z"))  // New York's 5th
        let insulin = daemon.firings(of: "Insulin").filter(\.kind.reachesThePerson).map(\.scheduled)
        #expect(insulin == [
            instant("2026-12-01T07:00:00Z"), instant("2026-12-01T23:00:00Z"), instant("2026-12-02T23:00:00Z"), instant("2026-12-03T23:00:00Z"),
            instant("2026-12-05T13:00:00Z"),
        ], "Berlin's 1st, Tokyo's 2nd-4th, New York's 5th: New York's 4th not again")
        let skipped = try await daemon.history(of: "Insulin").filter { $0.kind == "skipped" }
        #expect(Set(skipped.map(\.scheduledUtc)) == ["2026-12-04T13:00:00Z"], "the skip, and its slot's record when it came")
        #expect(skipped.allSatisfy { $0.detail?.contains("announced in Asia/Tokyo before the zone changed") == true }, "\(skipped)")
        let berlin = try TimeZoneDatabase().rules(named: "Europe/Berlin")
        let pinned = daemon.firings(of: "Pinned").filter(\.kind.reachesThePerson).map { berlin.localDateTime(at: $0.scheduled).description }
        #expect(pinned == (1...5).map { "2026-12-0\($0)T08:00:00" }, "Berlin's 08:00 each day, wherever the machine is")
    }

    /// The machine flew east while off: at the start in Tokyo, Tokyo's 08:00 of a day Berlin had not reached yet
    /// is due (announced once, late), not lost; a restart after that does not announce it again.
    @Test func aZoneChangedWhileNotRunningIsFollowedAtTheStart() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T07:30:00Z"), systemZone: "Europe/Berlin")
        try await daemon.add("Insulin", ["daily": true, "at": "08:00"])
        await daemon.advance(to: instant("2026-12-02T07:30:00Z"))  // Berlin's 08:00 on the 2nd: announced
        daemon.clock.setSystemZone("Asia/Tokyo")
        daemon.clock.set(instant("2026-12-03T03:00:00Z"))  // Tokyo, noon on the 3rd: its 08:00 passed while off
        try await daemon.restart()
        #expect(daemon.announcer.messages.contains("Following Asia/Tokyo now (was Europe/Berlin): 2 reminders move to local time"))
        let late = daemon.firings(of: "Insulin").filter(\.kind.reachesThePerson).map(\.scheduled)
        #expect(late == [instant("2026-12-02T07:00:00Z"), instant("2026-12-02T23:00:00Z")], "Tokyo's 3rd announced, late")
        try await daemon.restart()
        #expect(daemon.firings(of: "Insulin").filter(\.kind.reachesThePerson).count == 2, "and not again")
    }
}
