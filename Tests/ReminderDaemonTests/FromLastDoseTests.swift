import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon

/// `--every 8h --from-last-dose` (an antibiotic): each occurrence 8 hours after the last dose logged; a late
/// dose moves the next one, a missed one keeps the clock, an early one brings it forward, a deleted one puts it
/// back, and a restart keeps it.
@Suite("Medication: from the last dose")
struct FromLastDoseTests {
    @Test func eachOccurrenceComesEightHoursAfterTheLastDose() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        let added = try await daemon.add("Amoxicillin", ["every": "8h", "start": "2026-12-01T08:00", "fromLastDose": true], ["dose": "1", "unit": "capsule"])
        #expect(added.summary.hasSuffix(", counted from the last dose"))
        func next() async throws -> String? {
            try await daemon.call(Reminders.Next.self, .init(count: 5)).firings.first { $0.reminderName == "Amoxicillin" }?.utc
        }
        func fired() -> [Instant] { daemon.firings(of: "Amoxicillin").filter { $0.kind == .fired }.map(\.scheduled) }

        await daemon.advance(to: instant("2026-12-01T08:00:05Z"))
        #expect(fired() == [instant("2026-12-01T08:00:00Z")])
        // Taken 20 minutes late: the next is 8 hours after the dose, not on the 08:00 clock.
        await daemon.advance(to: instant("2026-12-01T08:20:00Z"))
        try await daemon.log("Amoxicillin")
        #expect(try await next() == "2026-12-01T16:20:00Z")
        await daemon.advance(to: instant("2026-12-01T16:00:00Z"))
        #expect(fired().count == 1, "nothing at 16:00")
        await daemon.advance(to: instant("2026-12-01T16:20:05Z"))
        #expect(fired().last == instant("2026-12-01T16:20:00Z"))
        // Not taken: missed when the next comes, 8 hours on (the clock kept), at 00:20.
        await daemon.advance(to: instant("2026-12-02T00:20:05Z"))
        #expect(fired().last == instant("2026-12-02T00:20:00Z"))
        #expect(daemon.announcer.occurrences.filter { $0.state == .missed }.map(\.firing.occurrence.instant) == [instant("2026-12-01T16:20:00Z")])
        // Taken early, at 07:50 (before the 08:20 one): the next is 15:50, and 08:20 does not come.
        await daemon.advance(to: instant("2026-12-02T07:50:00Z"))
        let early = try await daemon.call(Reminders.Log.self, .init(reminder: "Amoxicillin")).log
        #expect(try await next() == "2026-12-02T15:50:00Z")
        // The log deleted at 08:00: back to the clock of the last dose still logged (08:20, 16:20, 00:20, 08:20).
        await daemon.advance(to: instant("2026-12-02T08:00:00Z"))
        _ = try await daemon.call(Reminders.DeleteLog.self, .init(id: early.id))
        #expect(try await next() == "2026-12-02T08:20:00Z")
        // A restart keeps it: the last dose is read from the store.
        try await daemon.restart()
        #expect(try await next() == "2026-12-02T08:20:00Z")
        await daemon.advance(to: instant("2026-12-02T08:20:05Z"))
        #expect(fired() == ["2026-12-01T08:00:00Z", "2026-12-01T16:20:00Z", "2026-12-02T00:20:00Z", "2026-12-02T08:20:00Z"].map(instant))
    }

    @Test func fromTheLastDoseNeedsAnIntervalInHours() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        await #expect { try await daemon.add("X", ["daily": true, "at": "08:00", "fromLastDose": true]) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains("--from-last-dose counts hours from each dose") == true
        }
        // Counted from a dose: its next occurrence one interval after it, never before the rule's own start.
        let spec = RuleSpec(every: "8h", start: "2026-12-01T08:00", fromLastDose: true)
        let utc = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        #expect(spec.counted(fromLastDose: instant("2026-12-01T09:15:30Z"), in: utc).start == "2026-12-01T17:15:30")
        #expect(spec.counted(fromLastDose: instant("2026-11-30T09:00:00Z"), in: utc).start == "2026-12-01T08:00", "a dose before the course")
        #expect(spec.counted(fromLastDose: nil, in: utc) == spec)
    }
}
