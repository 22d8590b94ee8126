import ReminderCore
import Testing

/// `--rrule` with a date for `--start`: its DTSTART is a DATE, and RFC 5545 (3.3.10) says the rule's BYSECOND,
/// BYMINUTE and BYHOUR are then ignored; with a date-time they count as ever.
@Suite struct DateOnlyStartTests {
    static let utc = TimeZoneRules(identifier: "UTC", fixedOffset: 0)

    static func firings(_ spec: RuleSpec, count: Int) throws -> [String] {
        let rule = try spec.makeRule()
        var after = Instant(secondsSinceEpoch: 0)
        var found: [String] = []
        while found.count < count, let next = rule.nextOccurrence(after: after, in: utc) {
            found.append("\(next.scheduledDate)T\(next.scheduledTime)")
            after = next.instant
        }
        return found
    }

    @Test func aDateStartIgnoresTheTimeParts() throws {
        let spec = RuleSpec(start: "2024-10-18", rrule: "FREQ=DAILY;BYMINUTE=1,2,3,4;INTERVAL=2;COUNT=3")
        #expect(try Self.firings(spec, count: 5) == ["2024-10-18T00:00", "2024-10-20T00:00", "2024-10-22T00:00"])
    }

    @Test func aDateTimeStartKeepsThem() throws {
        let spec = RuleSpec(start: "2024-10-18T00:00", rrule: "FREQ=DAILY;BYMINUTE=1,2;INTERVAL=2;COUNT=3")
        #expect(try Self.firings(spec, count: 5) == ["2024-10-18T00:00", "2024-10-18T00:01", "2024-10-18T00:02"])
    }
}
