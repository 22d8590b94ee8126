import ReminderCore
import ReminderScheduling
import TimeZoneDatabase
import Testing

/// The notices before occurrences (`--before`) as values: when each comes, in real minutes, and which lengths a
/// rule allows.
@Suite("Notices before occurrences")
struct HeadsUpPlanTests {
    func at(_ text: String) -> Instant {
        let parsed = ISO8601.parseInstant(text)!
        return Instant(secondsSinceEpoch: parsed.local.localSeconds - Int64(parsed.offsetSeconds ?? 0))
    }

    func reminder(_ spec: RuleSpec, before: [Int], zone: TimeZoneRules = TimeZoneRules(identifier: "UTC", fixedOffset: 0)) throws -> SchedulableReminder {
        var delivery = Delivery()
        delivery.notification.beforeMinutes = before
        return SchedulableReminder(id: 1, name: "Metformin", rule: try spec.makeRule(), zone: zone, delivery: delivery)
    }

    @Test func eachLengthBeforeEachOccurrenceInOrder() throws {
        var plan = HeadsUpPlan()
        plan.plan(try reminder(RuleSpec(daily: true, at: "08:00"), before: [15, 60]), after: at("2026-03-02T06:00:00Z"))
        #expect(plan.nextDeadline() == at("2026-03-02T07:00:00Z"))
        #expect(plan.takeDue(now: at("2026-03-02T06:59:59Z")).isEmpty)
        let hour = plan.takeDue(now: at("2026-03-02T07:00:00Z"))
        #expect(hour.map(\.minutesBefore) == [60] && hour.first?.occurrence.instant == at("2026-03-02T08:00:00Z"))
        #expect(plan.nextDeadline() == at("2026-03-02T07:45:00Z"))
        #expect(plan.takeDue(now: at("2026-03-02T07:45:00Z")).map(\.minutesBefore) == [15])
        #expect(plan.nextDeadline() == at("2026-03-03T07:00:00Z"), "then the next day's")
    }

    @Test func aNoticeWhoseTimeHasPassedIsNotGiven() throws {
        var plan = HeadsUpPlan()
        plan.plan(try reminder(RuleSpec(daily: true, at: "08:00"), before: [15]), after: at("2026-03-02T07:50:00Z"))
        #expect(plan.nextDeadline() == at("2026-03-03T07:45:00Z"))
    }

    /// New York springs forward at 02:00 on 2026-03-08: 15 minutes before 03:05 EDT is 01:50 EST, 15 real minutes
    /// (the wall clock's 02:50 does not exist that day).
    @Test func acrossADSTChangeItIsRealMinutesBefore() throws {
        let newYork = try TimeZoneDatabase().rules(named: "America/New_York")
        let notice = try #require(HeadsUpPlan.next(of: try reminder(RuleSpec(daily: true, at: "03:05"), before: [15], zone: newYork), after: at("2026-03-08T00:00:00-05:00")))
        #expect(notice.occurrence.instant == at("2026-03-08T03:05:00-04:00"))
        #expect(notice.at == at("2026-03-08T01:50:00-05:00"))
        #expect(notice.occurrence.instant.secondsSinceEpoch - notice.at.secondsSinceEpoch == 15 * 60)
    }

    @Test func aRemovedOrChangedReminderKeepsNoNotice() throws {
        var plan = HeadsUpPlan()
        plan.plan(try reminder(RuleSpec(daily: true, at: "08:00"), before: [15]), after: at("2026-03-02T06:00:00Z"))
        plan.plan(try reminder(RuleSpec(daily: true, at: "09:00"), before: [15]), after: at("2026-03-02T06:00:00Z"))
        #expect(plan.takeDue(now: at("2026-03-02T08:00:00Z")).isEmpty, "the 07:45 notice went with the change")
        plan.remove(id: 1)
        #expect(plan.nextDeadline() == nil)
        plan.plan(try reminder(RuleSpec(daily: true, at: "09:00"), before: []), after: at("2026-03-02T06:00:00Z"))
        #expect(plan.nextDeadline() == nil)
    }

    @Test func aNoticeMustComeAfterTheOccurrenceBefore() throws {
        let hourly = try RuleSpec(daily: true, at: "08:00,09:00,10:00").makeRule()
        let utc = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        let now = at("2026-03-02T06:00:00Z")
        #expect(ReminderDefinition.beforeProblem(beforeMinutes: [15, 59], rule: hourly, zone: utc, now: now) == nil)
        let problem = try #require(ReminderDefinition.beforeProblem(beforeMinutes: [60], rule: hourly, zone: utc, now: now))
        #expect(problem.contains("1h apart") && problem.contains("less than"), "\(problem)")
        let once = try RuleSpec(once: "2026-03-05T08:00").makeRule()
        #expect(ReminderDefinition.beforeProblem(beforeMinutes: [10080], rule: once, zone: utc, now: now) == nil, "a one-off has no occurrence before")
    }
}
