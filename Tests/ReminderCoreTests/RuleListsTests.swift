import SeededRandom
import Testing

@testable import ReminderCore

/// A rule's lists (`--at 08:00,20:00`, `--weekly mon,thu`, `--monthly 1,last`, `--skip`) and the words in them
/// are read on bytes, as every start reads every rule: read as the character-based reading they replace read them.
@Suite("Rule lists")
struct RuleListsTests {
    /// Lists as users write them, and text that is no list.
    static let texts = [
        "08:00,20:00", "08:00, 20:00", " 08:00 ,,20:00 ", ",", " , ,", ",a,", "a,,b", "  ", "", "é, ü ,x", "mon,Thu, FRIDAY",
        "1, last,LAST", ",\u{301}a", " \u{301}", "a\u{0},b", "\t08:00", "😀,😀 ",
    ] + NoisyText.samples(count: 1500)

    @Test func listItemsAreThoseOfASplitOnCommasWithTheSpacesAroundEachTrimmed() {
        for text in Self.texts where !text.unicodeScalars.contains("\u{301}") {
            let before = text.split(separator: ",").map(\.trimmingSpaces)
            #expect(text.commaSeparatedItems.map(String.init) == before, "\(text.debugDescription)")
        }
        // A comma that a combining mark joins to the next letter is one character, but still a comma.
        #expect(",\u{301}a".commaSeparatedItems == ["\u{301}a"])
    }

    @Test func weekdaysAreTwoLettersOrMoreOfTheirNamesInAnyCase() {
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        for (offset, name) in names.enumerated() {
            for length in 2...name.count {
                let prefix = String(name.prefix(length))
                for written in [prefix, prefix.uppercased(), prefix.prefix(1).uppercased() + prefix.dropFirst()] {
                    #expect(Weekday(name: written) == Weekday(rawValue: offset + 1), "\(written)")
                }
            }
        }
        for refused in ["", "s", "t", "sundays", "mondayy", "xmon", "mön", "MÓN", "su ", " su", "s\u{0}"] {
            #expect(Weekday(name: refused) == nil, "\(refused.debugDescription)")
        }
        // Ambiguous beginnings name the first day of the week that has them, as before.
        #expect(Weekday(name: "tu") == .tuesday && Weekday(name: "th") == .thursday && Weekday(name: "s") == nil)
        for text in Self.texts {
            let lower = text.lowercased()
            let before = lower.count >= 2 ? names.firstIndex { $0.hasPrefix(lower) }.map { Weekday(rawValue: $0 + 1)! } : nil
            #expect(Weekday(name: text) == before, "\(text.debugDescription)")
        }
    }

    @Test func timesAreTwoDigitFieldsWithAnOptionalSecond() {
        #expect(ISO8601.parseTime("08:05") == TimeOfDay(hour: 8, minute: 5))
        #expect(ISO8601.parseTime("23:59:58") == TimeOfDay(hour: 23, minute: 59, second: 58))
        for refused in ["8:00", "08:0", "08", "08:", "08:00:", "08:00:00:00", "24:00", "12:60", "12:00:60", ":08:00", "08::00", " 08:00", "08:00 ", ""] {
            #expect(ISO8601.parseTime(refused) == nil, "\(refused)")
        }
    }

    @Test func aRuleGivesOneKindOfScheduleAndIsToldWhichItGaveOtherwise() {
        func message(_ spec: RuleSpec) -> String? {
            do {
                _ = try spec.makeRule()
                return nil
            } catch {
                return error.message
            }
        }
        #expect(message(RuleSpec(daily: true, weekly: "mon", monthly: "1", at: "08:00")) == "--daily and --monthly and --weekly cannot be combined: give one schedule per reminder")
        #expect(message(RuleSpec(at: "08:00"))?.hasPrefix("no schedule given: add one of --daily") == true)
        // --weekly with --every is the weekdays of a fortnightly rule, not a second kind.
        #expect(message(RuleSpec(weekly: "mon", every: "2w", at: "08:00", start: "2026-12-01")) == nil)
        #expect(message(RuleSpec(daily: true, at: "08:00")) == nil)
    }

    @Test func rulesReadTheirListsWithSpacesAndInAnyCase() throws {
        let times = try RuleSpec(daily: true, at: " 20:00 ,,08:00 ").makeRule().times
        #expect(Array(times) == [TimeOfDay(hour: 8, minute: 0)!, TimeOfDay(hour: 20, minute: 0)!])
        #expect(try RuleSpec(weekly: "MON, thursday", at: "08:00").makeRule().days == .weekly(WeekdaySet([.monday, .thursday])))
        #expect(try RuleSpec(monthly: "15, Last", at: "08:00").makeRule().days == .monthly(MonthDaySet(days: [15], includesLastDay: true)))
        #expect(throws: RuleSpecError.self) { try RuleSpec(weekly: "mon,xx", at: "08:00").makeRule() }
        do {
            _ = try RuleSpec(monthly: "1, LASTLY", at: "08:00").makeRule()
            Issue.record("a day of month that is no day was taken")
        } catch {
            #expect(error.message.hasPrefix("invalid day of month 'lastly' in --monthly"))
        }
        do {
            _ = try RuleSpec(daily: true, at: "08:00, 8:30").makeRule()
            Issue.record("a time of one digit was taken")
        } catch {
            #expect(error.message.hasPrefix("invalid time '8:30' in --at"))
        }
        do {
            _ = try RuleSpec(daily: true, at: Array(repeating: "08:00", count: RuleSpec.maximumTimesPerDay + 1).joined(separator: ",")).makeRule()
            Issue.record("more times than a day may have were taken")
        } catch {
            #expect(error.message.hasPrefix("--at lists \(RuleSpec.maximumTimesPerDay + 1) times"))
        }
    }
}
