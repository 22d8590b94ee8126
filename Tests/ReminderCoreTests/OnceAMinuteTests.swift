import ReminderCore
import Testing

/// remindd fires a reminder at most once a minute: a rule that could fire twice in a minute (FREQ=SECONDLY,
/// several BYSECOND values, an OnCalendar expression with several seconds, RDATEs seconds apart) is refused with
/// one line that says what to write instead; the once-a-minute forms are taken.
@Suite struct OnceAMinuteTests {
    static func refusal(_ spec: RuleSpec) -> String? {
        do {
            _ = try spec.makeRule()
            return nil
        } catch {
            return error.message
        }
    }

    @Test(arguments: ["FREQ=SECONDLY", "FREQ=SECONDLY;INTERVAL=59", "FREQ=MINUTELY;BYSECOND=0,30", "FREQ=DAILY;BYSECOND=5,6"])
    func rulesFinerThanAMinuteAreRefused(_ rule: String) throws {
        let message = try #require(Self.refusal(RuleSpec(start: "2026-12-01T08:00", rrule: rule)))
        #expect(message.contains("at most once a minute") && message.contains("FREQ=MINUTELY"), "\(message)")
        #expect(message.contains("less than a minute apart"), "\(message)")
    }

    /// Refused by what the instances are, not by the rule's words: these never fire twice within a minute
    /// (libical's test rules; the second fires on the 1st and the 28th of each month).
    @Test(arguments: [
        "FREQ=SECONDLY;INTERVAL=60", "FREQ=SECONDLY;BYSECOND=5,25;INTERVAL=61;COUNT=2",
        "FREQ=MONTHLY;BYMONTHDAY=1,28;BYHOUR=8;BYMINUTE=0;BYSECOND=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16;BYSETPOS=1,-1;COUNT=4",
    ])
    func rulesWhoseInstancesAreAMinuteApartAreTaken(_ rule: String) throws {
        #expect(Self.refusal(RuleSpec(start: "2026-12-01T08:00:01", rrule: rule)) == nil)
    }

    @Test func theRefusalNamesTheTwoInstances() throws {
        let message = try #require(Self.refusal(RuleSpec(start: "2026-12-01T08:00", rrule: "FREQ=SECONDLY;BYSECOND=5,25;INTERVAL=5")))
        #expect(message.contains("at 2026-12-01T08:00:00 and again at 2026-12-01T08:00:05,"), "\(message)")
    }

    @Test(arguments: ["*-*-* *:*:*", "*:*:0/10", "*:*:0,30", "*-*-* 08:00:00..59"])
    func calendarExpressionsWithSeveralSecondsAreRefused(_ expression: String) throws {
        let message = try #require(Self.refusal(RuleSpec(onCalendar: expression)))
        #expect(message.contains("at most once a minute"), "\(message)")
    }

    @Test func rdatesLessThanAMinuteApartAreRefused() throws {
        let message = try #require(Self.refusal(RuleSpec(start: "2026-12-01T08:00", rrule: "-", rdate: "2026-12-01T09:00:00,2026-12-01T09:00:30")))
        #expect(message.contains("less than a minute apart"), "\(message)")
    }

    @Test func onceAMinuteIsTaken() {
        #expect(Self.refusal(RuleSpec(start: "2026-12-01T08:00", rrule: "FREQ=MINUTELY")) == nil)
        #expect(Self.refusal(RuleSpec(start: "2026-12-01T08:00", rrule: "FREQ=MINUTELY;BYSECOND=30")) == nil)
        #expect(Self.refusal(RuleSpec(onCalendar: "*:*:30")) == nil)
        #expect(Self.refusal(RuleSpec(onCalendar: "minutely")) == nil)
        #expect(Self.refusal(RuleSpec(start: "2026-12-01T08:00", rrule: "-", rdate: "2026-12-01T09:00:00,2026-12-01T09:01:00")) == nil)
    }
}
