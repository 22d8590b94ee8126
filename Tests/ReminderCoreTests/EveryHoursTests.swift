import ReminderCore
import Testing

/// `--every 8h`, `30m`, `2h30m`: interval dosing from `--start`, on the wall clock.
@Suite("--every in hours and minutes")
struct EveryHoursTests {
    /// 08:00, 16:00, 00:00 stay so across the spring change (the interval over it is 7 hours of elapsed time).
    @Test func everyEightHoursKeepsItsClockTimesAcrossADSTChange() throws {
        let spec = RuleSpec(every: "8h", start: "2027-03-27T08:00")
        #expect(try firings(spec, zone: "Europe/Berlin", after: "2027-03-27T00:00:00+01:00", count: 6) == [
            "2027-03-27T08:00:00+01:00", "2027-03-27T16:00:00+01:00", "2027-03-28T00:00:00+01:00",
            "2027-03-28T08:00:00+02:00", "2027-03-28T16:00:00+02:00", "2027-03-29T00:00:00+02:00",
        ])
        #expect(try spec.makeRule().summary == "every 8 hours from 2027-03-27 08:00")
    }

    @Test func hoursAndMinutesTogether() throws {
        let spec = RuleSpec(every: "2h30m", start: "2026-12-01T08:00")
        #expect(try firings(spec, zone: "UTC", after: "2026-12-01T00:00:00Z", count: 3) == [
            "2026-12-01T08:00:00+00:00", "2026-12-01T10:30:00+00:00", "2026-12-01T13:00:00+00:00",
        ])
        #expect(try spec.makeRule().summary == "every 2h30m from 2026-12-01 08:00")
        #expect(try RuleSpec(every: "30m", start: "2026-12-01T08:00").makeRule().summary == "every 30 minutes from 2026-12-01 08:00")
    }

    @Test(arguments: [
        (RuleSpec(every: "5m", start: "2026-12-01T08:00"), "from 10m up"),
        (RuleSpec(every: "90s", start: "2026-12-01T08:00"), "from 10m up"),
        (RuleSpec(every: "8x", start: "2026-12-01T08:00"), "invalid --every '8x'"),
        (RuleSpec(every: "8h", at: "09:00", start: "2026-12-01T08:00"), "counts from --start's time, without --at"),
        (RuleSpec(every: "8h", start: "2026-12-01"), "add --start 2026-12-01T08:00"),
        (RuleSpec(every: "8h"), "add --start 2026-12-01T08:00"),
    ])
    func aWrongIntervalSaysHowToWriteIt(_ spec: RuleSpec, _ message: String) {
        #expect(throws: RuleSpecError.self) { try spec.makeRule() }
        do { _ = try spec.makeRule() } catch { #expect(error.message.contains(message), "\(error.message)") }
    }

    /// `update --every 8h` on a daily reminder: the times of day go with the kind they belonged to.
    @Test func updatingADailyRuleToEveryFewHoursDropsItsTimes() throws {
        let daily = RuleSpec(daily: true, at: "08:00", start: "2026-12-01T08:00")
        let updated = daily.updated(by: RuleSpec(every: "6h"))
        #expect(updated == RuleSpec(every: "6h", start: "2026-12-01T08:00"))
        #expect(try updated.makeRule().summary == "every 6 hours from 2026-12-01 08:00")
    }
}
