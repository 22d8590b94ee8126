@testable import ReminderCore
import Testing

/// The iCalendar writer's own rules (the independent readers are in Tests/e2e/test_calendar_export.py).
@Suite struct ICalendarTests {
    @Test func monthDaysPast28ClampToTheMonthsLastDayEachInItsOwnEvent() {
        let rrules = ICalendar.recurrences(.monthly(MonthDaySet(days: [1, 15, 30], includesLastDay: true))).map(\.rrule)
        #expect(rrules == ["FREQ=MONTHLY;BYMONTHDAY=1,15", "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1", "FREQ=MONTHLY;BYMONTHDAY=-1"])
        #expect(ICalendar.recurrences(.yearly(month: 2, day: 29)).map(\.rrule) == ["FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1"])
        #expect(ICalendar.recurrences(.nthWeekday(ordinal: -1, weekday: .friday)).map(\.rrule) == ["FREQ=MONTHLY;BYDAY=-1FR"])
        #expect(ICalendar.recurrences(.everyWeeks(interval: 2, WeekdaySet([.tuesday, .saturday]))).map(\.rrule) == ["FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SA;WKST=MO"])
    }

    @Test func textIsEscapedAndLongLinesAreFoldedBetweenCharacters() {
        #expect(ICalendar.text("Rent, flat 3; a\\b\nnext") == #"Rent\, flat 3\; a\\b\nnext"#)
        let line = "SUMMARY:" + String(repeating: "é", count: 60)  // 8 + 120 octets
        let folded = ICalendar.fold(line).components(separatedBy: "\r\n ")
        #expect(folded.count == 2)
        #expect(folded.allSatisfy { $0.utf8.count <= 75 })
        #expect(folded.joined() == line)
    }

    @Test func anEventStartsAtItsFirstOccurrenceWithItsAlarmAndExcludedDays() throws {
        let zone = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        let rule = ReminderRule(days: .daily, times: [TimeOfDay(hour: 9, minute: 0)!], skip: [LocalDate(year: 2026, month: 11, day: 24)!])
        let now = Instant(secondsSinceEpoch: 1_795_333_500)  // 2026-11-22T07:45:00Z
        let text = ICalendar.calendar([ICalendar.Reminder(id: 4, name: "Vitamin D", rule: rule, zoneName: "UTC", zone: zone)], now: now)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.contains("UID:reminder-4-0900@remindd"))
        #expect(lines.contains("DTSTART:20261122T090000"))
        #expect(lines.contains("RRULE:FREQ=DAILY"))
        #expect(lines.contains("EXDATE:20261124T090000"))
        #expect(lines.contains("TRIGGER:PT0S"))
        #expect(lines.first == "BEGIN:VCALENDAR" && lines.dropLast().last == "END:VCALENDAR" && text.hasSuffix("\r\n"))
    }

    /// An RRULE reminder goes out as the user wrote it: its own DTSTART (COUNT counts from it) and RRULE text,
    /// with EXDATEs for the instances on skipped days.
    @Test func anRRuleIsWrittenBackUnchangedFromItsStart() throws {
        let berlin = try zone("Europe/Berlin")
        let text = "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=24"
        let rule = try RuleSpec(start: "2026-10-30T09:00", skip: "2026-12-31", rrule: text).makeRule()
        let now = Instant(secondsSinceEpoch: 1_795_333_500)  // 2026-11-22T07:45:00Z
        let calendar = ICalendar.calendar([ICalendar.Reminder(id: 7, name: "Rent", rule: rule, zoneName: "Europe/Berlin", zone: berlin)], now: now)
        let lines = calendar.components(separatedBy: "\r\n")
        #expect(lines.contains("UID:reminder-7@remindd"))
        #expect(lines.contains("DTSTART;TZID=Europe/Berlin:20261030T090000"))
        #expect(lines.contains("RRULE:" + text))
        #expect(lines.filter { $0.hasPrefix("EXDATE") } == ["EXDATE;TZID=Europe/Berlin:20261231T090000"])
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 1)
    }

    /// A calendar expression goes out as the RRULE it converts to: expanded by remindd's RFC 5545 core from the
    /// event's DTSTART, it gives the expression's own firings.
    @Test(arguments: ["Mon..Fri *-*-* 09:00", "*-*~01 18:00", "*-*~01..03 07:30", "Sat,Sun *-01,07-1..7 10:00", "*:0/20", "quarterly",
                      "2027..2028-*-15 12:00", "*-*-* 08,20:00:30"])
    func aCalendarExpressionIsWrittenAsTheRRuleItMeans(_ text: String) throws {
        let berlin = try zone("Europe/Berlin")
        let rule = try RuleSpec(onCalendar: text).makeRule()
        let now = instant("2026-11-22T07:45:00Z")
        let calendar = ICalendar.calendar([ICalendar.Reminder(id: 3, name: "Plants", rule: rule, zoneName: "Europe/Berlin", zone: berlin)], now: now)
        let lines = calendar.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        let rrule = try #require(lines.first { $0.hasPrefix("RRULE:") })
        let start = try #require(lines.first { $0.hasPrefix("DTSTART;TZID=Europe/Berlin:") }.flatMap { ICalendarTime.dateTime(String($0.split(separator: ":")[1])) })
        #expect(lines.contains("X-REMINDD-ONCALENDAR:" + ICalendar.text(try CalendarExpression(parsing: text).normalized)))
        let expanded = RecurrenceSet(start: start, rule: try RecurrenceRule(parsing: rrule)).instances(after: now, count: 40, in: berlin).map(\.instant)
        #expect(expanded == rule.occurrences(after: now, count: 40, in: berlin).map(\.instant), "\(rrule)")
    }
}

