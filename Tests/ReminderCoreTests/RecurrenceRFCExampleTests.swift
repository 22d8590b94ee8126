import ReminderCore
import Testing

/// Every example of RFC 5545 §3.8.5.3, with the RFC's own expected instances (DTSTART in America/New_York).
/// An example that goes on forever is compared over the instances the RFC lists.
@Suite("RFC 5545 recurrence examples")
struct RecurrenceRFCExampleTests {
    struct Example: CustomTestStringConvertible, Sendable {
        let name: String
        let start: String
        let rule: String
        var exdates: [String] = []
        /// Dates at the start's time (`1997-09-02`), or date-times (`1997-09-02T09:20`).
        let expected: [String]
        /// Whether the rule ends there (COUNT or UNTIL): then nothing follows the last.
        var ends = false
        var testDescription: String { name }
    }

    /// `1997-09: 2,4,16` lines to dates.
    static func days(_ spec: String) -> [String] {
        spec.split(separator: ";").flatMap { group -> [String] in
            let parts = group.split(separator: ":")
            let month = parts[0].trimmingCharacters(in: .whitespaces)
            return parts[1].split(separator: ",").flatMap { item -> [String] in
                let range = item.trimmingCharacters(in: .whitespaces).split(separator: "-").compactMap { Int($0) }
                return (range[0]...(range.count > 1 ? range[1] : range[0])).map { month + "-" + ($0 < 10 ? "0" : "") + String($0) }
            }
        }
    }

