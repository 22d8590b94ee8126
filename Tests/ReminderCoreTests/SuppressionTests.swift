import ReminderCore
import Testing

@Suite("Suppression against logged intake")
struct SuppressionTests {
    /// Whether the firing at `firing` is suppressed by `logs`, for a rule in New York.
    func isSuppressed(_ spec: RuleSpec, firing: String, logs: [String]) throws -> Bool {
        let ny = try zone("America/New_York")
        let rule = try spec.makeRule()
        let target = instant(firing)
        let occurrence = try #require(rule.nextOccurrence(after: target.adding(seconds: -1), in: ny))
        #expect(occurrence.instant == target, "the test's firing must be a real firing of the rule")
        return rule.suppression(of: occurrence, logs: logs.map(instant), in: ny) != .fire
    }

    let daily = RuleSpec(daily: true, at: "08:00")
    let weekly = RuleSpec(weekly: "mon", at: "09:00")
    let monthly = RuleSpec(monthly: "15", at: "10:00")
    let twice = RuleSpec(daily: true, at: "08:00,20:00")

    @Test func dailyLoggedBefore() throws {
        #expect(try isSuppressed(daily, firing: "2026-11-23T08:00:00-05:00", logs: ["2026-11-23T07:45:00-05:00"]))
        #expect(try isSuppressed(daily, firing: "2026-11-23T08:00:00-05:00", logs: ["2026-11-23T08:00:00-05:00"]))
    }

    @Test func dailyLoggedAfter() throws {
        #expect(try !isSuppressed(daily, firing: "2026-11-23T08:00:00-05:00", logs: ["2026-11-23T08:15:00-05:00"]))
        #expect(try !isSuppressed(daily, firing: "2026-11-23T08:00:00-05:00", logs: ["2026-11-22T07:45:00-05:00"]))
    }

    @Test func weeklyMonday() throws {
        #expect(try isSuppressed(weekly, firing: "2026-11-23T09:00:00-05:00", logs: ["2026-11-23T08:30:00-05:00"]))
        #expect(try !isSuppressed(weekly, firing: "2026-11-23T09:00:00-05:00", logs: ["2026-11-24T09:00:00-05:00"]))
        #expect(try !isSuppressed(weekly, firing: "2026-11-23T09:00:00-05:00", logs: ["2026-11-16T08:30:00-05:00"]))
    }

    @Test func monthlyFifteenth() throws {
        #expect(try isSuppressed(monthly, firing: "2026-12-15T10:00:00-05:00", logs: ["2026-12-15T09:00:00-05:00"]))
        #expect(try !isSuppressed(monthly, firing: "2026-12-15T10:00:00-05:00", logs: ["2026-12-14T09:00:00-05:00"]))
        #expect(try !isSuppressed(monthly, firing: "2026-12-15T10:00:00-05:00", logs: ["2026-11-15T09:00:00-05:00"]))
    }

    @Test func twiceADayCountsLogsPerOccurrence() throws {
        let morning = "2026-11-23T08:00:00-05:00"
        let evening = "2026-11-23T20:00:00-05:00"
        let early = ["2026-11-23T07:45:00-05:00"]
        #expect(try isSuppressed(twice, firing: morning, logs: early))
        #expect(try !isSuppressed(twice, firing: evening, logs: early))
        let both = ["2026-11-23T07:45:00-05:00", "2026-11-23T15:00:00-05:00"]
        #expect(try isSuppressed(twice, firing: morning, logs: both))
        #expect(try isSuppressed(twice, firing: evening, logs: both))
        let late = ["2026-11-23T08:15:00-05:00"]
        #expect(try !isSuppressed(twice, firing: morning, logs: late))
        #expect(try !isSuppressed(twice, firing: evening, logs: late))
    }

    @Test func reasonNamesTheCount() throws {
        let ny = try zone("America/New_York")
        let rule = try daily.makeRule()
        let occurrence = try #require(rule.nextOccurrence(after: instant("2026-11-23T00:00:00-05:00"), in: ny))
        let decision = rule.suppression(of: occurrence, logs: [instant("2026-11-23T07:45:00-05:00")], in: ny)
        #expect(decision == .suppressed(ordinal: 1, logged: 1))
        #expect(decision.reason == "already logged 1 time today, covering occurrence 1 of the day")
    }
}