/// The reader works on the file's bytes where they lie: each line's name and parameters in upper case, folds
/// (one after another, with a space or a tab) joined, CRLF or LF, the last line without a line break, blank lines
/// skipped, and each property on the line it began on.
@Suite struct ICalendarReaderTests {
    @Test(arguments: ["\r\n", "\n"])
    func contentLinesAreReadWhereTheyLieAndJoinedWhereFolded(_ end: String) throws {
        let lines = ["BEGIN:VCALENDAR", "begin:vevent", "uid:x-1", "", "Summary;Language=de;x-a=\"b;c\":Tee", " mit", "\t Zitrone",
                     " .", "DTSTART;tzid=Europe/Berlin;tzid=Other:20261201T080000", "DESCRIPTION:a:b", "END:VEVENT", "END:VCALENDAR"]
        let calendars = try ICalendarReader.read(lines.joined(separator: end), file: "f.ics")
        let event = try #require(calendars.first?.components.first)
        #expect(calendars.count == 1 && event.name == "VEVENT" && event.line == 2)
        #expect(event.properties.map(\.name) == ["UID", "SUMMARY", "DTSTART", "DESCRIPTION"])
        #expect(event.properties.map(\.line) == [3, 5, 9, 10])
        let summary = try #require(event.first("SUMMARY"))
        #expect(summary.value == "Teemit Zitrone." && summary.parameters == ["LANGUAGE": "de", "X-A": "b;c"])
        #expect(event.first("DTSTART")?.parameters == ["TZID": "Europe/Berlin,Other"])
        #expect(event.first("DESCRIPTION")?.value == "a:b")
        var seen: [String] = []
        try ICalendarReader.forEachContentLine(lines.joined(separator: end), fail: { FileLineError(file: "", line: $0, message: $1) }) { line, number in
            seen.append("\(number) \(line)")
        }
        #expect(seen.count == 8 && seen[3] == "5 Summary;Language=de;x-a=\"b;c\":Teemit Zitrone.")
    }

    @Test func aLineThatIsNoPropertyIsRefusedWithItsText() {
        #expect(throws: FileLineError(file: "f.ics", line: 2, message: "'X-ÄRGER' is not NAME:VALUE (a content line, or a folded line without its leading space)")) {
            try ICalendarReader.read("BEGIN:VCALENDAR\r\nX-ÄRGER\r\nEND:VCALENDAR", file: "f.ics")
        }
    }
}

/// A writer folds lines at 75 octets, which may fall inside a multi-byte character: the octets are restored
/// (RFC 5545 3.1), at every byte position of 2-, 3- and 4-byte characters, folded with a space or a tab, with
/// CRLF or LF. Before, "Médicament" folded inside its "é" was imported as "M\u{FFFD}\u{FFFD}dicament".
@Suite struct FoldedCharacterTests {
    static let name = "Médicament 药 💊 ok"

    @Test(arguments: ["\r\n ", "\r\n\t", "\n "])
    func aFoldAtEveryBytePositionRestoresTheCharacters(_ fold: String) throws {
        let line = Array("SUMMARY:\(Self.name)".utf8)
        for position in 9..<line.count {
            var bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x\r\n".utf8)
            bytes += line[..<position] + Array(fold.utf8) + line[position...]
            bytes += Array("\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
            let components = try ICalendarReader.read(ICalendarReader.text(utf8: bytes), file: "f.ics").flatMap(\.components)
            #expect(components.first?.first("SUMMARY")?.text == Self.name, "folded at byte \(position) with \(fold.debugDescription)")
        }
    }

    @Test func textThatIsNotUTF8StaysReplacedAndAFoldBetweenCharactersIsLeftToTheReader() {
        #expect(ICalendarReader.text(utf8: [0x4D, 0xC3, 0x41]) == "M\u{FFFD}A")
        #expect(ICalendarReader.text(utf8: Array("SUMMARY:a\r\n b".utf8)) == "SUMMARY:a\r\n b")
    }
}

/// A parameter given twice is kept as the list it means, not the last value alone; a quoted list as written.
@Suite struct RepeatedParameterTests {
    @Test func bothValuesOfARepeatedParameterAreKept() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nATTENDEE;ROLE=CHAIR;ROLE=REQ-PARTICIPANT;DELEGATED-TO=\"a@x\",\"b@x\":mailto:c@x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let attendee = try #require(try ICalendarReader.read(text, file: "f.ics").flatMap(\.components).first?.first("ATTENDEE"))
        #expect(attendee.parameters["ROLE"] == "CHAIR,REQ-PARTICIPANT")
        #expect(attendee.parameters["DELEGATED-TO"] == "a@x,b@x")
        #expect(attendee.value == "mailto:c@x")
    }
}
