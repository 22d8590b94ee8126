import ReminderCore
import TimeZoneDatabase
import Testing

/// `import --format ics`: what a calendar file becomes (Tests/e2e/test_calendar_import.py imports the files khal
/// and todoman write and compares with recurring-ical-events).
@Suite("Calendar files in")
struct CalendarImportTests {
    /// Shaped as Outlook and Google write: a Windows zone with its VTIMEZONE, a weekly event with an EXDATE and
    /// a moved instance, a UTC event with an EMAIL alarm and a repeating one, a past event, one without an
    /// alarm, a cancelled one.
    static let sample = """
BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Test//EN
BEGIN:VTIMEZONE
TZID:W. Europe Standard Time
BEGIN:STANDARD
DTSTART:16010101T030000
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:16010101T020000
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
END:DAYLIGHT
END:VTIMEZONE
BEGIN:VEVENT
UID:standup-1
SUMMARY:Standup
DTSTART;TZID=W. Europe Standard Time:20261130T093000
DTEND;TZID=W. Europe Standard Time:20261130T094500
RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR
EXDATE;TZID=W. Europe Standard Time:20261202T093000
BEGIN:VALARM
ACTION:DISPLAY
DESCRIPTION:Standup
TRIGGER:-PT10M
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:standup-1
RECURRENCE-ID;TZID=W. Europe Standard Time:20261204T093000
SUMMARY:Standup (moved)
DTSTART;TZID=W. Europe Standard Time:20261204T110000
DTEND;TZID=W. Europe Standard Time:20261204T111500
BEGIN:VALARM
TRIGGER:-PT10M
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:dentist
SUMMARY:Dentist\\, Dr. Who
DTSTART:20261210T140000Z
BEGIN:VALARM
ACTION:EMAIL
TRIGGER;RELATED=END:-P1D
END:VALARM
BEGIN:VALARM
ACTION:DISPLAY
TRIGGER:-PT1H
REPEAT:2
DURATION:PT10M
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:old
SUMMARY:Old party
DTSTART;VALUE=DATE:20200101
BEGIN:VALARM
TRIGGER:PT9H
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:bday
SUMMARY:Birthday
DTSTART;VALUE=DATE:20270315
RRULE:FREQ=YEARLY
END:VEVENT
BEGIN:VEVENT
UID:x
SUMMARY:Cancelled thing
STATUS:CANCELLED
DTSTART:20261210T140000Z
END:VEVENT
END:VCALENDAR
"""

    static func zones() throws -> CalendarImport.Zones {
        let database = TimeZoneDatabase()
        return CalendarImport.Zones(named: { try? database.rules(named: $0) }, names: database.allZoneNames(), system: try zone("Europe/Berlin"))
    }

    static func plan(_ text: String, all: Bool = false) throws -> CalendarImport {
        try CalendarImport(text, file: "test.ics", all: all, now: instant("2026-11-24T12:00:00Z"), zones: try zones())
    }

    /// The firings of an imported reminder.
    static func firings(_ reminder: CalendarImport.Reminder, count: Int) throws -> [String] {
        let rules = try zone(reminder.timeZone ?? "Europe/Berlin")
        return try reminder.rule.makeRule().occurrences(after: instant("2026-11-24T12:00:00Z"), count: count, in: rules).map(\.localISO8601)
    }

