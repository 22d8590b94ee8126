import ReminderCore
import SeededRandom
import Testing
import TimeZoneDatabase

/// No text reaches a trap: every parser that turns user text into numbers, fed random and huge strings.
/// (A number of 20 or more digits in a time used to overflow and crash the daemon.)
@Suite("Parsers refuse, never trap")
struct ParserRobustnessTests {
    @Test func timeTextAndISO8601() throws {
        let zone = try TimeZoneDatabase().rules(named: "Europe/Berlin")
        let now = Instant(secondsSinceEpoch: 1_780_000_000)
        for text in NoisyText.samples(count: 3000) {
            _ = ISO8601.parseTime(text)
            _ = ISO8601.parseDate(text)
            _ = ISO8601.parseDateTime(text)
            _ = ISO8601.parseInstant(text)
            _ = TimeText.instant(text, now: now, zone: zone)
        }
        #expect(ISO8601.parseTime("99999999999999999999") == nil)
        #expect(TimeText.instant("99999999999999999999d", now: now, zone: zone) == nil)
    }

    @Test func ruleSpecs() throws {
        let zone = try TimeZoneDatabase().rules(named: "America/New_York")
        let now = Instant(secondsSinceEpoch: 1_780_000_000)
        for text in NoisyText.samples(count: 1500) {
            let specs = [
                RuleSpec(daily: true, at: text), RuleSpec(weekly: text, at: "08:00"), RuleSpec(monthly: text, at: "08:00"),
                RuleSpec(monthlyOn: text, at: "08:00"), RuleSpec(yearly: text, at: "08:00"), RuleSpec(every: text, at: "08:00"),
                RuleSpec(preset: text), RuleSpec(once: text), RuleSpec(daily: true, at: "08:00", start: text),
                RuleSpec(daily: true, at: "08:00", until: text), RuleSpec(daily: true, at: "08:00", skip: text),
                RuleSpec(preset: "Twice a Day", start: text),
            ]
            for spec in specs {
                // A rule that is accepted must also be usable: its next firings compute without trapping.
                if let rule = try? spec.makeRule() { _ = rule.occurrences(after: now, count: 3, in: zone) }
            }
        }
    }

}
