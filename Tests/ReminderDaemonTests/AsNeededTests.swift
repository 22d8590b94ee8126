import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon

/// A medication taken as needed (ibuprofen: at least 6 hours apart, at most 3 in 24 hours): never announced,
/// a dose too soon or one too many refused with when the next is allowed, logged anyway with --force (and
/// marked), and where it stands shown with today's occurrences and the next firings.
@Suite("Medication: as needed")
struct AsNeededTests {
    @Test func aDoseTooSoonOrOneTooManyIsRefusedWithWhenTheNextIsAllowedAndForceLogsIt() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        let added = try await daemon.add(
            "Ibuprofen", ["asNeeded": true], ["dose": "400", "unit": "mg", "minInterval": "6h", "maxPerDay": .number(3)])
        #expect(added.summary == "as needed" && added.next == nil)
        #expect(added.delivery.medication.minIntervalSeconds == 6 * 3600 && added.delivery.medication.maxPerDay == 3)
        func done(force: Bool? = nil) async throws -> IntakeValue {
            try await daemon.call(Reminders.Done.self, .init(reminder: "Ibuprofen", force: force)).log
        }

        await daemon.advance(to: instant("2026-12-01T09:10:00Z"))
        #expect(try await done().amount == 400, "done is a dose now: nothing is ever due")
        await daemon.advance(to: instant("2026-12-01T15:09:59Z"))
        let early = await refusal { _ = try await done() }
        #expect(early?.name == "io.remindd.Reminders.DoseNotAllowed")
        #expect(early?.string("allowedFromUtc") == "2026-12-01T15:10:00Z")
        #expect(early?.string("message") == "Ibuprofen: the last dose was at 09:10 (at least 6h apart); the next is allowed from 15:10; --force to log it anyway")
        await daemon.advance(to: instant("2026-12-01T15:10:00Z"))
        #expect(try await done().forced == nil, "allowed from its boundary second")
        // The third at 21:10; a fourth the next morning is one too many in 24 hours.
        await daemon.advance(to: instant("2026-12-01T21:10:00Z"))
        _ = try await done()
        await daemon.advance(to: instant("2026-12-02T08:00:00Z"))
        let many = await refusal { _ = try await done() }
        #expect(many?.string("allowedFromUtc") == "2026-12-02T09:10:00Z")
        #expect(many?.string("message")?.hasPrefix("Ibuprofen: it would be dose 4 in the 24 hours from yesterday 09:10 (at most 3)") == true)
        // Where it stands: today's occurrences and the next firings say when, and how many are left.
        let today = try #require(try await daemon.call(Reminders.Occurrences.self, .init(date: "2026-12-02")).asNeeded?.first)
        #expect(today.allowedFromUtc == "2026-12-02T09:10:00Z" && !today.allowedNow && today.leftInADay == 0)
        #expect(today.lastDoseUtc == "2026-12-01T21:10:00Z" && today.dose == 400 && today.unit == "mg")
        #expect(try await daemon.call(Reminders.Next.self, .init(count: 5)).asNeeded == [today])
        #expect(try await daemon.call(Reminders.Occurrences.self, .init(date: "2026-12-01")).asNeeded == nil, "another day: not said")

        // Forced: logged and marked; a log at a past time is checked against the doses on both sides.
        let forced = try await done(force: true)
        #expect(forced.forced == true)
        let backdated = await refusal { try await daemon.log("Ibuprofen", at: "2026-12-01T18:00") }
        #expect(backdated?.string("message")?.hasPrefix("Ibuprofen: the last dose was at yesterday 15:10 (at least 6h apart)") == true)
        let beforeAnother = await refusal { try await daemon.log("Ibuprofen", at: "2026-12-01T20:00") }
        #expect(beforeAnother?.string("message")?.hasPrefix("Ibuprofen: another dose was logged at yesterday 21:10") == true)
        let listed = try await daemon.call(Reminders.Logs.self, .init(date: "2026-12-02")).logs
        #expect(listed.map(\.forced) == [true])

