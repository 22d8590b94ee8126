import ReminderCore
import ReminderInterface
import Testing

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// `remindctl add Tea --in 1s` goes as `once: "+1s"`, which the daemon makes a date-time by its own clock, the one
/// it checks the rule by. Made by remindctl (before), the date-time was refused as "in the past" whenever the call
/// reached the daemon after the caller's second had ended (CI: `--in 1s` under load).
@Suite("A one-shot given from now")
struct OnceFromNowTests {
    @Test func aLengthFromNowIsCountedFromTheDaemonsClockAndFiresThenOnce() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-02T03:45:22Z"), systemZone: "Europe/Berlin")
        let added = try await daemon.add("Tea", ["once": "+1s"])
        // Stored as the local date-time it is (what the other devices and a backup read), in the reminder's zone.
        #expect(added.rule.once == "2026-12-02T04:45:23")
        #expect(added.next?.utc == "2026-12-02T03:45:23Z")
        await daemon.advance(to: instant("2026-12-02T03:45:30Z"))
        #expect(daemon.firings(of: "Tea").map(\.scheduled) == [instant("2026-12-02T03:45:23Z")])
        #expect(daemon.firings(of: "Tea").map(\.kind) == [.fired])
        try await daemon.restart()
        await daemon.advance(to: instant("2026-12-02T04:00:00Z"))
        #expect(try await daemon.history(of: "Tea").map(\.kind) == ["fired"])
    }

    /// In the hour a zone repeats (New York's 01:00-02:00 on 1 November 2026), "in 10 minutes" is 10 minutes
    /// from now, not the first pass's 01:50, an hour ago (refused as past before), and "in 70 minutes" from 01:05
    /// EDT is 01:15 EST, not 01:15 EDT (it fired an hour early before): the reminder is given the fixed offset
    /// that reads its date-time right.
    @Test func inTheRepeatedHourALengthFromNowIsStillThatLongFromNow() async throws {
        let daemon = try await TestDaemon(now: instant("2026-11-01T05:05:00Z"), systemZone: "America/New_York")  // 01:05 EDT
        let dose = try await daemon.add("Dose", ["once": "+70m"], timeZone: "America/New_York")
        #expect(dose.next?.utc == "2026-11-01T06:15:00Z" && dose.rule.once == "2026-11-01T01:15:00" && dose.timeZone == "Etc/GMT+5")
        // Outside the repeated hour the zone stays the one given.
        let later = try await daemon.add("Later", ["once": "+2h"], timeZone: "America/New_York")
        #expect(later.next?.utc == "2026-11-01T07:05:00Z" && later.timeZone == "America/New_York")
        await daemon.advance(to: instant("2026-11-01T06:40:00Z"))  // 01:40 EST
        #expect(daemon.firings(of: "Dose").map(\.scheduled) == [instant("2026-11-01T06:15:00Z")])
        let tea = try await daemon.add("Tea", ["once": "+10m"])
        #expect(tea.next?.utc == "2026-11-01T06:50:00Z" && tea.rule.once == "2026-11-01T01:50:00" && tea.timeZone == "Etc/GMT+5")
        // What the store holds reads the same after a restart.
        try await daemon.restart()
        let again = try await daemon.call(Reminders.Get.self, .init(reminder: "Tea")).reminder
        #expect(again.next?.utc == "2026-11-01T06:50:00Z" && again.timeZone == "Etc/GMT+5")
    }

    @Test func anUpdateCountsItInTheZoneTheReminderWillHave() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-02T10:00:00Z"), systemZone: "UTC")
        try await daemon.add("Call", ["daily": true, "at": "09:00"])
        try await daemon.call("Update", ["reminder": "Call", "rule": .object(["once": "+1h30m"]), "timeZone": "Asia/Tokyo"])
        let updated = try await daemon.call(Reminders.Get.self, .init(reminder: "Call")).reminder
        #expect(updated.rule.once == "2026-12-02T20:30:00" && updated.timeZone == "Asia/Tokyo")
        #expect(updated.next?.utc == "2026-12-02T11:30:00Z")
    }

    @Test func aLengthOutsideOneSecondToAYearIsRefusedSayingHowToWriteIt() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-02T10:00:00Z"), systemZone: "UTC")
        for length in ["+0s", "+400d", "+soon", "+"] {
            let refused = await refusal { _ = try await daemon.add("Tea", ["once": .string(length)]) }
            #expect(refused?.name == "io.remindd.Reminders.InvalidRule", "\(length)")
            #expect(refused?.string("message")?.contains("write how long from now, such as 20m") == true, "\(length)")
        }
        let listed = try await daemon.call(Reminders.List.self, .init()).reminders
        #expect(!listed.contains { $0.name == "Tea" })
    }
}