    static let examples: [Example] = [
        Example(name: "Daily for 10 occurrences", start: "19970902T090000", rule: "FREQ=DAILY;COUNT=10", expected: days("1997-09: 2-11"), ends: true),
        Example(name: "Daily until December 24, 1997", start: "19970902T090000", rule: "FREQ=DAILY;UNTIL=19971224T000000Z",
                expected: days("1997-09: 2-30; 1997-10: 1-31; 1997-11: 1-30; 1997-12: 1-23"), ends: true),
        Example(name: "Every other day - forever", start: "19970902T090000", rule: "FREQ=DAILY;INTERVAL=2",
                expected: days("1997-09: 2,4,6,8,10,12,14,16,18,20,22,24,26,28,30; 1997-10: 2,4,6,8,10,12,14,16,18,20,22,24,26,28,30; 1997-11: 1,3,5")),
        Example(name: "Every 10 days, 5 occurrences", start: "19970902T090000", rule: "FREQ=DAILY;INTERVAL=10;COUNT=5",
                expected: days("1997-09: 2,12,22; 1997-10: 2,12"), ends: true),
        Example(name: "Every day in January, for 3 years (yearly)", start: "19980101T090000",
                rule: "FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA",
                expected: days("1998-01: 1-31; 1999-01: 1-31; 2000-01: 1-31"), ends: true),
        Example(name: "Every day in January, for 3 years (daily)", start: "19980101T090000", rule: "FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1",
                expected: days("1998-01: 1-31; 1999-01: 1-31; 2000-01: 1-31"), ends: true),
        Example(name: "Weekly for 10 occurrences", start: "19970902T090000", rule: "FREQ=WEEKLY;COUNT=10",
                expected: days("1997-09: 2,9,16,23,30; 1997-10: 7,14,21,28; 1997-11: 4"), ends: true),
        Example(name: "Weekly until December 24, 1997", start: "19970902T090000", rule: "FREQ=WEEKLY;UNTIL=19971224T000000Z",
                expected: days("1997-09: 2,9,16,23,30; 1997-10: 7,14,21,28; 1997-11: 4,11,18,25; 1997-12: 2,9,16,23"), ends: true),
        Example(name: "Every other week - forever", start: "19970902T090000", rule: "FREQ=WEEKLY;INTERVAL=2;WKST=SU",
                expected: days("1997-09: 2,16,30; 1997-10: 14,28; 1997-11: 11,25; 1997-12: 9,23; 1998-01: 6,20; 1998-02: 3,17")),
        Example(name: "Weekly on Tuesday and Thursday for five weeks (until)", start: "19970902T090000",
                rule: "FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH", expected: days("1997-09: 2,4,9,11,16,18,23,25,30; 1997-10: 2"), ends: true),
        Example(name: "Weekly on Tuesday and Thursday for five weeks (count)", start: "19970902T090000", rule: "FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH",
                expected: days("1997-09: 2,4,9,11,16,18,23,25,30; 1997-10: 2"), ends: true),
        Example(name: "Every other week on Monday, Wednesday, and Friday until December 24, 1997", start: "19970901T090000",
                rule: "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR",
                expected: days("1997-09: 1,3,5,15,17,19,29; 1997-10: 1,3,13,15,17,27,29,31; 1997-11: 10,12,14,24,26,28; 1997-12: 8,10,12,22"), ends: true),
        Example(name: "Every other week on Tuesday and Thursday, for 8 occurrences", start: "19970902T090000",
                rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH", expected: days("1997-09: 2,4,16,18,30; 1997-10: 2,14,16"), ends: true),
        Example(name: "Monthly on the first Friday for 10 occurrences", start: "19970905T090000", rule: "FREQ=MONTHLY;COUNT=10;BYDAY=1FR",
                expected: days("1997-09: 5; 1997-10: 3; 1997-11: 7; 1997-12: 5; 1998-01: 2; 1998-02: 6; 1998-03: 6; 1998-04: 3; 1998-05: 1; 1998-06: 5"), ends: true),
        Example(name: "Monthly on the first Friday until December 24, 1997", start: "19970905T090000", rule: "FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR",
                expected: days("1997-09: 5; 1997-10: 3; 1997-11: 7; 1997-12: 5"), ends: true),
        Example(name: "Every other month on the first and last Sunday of the month for 10 occurrences", start: "19970907T090000",
                rule: "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU",
                expected: days("1997-09: 7,28; 1997-11: 2,30; 1998-01: 4,25; 1998-03: 1,29; 1998-05: 3,31"), ends: true),
        Example(name: "Monthly on the second-to-last Monday of the month for 6 months", start: "19970922T090000", rule: "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO",
                expected: days("1997-09: 22; 1997-10: 20; 1997-11: 17; 1997-12: 22; 1998-01: 19; 1998-02: 16"), ends: true),
        Example(name: "Monthly on the third-to-the-last day of the month, forever", start: "19970928T090000", rule: "FREQ=MONTHLY;BYMONTHDAY=-3",
                expected: days("1997-09: 28; 1997-10: 29; 1997-11: 28; 1997-12: 29; 1998-01: 29; 1998-02: 26")),
        Example(name: "Monthly on the 2nd and 15th of the month for 10 occurrences", start: "19970902T090000", rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15",
                expected: days("1997-09: 2,15; 1997-10: 2,15; 1997-11: 2,15; 1997-12: 2,15; 1998-01: 2,15"), ends: true),
        Example(name: "Monthly on the first and last day of the month for 10 occurrences", start: "19970930T090000", rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1",
                expected: days("1997-09: 30; 1997-10: 1,31; 1997-11: 1,30; 1997-12: 1,31; 1998-01: 1,31; 1998-02: 1"), ends: true),
        Example(name: "Every 18 months on the 10th thru 15th of the month for 10 occurrences", start: "19970910T090000",
                rule: "FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15", expected: days("1997-09: 10-15; 1999-03: 10-13"), ends: true),
        Example(name: "Every Tuesday, every other month", start: "19970902T090000", rule: "FREQ=MONTHLY;INTERVAL=2;BYDAY=TU",
                expected: days("1997-09: 2,9,16,23,30; 1997-11: 4,11,18,25; 1998-01: 6,13,20,27; 1998-03: 3,10,17,24,31")),
        Example(name: "Yearly in June and July for 10 occurrences", start: "19970610T090000", rule: "FREQ=YEARLY;COUNT=10;BYMONTH=6,7",
                expected: days("1997-06: 10; 1997-07: 10; 1998-06: 10; 1998-07: 10; 1999-06: 10; 1999-07: 10; 2000-06: 10; 2000-07: 10; 2001-06: 10; 2001-07: 10"),
                ends: true),
        Example(name: "Every other year on January, February, and March for 10 occurrences", start: "19970310T090000",
                rule: "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3",
                expected: days("1997-03: 10; 1999-01: 10; 1999-02: 10; 1999-03: 10; 2001-01: 10; 2001-02: 10; 2001-03: 10; 2003-01: 10; 2003-02: 10; 2003-03: 10"),
                ends: true),
        Example(name: "Every third year on the 1st, 100th, and 200th day for 10 occurrences", start: "19970101T090000",
                rule: "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200",
                expected: days("1997-01: 1; 1997-04: 10; 1997-07: 19; 2000-01: 1; 2000-04: 9; 2000-07: 18; 2003-01: 1; 2003-04: 10; 2003-07: 19; 2006-01: 1"),
                ends: true),
        Example(name: "Every 20th Monday of the year, forever", start: "19970519T090000", rule: "FREQ=YEARLY;BYDAY=20MO",
                expected: days("1997-05: 19; 1998-05: 18; 1999-05: 17")),
        Example(name: "Monday of week number 20, forever", start: "19970512T090000", rule: "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO",
                expected: days("1997-05: 12; 1998-05: 11; 1999-05: 17")),
        Example(name: "Every Thursday in March, forever", start: "19970313T090000", rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=TH",
                expected: days("1997-03: 13,20,27; 1998-03: 5,12,19,26; 1999-03: 4,11,18,25")),
        Example(name: "Every Thursday, but only during June, July, and August, forever", start: "19970605T090000", rule: "FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8",
                expected: days("""
                    1997-06: 5,12,19,26; 1997-07: 3,10,17,24,31; 1997-08: 7,14,21,28; 1998-06: 4,11,18,25; 1998-07: 2,9,16,23,30; \
                    1998-08: 6,13,20,27; 1999-06: 3,10,17,24; 1999-07: 1,8,15,22,29; 1999-08: 5,12,19,26
                    """)),
        Example(name: "Every Friday the 13th, forever (DTSTART excluded)", start: "19970902T090000", rule: "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
                exdates: ["19970902T090000"], expected: days("1998-02: 13; 1998-03: 13; 1998-11: 13; 1999-08: 13; 2000-10: 13")),
        Example(name: "The first Saturday that follows the first Sunday of the month, forever", start: "19970913T090000",
                rule: "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13",
                expected: days("1997-09: 13; 1997-10: 11; 1997-11: 8; 1997-12: 13; 1998-01: 10; 1998-02: 7; 1998-03: 7; 1998-04: 11; 1998-05: 9; 1998-06: 13")),
        Example(name: "U.S. Presidential Election day", start: "19961105T090000", rule: "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8",
                expected: days("1996-11: 5; 2000-11: 7; 2004-11: 2")),
        Example(name: "The third instance of Tuesday, Wednesday, or Thursday, for the next 3 months", start: "19970904T090000",
                rule: "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3", expected: days("1997-09: 4; 1997-10: 7; 1997-11: 6"), ends: true),
        Example(name: "The second-to-last weekday of the month", start: "19970929T090000", rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2",
                expected: days("1997-09: 29; 1997-10: 30; 1997-11: 27; 1997-12: 30; 1998-01: 29; 1998-02: 26; 1998-03: 30")),
        // The RFC lists 09:00, 12:00 and 15:00, but its UNTIL (17:00Z) is 13:00 EDT: 15:00 is past it (RFC 5545
        // erratum 3883, which corrects UNTIL). remindd keeps to the UNTIL given, as python-dateutil and libical do.
        Example(name: "Every 3 hours from 9:00 AM to 5:00 PM on a specific day (UNTIL as given)", start: "19970902T090000",
                rule: "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z", expected: ["1997-09-02T09:00", "1997-09-02T12:00"], ends: true),
        Example(name: "Every 3 hours from 9:00 AM to 5:00 PM on a specific day (corrected UNTIL)", start: "19970902T090000",
                rule: "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T210000Z", expected: ["1997-09-02T09:00", "1997-09-02T12:00", "1997-09-02T15:00"], ends: true),
        Example(name: "Every 15 minutes for 6 occurrences", start: "19970902T090000", rule: "FREQ=MINUTELY;INTERVAL=15;COUNT=6",
                expected: ["09:00", "09:15", "09:30", "09:45", "10:00", "10:15"].map { "1997-09-02T" + $0 }, ends: true),
        Example(name: "Every hour and a half for 4 occurrences", start: "19970902T090000", rule: "FREQ=MINUTELY;INTERVAL=90;COUNT=4",
                expected: ["09:00", "10:30", "12:00", "13:30"].map { "1997-09-02T" + $0 }, ends: true),
        Example(name: "Every 20 minutes from 9:00 AM to 4:40 PM every day (daily)", start: "19970902T090000",
                rule: "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40", expected: twentyMinutes),
        Example(name: "Every 20 minutes from 9:00 AM to 4:40 PM every day (minutely)", start: "19970902T090000",
                rule: "FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16", expected: twentyMinutes),
        Example(name: "WKST=MO", start: "19970805T090000", rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO",
                expected: days("1997-08: 5,10,19,24"), ends: true),
        Example(name: "WKST=SU", start: "19970805T090000", rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU",
                expected: days("1997-08: 5,17,19,31"), ends: true),
        Example(name: "An invalid date (February 30) is ignored", start: "20070115T090000", rule: "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5",
                expected: days("2007-01: 15,30; 2007-02: 15; 2007-03: 15,30"), ends: true),
    ]

    static let twentyMinutes: [String] = {
        var result: [String] = []
        for day in ["1997-09-02", "1997-09-03"] {
            for hour in 9...16 {
                for minute in ["00", "20", "40"] {
                    let hourText: String = hour < 10 ? "0\(hour)" : "\(hour)"
                    result.append("\(day)T\(hourText):\(minute)")
                }
            }
        }
        return result
    }()

    @Test(arguments: examples)
    func theRFCsInstances(_ example: Example) throws {
        let york = try zone("America/New_York")
        let rule = try RecurrenceRule(parsing: example.rule)
        let start = try #require(ICalendarTime.dateTime(example.start))
        let set = RecurrenceSet(start: start, rule: rule, exceptions: Set(example.exdates.compactMap(ICalendarTime.dateTime)))
        let before = york.resolve(start).adding(seconds: -1)
        let got = set.instances(after: before, count: example.expected.count + 1, in: york).map { instance in
            let text = instance.local.description  // 1997-09-02T09:00:00
            return text.hasSuffix("T09:00:00") && !example.expected[0].contains("T") ? String(text.prefix(10)) : String(text.prefix(16))
        }
        #expect(Array(got.prefix(example.expected.count)) == example.expected)
        if example.ends { #expect(got.count == example.expected.count, "it goes on after the last") }
    }
}

/// A rule "seen in the wild" with a trailing `;` (libical's own vectors; libical and dateutil accept it) is the
/// rule without it; an empty part anywhere else is still refused.
@Suite struct TrailingSemicolonTests {
    @Test func oneEmptyPartAtTheEndIsTaken() throws {
        let utc = try zone("UTC")
        let start = Instant(secondsSinceEpoch: 1_795_500_000)
        let trailing = try RuleSpec(start: "2026-11-30T09:00", rrule: "FREQ=WEEKLY;INTERVAL=1;COUNT=2;BYDAY=MO;").makeRule()
        let plain = try RuleSpec(start: "2026-11-30T09:00", rrule: "FREQ=WEEKLY;INTERVAL=1;COUNT=2;BYDAY=MO").makeRule()
        let firings = trailing.occurrences(after: start, count: 5, in: utc).map(\.instant)
        #expect(firings.count == 2 && firings == plain.occurrences(after: start, count: 5, in: utc).map(\.instant))
    }

    @Test(arguments: ["FREQ=WEEKLY;;COUNT=2", ";FREQ=WEEKLY", "FREQ=WEEKLY;;", ";"])
    func anEmptyPartElsewhereIsRefused(_ text: String) {
        #expect(throws: RecurrenceError.self) { try RecurrenceRule(parsing: text) }
    }
}