        // Two days on: never announced, never missed.
        await daemon.advance(to: instant("2026-12-04T08:00:00Z"))
        #expect(daemon.firings(of: "Ibuprofen").isEmpty && daemon.announcer.occurrences.isEmpty)
    }

    /// #57 item 6: the doctor's PDF left the as-needed painkiller off page 1, and its doses forced past the limits
    /// appeared nowhere (`history` showed them as plain logs). The report now says, for each medication taken as
    /// needed, its doses in the period and its limits, and every forced dose with the limit it broke; page 1
    /// holds both.
    @Test func theReportsFirstPageListsAsNeededDosesAndEveryForcedOne() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        _ = try await daemon.add("Ibuprofen", ["asNeeded": true], ["dose": "400", "unit": "mg", "minInterval": "6h", "maxPerDay": .number(3)])
        _ = try await daemon.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "UTC", ["dose": "500", "unit": "mg"])
        for (at, force) in [("2026-12-01T07:00:00Z", false), ("2026-12-01T09:00:00Z", true), ("2026-12-01T15:00:00Z", false),
                            ("2026-12-01T21:00:00Z", true), ("2026-12-01T23:30:00Z", true)] {
            await daemon.advance(to: instant(at))
            _ = try await daemon.call(Reminders.Done.self, .init(reminder: "Ibuprofen", force: force))
        }
        await daemon.advance(to: instant("2026-12-02T12:00:00Z"))
        let report = try await daemon.call(Reminders.Report.self, .init(from: "2026-12-01", to: "2026-12-02"))
        let ibuprofen = try #require(report.medications?.first { $0.reminderName == "Ibuprofen" })
        #expect(ibuprofen.asNeededDoses == 5 && ibuprofen.minIntervalSeconds == 6 * 3600 && ibuprofen.maxPerDay == 3)
        #expect(ibuprofen.forcedDoses == [
            .init(at: "2026-12-01T09:00:00+00:00", limit: "minInterval", other: "2026-12-01T07:00:00+00:00"),
            .init(at: "2026-12-01T21:00:00+00:00", limit: "maxPerDay", other: "2026-12-01T07:00:00+00:00", count: 4),
            .init(at: "2026-12-01T23:30:00+00:00", limit: "maxPerDay", other: "2026-12-01T07:00:00+00:00", count: 5),
        ])
        #expect(report.medications?.first { $0.reminderName == "Metformin" }?.asNeededDoses == nil, "scheduled: counted in the adherence")
        #expect(!report.reminders.contains { $0.reminderName == "Ibuprofen" }, "nothing is due of it")
    }

    @Test func badLimitsAndAScheduleWithAsNeededAreRefusedWithWhatToWrite() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        func message(_ rule: Rule, _ extra: [String: JSONValue]) async -> String? {
            do {
                _ = try await daemon.add("Ibuprofen", rule, extra)
                return nil
            } catch {
                return (error as? VarlinkError)?.string("message")
            }
        }
        #expect(await message(["asNeeded": true, "at": "08:00"], [:])?.contains("--as-needed has no schedule") == true)
        #expect(await message(["asNeeded": true, "daily": true, "at": "08:00"], [:])?.contains("cannot be combined") == true)
        #expect(await message(["asNeeded": true], ["minInterval": "30s"])?.contains("1m to 7d") == true)
        #expect(await message(["asNeeded": true], ["minInterval": "8d"])?.contains("1m to 7d") == true)
        #expect(await message(["asNeeded": true], ["maxPerDay": .number(101)])?.contains("1 to 100") == true)
        #expect(try await daemon.call(Reminders.List.self, .init()).reminders.allSatisfy { $0.name != "Ibuprofen" }, "nothing added")
        // Limits on a scheduled medication keep a second dose from being logged too soon too.
        _ = try await daemon.add("Pills", ["daily": true, "at": "08:00"], ["minInterval": "4h"])
        try await daemon.log("Pills", at: "05:00")
        await #expect { try await daemon.log("Pills") } throws: { ($0 as? VarlinkError)?.name == "io.remindd.Reminders.DoseNotAllowed" }
        let cleared = try await daemon.call(Reminders.Update.self, .init(reminder: "Pills", delivery: .init(medication: .init(minInterval: ""))))
        #expect(cleared.reminder.delivery.medication.minIntervalSeconds == nil)
        try await daemon.log("Pills")
    }
}