    @Test func eachAlarmOfEachEventBecomesAReminderAtItsInstants() throws {
        let plan = try Self.plan(Self.sample)
        #expect(plan.reminders.map(\.name) == ["Standup", "Standup (moved)", "Dentist, Dr. Who (1 day before)", "Dentist, Dr. Who (1 hour before)"])
        let standup = plan.reminders[0]
        // Outlook's "W. Europe Standard Time" is the zone whose offsets its VTIMEZONE gives: CLDR's Europe/Berlin.
        #expect(standup.timeZone == "Europe/Berlin")
        // 10 minutes before 09:30 on Mon, Wed, Fri; not Wed 2 Dec (EXDATE); Fri 4 Dec moved to 11:00 (its override,
        // with its own alarm, is a reminder of its own).
        #expect(try Self.firings(standup, count: 4) == [
            "2026-11-30T09:20:00+01:00", "2026-12-07T09:20:00+01:00", "2026-12-09T09:20:00+01:00", "2026-12-11T09:20:00+01:00",
        ])
        #expect(try Self.firings(plan.reminders[1], count: 2) == ["2026-12-04T10:50:00+01:00"])
        // A single event in UTC follows the system zone: 14:00Z is 15:00 in Berlin.
        #expect(plan.reminders[2].timeZone == nil)
        #expect(try Self.firings(plan.reminders[2], count: 2) == ["2026-12-09T15:00:00+01:00"])
        #expect(try Self.firings(plan.reminders[3], count: 2) == ["2026-12-10T14:00:00+01:00"])
        #expect(plan.reminders[3].repeating.plan == RepeatPlan(intervalSeconds: 600, maximum: 2))
        #expect(plan.leftOut == [
            "line 57: \"Old party\": every alarm lies in the past (it was on 2020-01-01)",
            "line 65: \"Birthday\": no alarm (import with --all to be reminded at its start)",
            "line 71: \"Cancelled thing\": cancelled",
        ])
        #expect(plan.notes == ["line 42: \"Dentist, Dr. Who\": its ACTION:EMAIL alarm becomes a desktop reminder"])
    }

    /// With --all, an all-day event without an alarm fires at its start (midnight), each year.
    @Test func withAllAnEventWithoutAnAlarmFiresAtItsStart() throws {
        let plan = try Self.plan(Self.sample, all: true)
        let birthday = try #require(plan.reminders.first { $0.name == "Birthday" })
        #expect(birthday.timeZone == nil)
        #expect(try Self.firings(birthday, count: 2) == ["2027-03-15T00:00:00+01:00", "2028-03-15T00:00:00+01:00"])
    }

    @Test func foldedLinesParametersAndEscapesAreRead() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Take the \r\n pills\\, 2\\; then\\nwater\r\nDTSTART;TZID=\"America/New_York\":20261201T080000\r\n"
            + "RRULE:FREQ=DAILY;CO\r\n\tUNT=3\r\nBEGIN:VALARM\r\nTRIGGER;RELATED=START:PT0S\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let plan = try Self.plan(text)
        #expect(plan.reminders.map(\.name) == ["Take the pills, 2; then water"])
        #expect(plan.reminders.first?.timeZone == "America/New_York")
        #expect(try Self.firings(plan.reminders[0], count: 5) == ["2026-12-01T08:00:00-05:00", "2026-12-02T08:00:00-05:00", "2026-12-03T08:00:00-05:00"])
    }

    /// A file that cannot be read is refused with the line and what is wrong (nothing is imported then).
    @Test(arguments: [
        (" folded:first\nBEGIN:VCALENDAR\nEND:VCALENDAR\n", 1, "folded line"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;TZID=Mars/Olympus:20261201T080000\nEND:VEVENT\nEND:VCALENDAR\n", 3, "TZID 'Mars/Olympus'"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261201T080000\nRRULE:FREQ=DAILY;COUNT=0\nBEGIN:VALARM\nTRIGGER:PT0S\nEND:VALARM\nEND:VEVENT\nEND:VCALENDAR\n", 4, "COUNT=0"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261201T080000\nBEGIN:VALARM\nACTION:DISPLAY\nEND:VALARM\nEND:VEVENT\nEND:VCALENDAR\n", 4, "VALARM without TRIGGER"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nEND:VTODO\nEND:VCALENDAR\n", 3, "closes BEGIN:VEVENT of line 2"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:x\n", 3, "never closed"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:2026120\nEND:VEVENT\nEND:VCALENDAR\n", 3, "is not a date-time"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261201T080000\nBEGIN:VALARM\nTRIGGER:-15M\nEND:VALARM\nEND:VEVENT\nEND:VCALENDAR\n", 5, "TRIGGER"),
    ])
    func aFileThatCannotBeReadIsRefusedWithItsLine(_ text: String, _ line: Int, _ message: String) throws {
        #expect(throws: FileLineError.self) { try Self.plan(text) }
        do { _ = try Self.plan(text) } catch let error as FileLineError {
            #expect(error.line == line && error.message.contains(message), "\(error)")
        }
    }

    /// Events of every shape the reader plans: RDATEs (one a PERIOD), EXDATEs in another zone, a COUNT rule, a
    /// trigger at an absolute instant, one relative to the end, an all-day event, a recurring one in UTC, a
    /// floating time and an override.
    static let shapes = """
BEGIN:VCALENDAR
BEGIN:VEVENT
UID:a
SUMMARY:Dates
DTSTART;TZID=Europe/Berlin:20261201T080000
RRULE:FREQ=DAILY;INTERVAL=3
RDATE;TZID=Europe/Berlin:20261202T120000,20261203T070000/PT1H
EXDATE;TZID=America/New_York:20261206T020000
EXDATE;TZID=Europe/Berlin:20261210T080000
BEGIN:VALARM
TRIGGER:-PT5M
END:VALARM
BEGIN:VALARM
TRIGGER;RELATED=END:PT0S
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:b
SUMMARY:Counted
DTSTART;TZID=Asia/Kolkata:20261125T063000
DURATION:PT45M
RRULE:FREQ=WEEKLY;BYDAY=MO,TH;COUNT=10
BEGIN:VALARM
TRIGGER;VALUE=DATE-TIME:20261201T000000Z
END:VALARM
BEGIN:VALARM
TRIGGER:-P1DT2H
END:VALARM
BEGIN:VALARM
TRIGGER;RELATED=END:-P1D
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:c
SUMMARY:All day
DTSTART;VALUE=DATE:20261224
RRULE:FREQ=YEARLY
BEGIN:VALARM
TRIGGER:-PT6H
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:d
SUMMARY:In UTC
DTSTART:20261130T230000Z
RRULE:FREQ=MONTHLY;BYMONTHDAY=-1
BEGIN:VALARM
TRIGGER:PT0S
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:d
RECURRENCE-ID:20261231T230000Z
SUMMARY:In UTC, moved
DTSTART:20261231T200000Z
BEGIN:VALARM
TRIGGER:-PT30M
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:e
SUMMARY:Floating
DTSTART:20261205T183000
RDATE:20261207T183000
BEGIN:VALARM
TRIGGER:-PT1M
END:VALARM
END:VEVENT
END:VCALENDAR
"""

    /// A calendar read at start uses the rule the plan built from the parts it read, and the store keeps the
    /// rule's text: both must be one rule, as `makeRule` reads the text back at the next start.
    @Test func theRuleBuiltIsTheRuleItsTextMakes() throws {
        for text in [Self.sample, Self.shapes] {
            let plan = try Self.plan(text, all: true)
            #expect(plan.reminders.count >= 4)
            for reminder in plan.reminders {
                #expect(try reminder.rule.makeRule() == reminder.builtRule, "\(reminder.name): \(reminder.rule)")
            }
        }
    }

    /// An alarm a day before the end of a one-hour event fires a day before its end, 23 hours before its start:
    /// the trigger's day (a wall-clock day) and the event's length (exact time) have opposite signs, which the
    /// stored text (`-P1DT1H`, one sign) could not say, and it fired a day and an hour before the start.
    @Test func anAlarmRelatedToTheEndOfAnEventFiresBeforeItsEnd() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:e\nSUMMARY:Review\nDTSTART;TZID=Europe/Berlin:20261210T100000\n"
            + "DTEND;TZID=Europe/Berlin:20261210T110000\nRRULE:FREQ=WEEKLY\nBEGIN:VALARM\nTRIGGER;RELATED=END:-P1D\nEND:VALARM\n"
            + "BEGIN:VALARM\nTRIGGER;RELATED=END:-PT30M\nEND:VALARM\nEND:VEVENT\nEND:VCALENDAR\n"
        let plan = try Self.plan(text)
        #expect(try Self.firings(plan.reminders[0], count: 2) == ["2026-12-09T11:00:00+01:00", "2026-12-16T11:00:00+01:00"])
        #expect(try Self.firings(plan.reminders[1], count: 1) == ["2026-12-10T10:30:00+01:00"])
    }

    /// What `makeRule` refuses in a rule's text, the plan refuses in the parts it read, with the same words.
    @Test(arguments: [
        ("RDATE;TZID=Europe/Berlin:20261202T120000,20261202T120030\nBEGIN:VALARM\nTRIGGER:PT0S\nEND:VALARM", "rdate lists 2026-12-02T12:00:00 and 2026-12-02T12:00:30, less than a minute apart"),
        ("BEGIN:VALARM\nTRIGGER;VALUE=DATE-TIME:20400101T000000Z\nEND:VALARM", "invalid --rrule: "),
        ("RRULE:FREQ=SECONDLY;INTERVAL=30\nBEGIN:VALARM\nTRIGGER:PT0S\nEND:VALARM", "less than a minute apart"),
    ])
    func whatTheRuleTextWouldRefuseIsRefused(_ parts: String, _ message: String) throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\nDTSTART;TZID=Europe/Berlin:20261201T080000\n\(parts)\nEND:VEVENT\nEND:VCALENDAR\n"
        do {
            _ = try Self.plan(text)
            Issue.record("planned: \(text)")
        } catch let error as FileLineError {
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test func tenMegabytesOfGarbageAreRefusedAtTheFirstLine() throws {
        var generator = SeededBytes(seed: 10)
        let garbage = String(decoding: (0..<(10 << 20)).map { _ in generator.next() }, as: UTF8.self)
        do {
            _ = try Self.plan(garbage)
            Issue.record("garbage was read as a calendar")
        } catch let error as FileLineError {
            #expect(error.line == 1)
        }
    }
}

/// Printable ASCII and line ends, from a seed.
private struct SeededBytes {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt8 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let value = UInt8(truncatingIfNeeded: state >> 33) % 100
        return value < 95 ? value + 32 : UInt8(ascii: "\n")
    }
}
