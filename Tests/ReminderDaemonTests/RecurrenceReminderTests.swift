import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Reminders whose rule is an RFC 5545 RRULE (`add NAME --rrule ... --start ...`) or a systemd calendar
/// expression (`add NAME --on-calendar ...`), on a manual clock.
@Suite("RRULE and OnCalendar reminders")
struct RecurrenceReminderTests {
    /// "The last weekday of the month", which remindd's own flags cannot say: stored, listed in words, and
    /// fired at each instance the rule gives, in the reminder's zone.
    @Test func aLastWeekdayOfTheMonthReminderFiresOnThoseDaysOnly() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T00:00:00Z"))
        let added = try await daemon.add(
            "Rent", ["rrule": "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "start": "2026-12-31T09:00"], timeZone: "Europe/Berlin")
        #expect(added.summary == "the last weekday of the month at 09:00")
        #expect(added.next?.local == "2026-12-31T09:00:00+01:00")
        #expect(added.next?.slot == "reminder-\(added.id)-r20261231-09-00")

        await daemon.advance(to: instant("2027-06-01T00:00:00Z"))
        // 31 Dec (Thu), 29 Jan (Fri), 26 Feb (Fri), 31 Mar (Wed, summer time from 28 Mar), 30 Apr (Fri), 31 May (Mon).
        let expected = ["2026-12-31T08:00:00Z", "2027-01-29T08:00:00Z", "2027-02-26T08:00:00Z", "2027-03-31T07:00:00Z", "2027-04-30T07:00:00Z",
                        "2027-05-31T07:00:00Z"].map(instant)
        #expect(daemon.firings(of: "Rent").map(\.scheduled) == expected)
        #expect(daemon.firings(of: "Rent").allSatisfy { $0.kind == .fired || $0.kind == .suppressed })
    }

    /// COUNT counts from DTSTART: the reminder ends after its last instance and says so.
    @Test func aRuleWithACountEndsAfterItsLastInstance() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T00:00:00Z"))
        try await daemon.add("Antibiotic", ["rrule": "FREQ=HOURLY;INTERVAL=8;COUNT=4", "start": "2026-12-01T08:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-12-05T00:00:00Z"))
        #expect(daemon.firings(of: "Antibiotic").map(\.scheduled)
            == ["2026-12-01T08:00:00Z", "2026-12-01T16:00:00Z", "2026-12-02T00:00:00Z", "2026-12-02T08:00:00Z"].map(instant))
        let listed = try await daemon.call(Reminders.Get.self, .init(reminder: "Antibiotic")).reminder
        #expect(listed.next == nil)
    }

    /// `update --rrule` replaces the rule and keeps the start; the next firing follows the new rule at once.
    @Test func updatingTheRuleReplansTheNextFiring() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T00:00:00Z"))
        let added = try await daemon.add("Walk", ["rrule": "FREQ=WEEKLY;BYDAY=MO", "start": "2026-12-07T18:00"], timeZone: "UTC")
        #expect(added.next?.utc == "2026-12-07T18:00:00Z")
        let updated = try await daemon.call(
            "Update", ["reminder": "Walk", "rule": .object(["rrule": "FREQ=DAILY;INTERVAL=2", "start": "2026-12-02T07:00"])], as: [String: ReminderValue].self)["reminder"]!
        #expect(updated.summary == "every 2 days at 07:00 from 2026-12-02")
        #expect(updated.next?.utc == "2026-12-02T07:00:00Z")
        await daemon.advance(to: instant("2026-12-06T12:00:00Z"))
        #expect(daemon.firings(of: "Walk").map(\.scheduled) == ["2026-12-02T07:00:00Z", "2026-12-04T07:00:00Z", "2026-12-06T07:00:00Z"].map(instant))
    }

    /// A bad rule is refused with what is wrong, and nothing is added.
    @Test(arguments: [
        ("FREQ=DAILY;FOO=1", "unknown part 'FOO'"),
        ("FREQ=DAILY;FREQ=WEEKLY", "FREQ is given twice"),
        ("FREQ=MONTHLY;BYSETPOS=-1", "BYSETPOS needs another BY part"),
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL=0 is not a whole number"),
        ("FREQ=DAILY;COUNT=3;UNTIL=20270101", "COUNT and UNTIL cannot both be given"),
        ("FREQ=DAILY;COUNT=1234567890123456789012345", "COUNT=1234567890123456789012345 is not a whole number"),
    ])
    func aBadRuleIsRefusedAndNothingIsAdded(_ rule: String, _ message: String) async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T00:00:00Z"))
        let error = await #expect(throws: VarlinkError.self) {
            try await daemon.add("Bad", ["rrule": .string(rule), "start": "2026-12-01T09:00"], timeZone: "UTC")
        }
        #expect(error.map { "\($0)".contains(message) } == true, "\(String(describing: error))")
        let listed = try await daemon.call(Reminders.List.self, .init()).reminders
        #expect(!listed.contains { $0.name == "Bad" })
    }

    /// `--on-calendar` with a zone at its end: the zone is the reminder's; another --tz with it is refused.
    @Test func aCalendarExpressionsZoneIsTheReminders() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T00:00:00Z"))
        let added = try await daemon.add("Plants", ["onCalendar": "Sat 10:00 Europe/Berlin"])
        #expect(added.timeZone == "Europe/Berlin")
        #expect(added.summary == "on calendar Sat *-*-* 10:00:00 Europe/Berlin")
        #expect(added.next?.local == "2026-12-05T10:00:00+01:00")
        #expect(added.next?.slot == "reminder-\(added.id)-c20261205-10-00")
        await daemon.advance(to: instant("2026-12-13T00:00:00Z"))
        #expect(daemon.firings(of: "Plants").map(\.scheduled) == ["2026-12-05T09:00:00Z", "2026-12-12T09:00:00Z"].map(instant))

        let error = await #expect(throws: VarlinkError.self) {
            try await daemon.add("Clash", ["onCalendar": "Sat 10:00 Europe/Berlin"], timeZone: "Asia/Tokyo")
        }
        #expect(error.map { "\($0)".contains("names the zone Europe/Berlin but the time zone given is Asia/Tokyo") } == true)
    }
}
