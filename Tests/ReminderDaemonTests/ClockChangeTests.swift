import Foundation
import ReminderCore
import ReminderInterface
import Testing
import TimeZoneDatabase

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Clock jumps, suspend, zone changes and DST days, on a manual clock: every slot once, none twice.
@Suite("Clock changes, suspend, zones and DST")
struct ClockChangeTests {
    @Test func clockSetForwardADayThenBackAnHour() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00,12:00,18:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T08:30:00Z"))

        // Forward a day: the three slots passed in the jump fire once, late, as one with the count.
        await daemon.setClock(to: instant("2026-03-03T08:30:00Z"))
        var firings = daemon.firings(of: "Pills")
        #expect(firings.map(\.kind) == [.fired, .late])
        #expect(firings.last?.firing.slotsDue == 3)
        #expect(firings.last?.scheduled == instant("2026-03-03T08:00:00Z"))
        #expect(firings.last?.firing.lateSeconds == Int64(1800))

        // Back an hour: 08:00 is in the future again; it fires again at 08:00, and the record says why.
        await daemon.setClock(to: instant("2026-03-03T07:30:00Z"))
        #expect(daemon.announcer.events.contains(.daemon(DaemonMessage(
            .notice, "The clock is now before the last firing handled: 1 reminder planned again from 2026-03-03T07:30:00Z; their slots after now fire again"))))
        await daemon.advance(to: instant("2026-03-03T12:00:00Z"))
        firings = daemon.firings(of: "Pills")
        #expect(firings.map(\.kind) == [.fired, .late, .fired, .fired])
        #expect(firings.map(\.replanned) == [false, false, true, false])
        #expect(firings[2].scheduled == instant("2026-03-03T08:00:00Z"))
        #expect(firings[2].handledAt == instant("2026-03-03T08:00:00Z"))
        #expect(firings[3].handledAt == instant("2026-03-03T12:00:00Z"))
        let history = try await daemon.history(of: "Pills").filter { $0.scheduledUtc == "2026-03-03T08:00:00Z" }
        #expect(history.map(\.kind) == ["fired", "late", "missed"])  // missed when the 12:00 occurrence came
        #expect(history.map(\.replanned) == [true, false, false])
    }

    /// The case: one run with the clock three days ahead, then the clock corrected before a restart.
    /// Nothing stays silenced: every slot of the three days fires at its instant.
    @Test func aClockThatWasAheadSilencesNothingOnceCorrected() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "09:00"], timeZone: "UTC")
        await daemon.setClock(to: instant("2026-03-05T07:00:00Z"))
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.late])

        daemon.clock.set(instant("2026-03-02T07:00:00Z"))
        try await daemon.restart()
        #expect(daemon.clock.wakeUp == instant("2026-03-02T09:00:00Z"))
        await daemon.advance(to: instant("2026-03-05T10:00:00Z"))
        let again = daemon.firings(of: "Pills").dropFirst()
        #expect(again.map(\.scheduled) == ["02", "03", "04", "05"].map { instant("2026-03-\($0)T09:00:00Z") })
        #expect(again.allSatisfy { $0.kind == .fired && $0.handledAt == $0.scheduled })
        // 03-04 09:00 was the slot of the late firing: its second record is the re-planned one.
        #expect(again.map(\.replanned) == [false, false, true, false])
    }

    /// A tzdata update changes a zone's rules while the daemon runs: told by its watch on the zone files, the
    /// daemon reads the zone again and the reminder fires by the new rules, once; the old instant stays silent.
    @Test func aTzdataUpdateWhileRunningReplansByTheNewRules() async throws {
        let zoneinfo = FileManager.default.temporaryDirectory.appendingPathComponent("zoneinfo-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: zoneinfo) }
        try FileManager.default.createDirectory(atPath: zoneinfo + "/Europe", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/UTC", toPath: zoneinfo + "/UTC")
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Europe/Berlin", toPath: zoneinfo + "/Europe/Berlin")
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"), zones: TimeZoneDatabase(directory: zoneinfo))
        try await daemon.add("Pills", ["daily": true, "at": "09:00"], timeZone: "Europe/Berlin")
        #expect(daemon.clock.wakeUp == instant("2026-03-02T08:00:00Z"))

        // The update: Berlin's file now holds other rules (Tokyo's, UTC+9 all year), written as dpkg does.
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Tokyo", toPath: zoneinfo + "/Europe/Berlin.dpkg-new")
        _ = rename(zoneinfo + "/Europe/Berlin.dpkg-new", zoneinfo + "/Europe/Berlin")
        await daemon.zoneFilesChanged()
        #expect(daemon.announcer.events.contains(.daemon(DaemonMessage(
            .info, "Time zone data changed (a tzdata update): 1 reminder re-planned with the new rules"))))
        #expect(daemon.clock.wakeUp == instant("2026-03-03T00:00:00Z"))

        await daemon.advance(to: instant("2026-03-04T01:00:00Z"))
        #expect(daemon.firings(of: "Pills").map(\.scheduled) == [instant("2026-03-03T00:00:00Z"), instant("2026-03-04T00:00:00Z")])
        #expect(daemon.firings(of: "Pills").allSatisfy { $0.kind == .fired })
    }

    @Test func suspendPastSeveralSlotsFiresOnceLateOnResume() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00,12:00"], timeZone: "UTC")
        // The machine sleeps at 07:00; the timer could not fire at 08:00 or 12:00; it fires once on resume.
        await daemon.resume(at: instant("2026-03-02T13:00:00Z"))
        let firings = daemon.firings(of: "Pills")
        #expect(firings.count == 1)
        #expect(firings.first?.kind == .late)
        #expect(firings.first?.firing.slotsDue == 2)
        #expect(firings.first?.scheduled == instant("2026-03-02T12:00:00Z"))
        #expect(firings.first?.firing.lateSeconds == Int64(3600))
        #expect(daemon.clock.wakeUp == instant("2026-03-03T00:00:00Z"))  // the 12:00 occurrence's window closes
    }

    @Test func aShortSuspendWithinTheToleranceStillCountsAsOnTime() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        await daemon.resume(at: instant("2026-03-02T08:00:30Z"))
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.fired])
        #expect(daemon.firings(of: "Pills").first?.firing.lateSeconds == Int64(30))
    }

    @Test func remindersWithoutAZoneFollowTheSystemZone() async throws {
        // 2026-01-12 is in winter: Berlin is UTC+1, New York UTC-5.
        let daemon = try await TestDaemon(now: instant("2026-01-12T00:00:00Z"), systemZone: "Europe/Berlin")
        try await daemon.add("Follows", ["daily": true, "at": "09:00"])
        try await daemon.add("Pinned", ["daily": true, "at": "09:00"], timeZone: "Europe/Berlin")

        await daemon.setSystemZone("America/New_York")
        #expect(daemon.announcer.messages.suffix(2) == [
            "System time zone is now America/New_York",
            "Following America/New_York now (was Europe/Berlin): 2 reminders move to local time; Pinned stays at 09:00 Europe/Berlin, which is 03:00 here",
        ])
        let follows = try await daemon.call(Reminders.Get.self, .init(reminder: "Follows")).reminder
        #expect(follows.effectiveTimeZone == "America/New_York")
        #expect(follows.next?.utc == "2026-01-12T14:00:00Z")

        await daemon.advance(to: instant("2026-01-13T00:00:00Z"))
        #expect(daemon.firings(of: "Pinned").map(\.scheduled) == [instant("2026-01-12T08:00:00Z")])
        #expect(daemon.firings(of: "Follows").map(\.scheduled) == [instant("2026-01-12T14:00:00Z")])
        #expect(daemon.announcer.firings.allSatisfy { $0.kind == .fired })

        // A change to the same zone is not news.
        let before = daemon.announcer.events.count
        await daemon.setSystemZone("America/New_York")
        #expect(daemon.announcer.events.count == before)
    }

    /// 2026-03-29 in Berlin: 02:00 CET jumps to 03:00 CEST, so 02:30 does not exist.
    @Test func aTimeInTheDSTGapFiresOnceThatDayAtThePreviewedInstant() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-28T12:00:00Z"))
        let rule: Rule = ["daily": true, "at": "02:30"]
        try await daemon.add("Night", rule, timeZone: "Europe/Berlin")
        let expected = try await daemon.preview(rule, timeZone: "Europe/Berlin", after: instant("2026-03-28T12:00:00Z"), count: 2)
        await daemon.advance(to: instant("2026-03-30T12:00:00Z"))
        let firings = daemon.firings(of: "Night")
        #expect(firings.map(\.scheduled) == expected)
        #expect(firings.allSatisfy { $0.kind == .fired && $0.handledAt == $0.scheduled })
        // The README's rule: shifted forward by the gap, 03:30 CEST.
        #expect(firings.first?.scheduled == instant("2026-03-29T03:30:00+02:00"))
    }

    /// 2026-10-25 in Berlin: 03:00 CEST falls back to 02:00 CET, so 02:30 happens twice.
    @Test func aTimeInTheDSTOverlapFiresOnceAtTheFirstOccurrence() async throws {
        let daemon = try await TestDaemon(now: instant("2026-10-24T12:00:00Z"))
        try await daemon.add("Night", ["daily": true, "at": "02:30"], timeZone: "Europe/Berlin")
        await daemon.advance(to: instant("2026-10-26T00:00:00Z"))
        let firings = daemon.firings(of: "Night")
        #expect(firings.map(\.scheduled) == [instant("2026-10-25T02:30:00+02:00")])
        #expect(firings.first?.kind == .fired)
    }

    @Test func aRestartInsideTheRepeatedHourDoesNotFireAgain() async throws {
        let daemon = try await TestDaemon(now: instant("2026-10-25T00:00:00Z"))
        try await daemon.add("Night", ["daily": true, "at": "02:30"], timeZone: "Europe/Berlin")
        await daemon.advance(to: instant("2026-10-25T00:45:00Z"))  // 02:45 CEST, after the firing
        #expect(daemon.firings(of: "Night").count == 1)
        // 02:15 CET, the second time through 02:00-03:00: restart (kill -9 and start) and let the hour pass.
        await daemon.advance(to: instant("2026-10-25T01:15:00Z"))
        try await daemon.restart()
        await daemon.advance(to: instant("2026-10-25T03:00:00Z"))
        #expect(daemon.firings(of: "Night").count == 1)
        let night = try await daemon.call(Reminders.Get.self, .init(reminder: "Night")).reminder
        #expect(night.next?.utc == "2026-10-26T01:30:00Z")
    }
}
