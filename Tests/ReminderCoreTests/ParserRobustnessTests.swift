import ReminderCore
import ReminderDaemon
import ReminderDaemonTesting
import Testing
import TimeZoneDatabase

/// No text reaches a trap: every parser that turns user text into numbers, fed random and huge strings.
/// (A number of 20 or more digits in a time used to overflow and crash the daemon.)
@Suite("Parsers refuse, never trap")
struct ParserRobustnessTests {
    /// Strings shaped like the accepted forms, with fields of any length, and plain noise.
    static func samples(count: Int) -> [String] {
        var random = SeededGenerator(seed: 42)
        let digitRuns = ["9", "99", "0000", "99999999999999999999", "18446744073709551616", "-9223372036854775808", String(repeating: "9", count: 400)]
        let pieces = digitRuns + [":", "-", "T", " ", "Z", "+", "d", "h", "m", "w", ",", "last", "sun", "2nd-", "\"", "'", "=", "#", "\u{0}", "é", "_"]
        var result = ["99999999999999999999", "99999999999999999999:00", "00:99999999999999999999", "2026-01-01T99999999999999999999:00",
                      "99999999999999999999d", "2026-01-01T07:00:00+99999999999999999999", "99999999999999999999-01-01"]
        for _ in 0..<count {
            let length = Int.random(in: 1...8, using: &random)
            result.append((0..<length).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        return result
    }

    @Test func timeTextAndISO8601() throws {
        let zone = try TimeZoneDatabase().rules(named: "Europe/Berlin")
        let now = Instant(secondsSinceEpoch: 1_780_000_000)
        for text in Self.samples(count: 3000) {
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
        for text in Self.samples(count: 1500) {
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

    @Test func configFiles() {
        let keys = DaemonConfiguration.keys.map(\.0)
        for (index, text) in Self.samples(count: 1500).enumerated() {
            let key = keys[index % keys.count]
            for value in [text, "\"\(text)\"", "'\(text)'"] {
                guard let configuration = try? DaemonConfiguration.parse("\(key) = \(value)", file: "config.toml") else { continue }
                // What a file can set stays in the documented ranges.
                #expect((0...720).contains(configuration.graceMinutes))
                #expect(configuration.retentionDays.map { (90...36_500).contains($0) } ?? true)
            }
        }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("retention-days = 99999999999999999999", file: "c") }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("retention-days = 9223372036854775807", file: "c") }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("morning = \"99999999999999999999:00\"", file: "c") }
    }

    /// Nested arrays 3,000 deep overflowed the stack at start (and killed a running daemon at SIGHUP): the
    /// reader recursed into each level. They are refused with the line, like any value that is not a string list.
    @Test func deeplyNestedArraysAreRefusedNotRecursedInto() {
        let nested = String(repeating: "[", count: 3000) + "\"x\"" + String(repeating: "]", count: 3000)
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("\n\non-fire = \(nested)", file: "c") }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("on-fire = [[\"/bin/true\"]]", file: "c") }
        #expect((try? DaemonConfiguration.parse("on-fire = [\"/bin/echo\", 'hi']", file: "c"))?.onFire == ["/bin/echo", "hi"])
    }
}
