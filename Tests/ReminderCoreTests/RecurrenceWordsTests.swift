import ReminderCore
import Testing

/// RFC 5545 rules as `list` and `show` say them: every part of the rule in words.
@Suite("RFC 5545 rules in words")
struct RecurrenceWordsTests {
    static let cases: [(rule: String, start: String, words: String)] = [
        ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2026-12-01T09:00", "the last weekday of the month at 09:00"),
        ("FREQ=HOURLY;INTERVAL=8", "2026-12-01T08:00", "every 8 hours from 2026-12-01 08:00"),
        ("FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", "2026-05-11T07:30", "every year in week 20 on Mon at 07:30"),
        ("FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=10", "2026-12-01T18:00", "every week on Mon, Wed and Fri at 18:00 from 2026-12-01, 10 times"),
        ("FREQ=MONTHLY;BYDAY=2SU", "2026-12-13T10:00", "the 2nd Sun of the month at 10:00"),
        ("FREQ=MONTHLY;INTERVAL=3;BYDAY=-1FR", "2026-12-25T10:00", "the last Fri of every 3rd month at 10:00 from 2026-12-25"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,15,-1", "2026-12-01T09:00", "every month on the 1st, 15th and last day at 09:00"),
        ("FREQ=DAILY;BYHOUR=8,20;UNTIL=20270101", "2026-12-01T08:00", "every day at 08:00 and 20:00, until 2027-01-01"),
        ("FREQ=WEEKLY", "2026-12-03T12:00", "every week on Thu at 12:00"),
        ("FREQ=YEARLY", "2027-02-14T09:00", "every year on Feb 14 at 09:00"),
        ("FREQ=YEARLY;BYMONTH=1,7;BYDAY=1MO", "2027-01-04T09:00", "the 1st Mon of the year in Jan and Jul at 09:00"),
        ("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", "2026-12-01T07:00", "every day on weekdays at 07:00"),
        ("FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10", "2026-12-01T09:00", "every 20 minutes in hour 9 and 10 from 2026-12-01 09:00"),
        ("RSCALE=GREGORIAN;FREQ=MONTHLY;BYMONTHDAY=31;SKIP=BACKWARD", "2026-12-31T09:00",
         "every month on the 31st at 09:00, days that do not exist moved back"),
    ]

    @Test(arguments: cases.indices)
    func aRuleIsSaidInWords(_ index: Int) throws {
        let (text, start, words) = Self.cases[index]
        let rule = try RuleSpec(start: start, rrule: text).makeRule()
        #expect(rule.summary == words, "\(text)")
    }

    @Test func datesAddedAndRemovedAreCounted() throws {
        let start = try #require(ISO8601.parseDateTime("2026-12-01T09:00"))
        let set = RecurrenceSet(
            start: start, rule: try RecurrenceRule(parsing: "FREQ=DAILY"), dates: [try #require(ISO8601.parseDateTime("2026-12-24T18:00"))],
            exceptions: [try #require(ISO8601.parseDateTime("2026-12-25T09:00")), try #require(ISO8601.parseDateTime("2026-12-26T09:00"))])
        #expect(set.summary == "every day at 09:00, and on 1 more date, except 2 dates")
    }
}

/// Rules whose instances lie centuries apart (found by the long run of the dateutil oracle).
@Suite("RFC 5545 rules that meet rarely")
struct RareRecurrenceTests {
    /// Every 18 days, a Tuesday the 25th of four months: instances decades apart. The next one after an instant
    /// more than 400 years past DTSTART was none: the search gave up 400 years after DTSTART, not after the
    /// instant it started from.
    @Test func theNextInstanceCenturiesAfterTheStartIsFound() throws {
        let rule = try RecurrenceRule(parsing: "FREQ=DAILY;INTERVAL=18;BYDAY=TU;BYMONTHDAY=25;BYMONTH=1,3,4,10;BYMINUTE=13")
        let start = try #require(ISO8601.parseDateTime("2019-08-28T16:30"))
        let utc = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        // DTSTART first (RFC 5545), then the rule's: python-dateutil's 14th to 17th are these.
        let locals = Array(rule.expansion(from: start, in: utc).prefix(18)).map(\.local.description)
        #expect(Array(locals.suffix(4)) == ["2461-10-25T16:13:00", "2464-03-25T16:13:00", "2489-01-25T16:13:00", "2540-10-25T16:13:00"])
        let after = utc.resolve(try #require(ISO8601.parseDateTime("2461-10-25T16:13")))
        #expect(rule.nextInstance(after: after, from: start, in: utc)?.local.description == "2464-03-25T16:13:00")
    }

    /// An 18-day step meets the calendar's 400-year cycle only every 800 years: a Monday 29 February on that
    /// step comes in 2208, then in 2692. The search gave up 400 years after 2208.
    @Test func aGapOfMoreThan400YearsDoesNotEndTheRule() throws {
        let rule = try RecurrenceRule(parsing: "FREQ=DAILY;INTERVAL=18;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO")
        let start = try #require(ISO8601.parseDateTime("2019-08-28T09:00"))
        let utc = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        let after = utc.resolve(try #require(ISO8601.parseDateTime("2208-02-29T09:00")))
        #expect(rule.nextInstance(after: after, from: start, in: utc)?.local.description == "2692-02-29T09:00:00")
    }
}

/// Whether a rule names its own DTSTART (remindctl notes a start it does not: RFC 5545 fires it all the same).
@Suite("An RRULE's own start")
struct RecurrenceStartTests {
    @Test(arguments: [
        ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2026-12-01T09:00", false),
        ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2026-12-31T09:00", true),
        ("FREQ=WEEKLY;BYDAY=MO,WE", "2026-12-01T09:00", false),
        ("FREQ=WEEKLY", "2026-12-01T09:00", true),
        ("FREQ=HOURLY;INTERVAL=8;BYHOUR=8,16", "2026-12-01T00:00", false),
        ("FREQ=HOURLY;INTERVAL=8", "2026-12-01T07:30", true),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "2028-02-29T10:00", true),
    ])
    func aStartIsNamedByTheRuleOrNot(_ rule: String, _ start: String, _ named: Bool) throws {
        let local = try #require(ISO8601.parseDateTime(start))
        #expect(try RecurrenceRule(parsing: rule).selects(start: local) == named)
    }
}
