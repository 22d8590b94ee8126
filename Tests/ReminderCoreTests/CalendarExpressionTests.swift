import ReminderCore
import Testing

/// systemd calendar expressions (`--on-calendar`): the forms systemd.time(7) documents, normalized as
/// `systemd-analyze calendar` prints them, and their next firings (Tests/e2e/test_oncalendar_oracle.py compares
/// random ones with systemd itself).
@Suite("systemd calendar expressions")
struct CalendarExpressionTests {
    static let normalized: [(String, String)] = [
        ("Mon..Fri *-*-* 09:00", "Mon..Fri *-*-* 09:00:00"),
        ("*-*~01", "*-*~01 00:00:00"),
        ("*:0/15", "*-*-* *:00/15:00"),
        ("quarterly", "*-01,04,07,10-01 00:00:00"),
        ("weekly", "Mon *-*-* 00:00:00"),
        ("Sat,Sun 10:00 Europe/Berlin", "Sat,Sun *-*-* 10:00:00 Europe/Berlin"),
        ("12-24 18:00 UTC", "*-12-24 18:00:00 UTC"),
        ("26-12-01", "2026-12-01 00:00:00"),
        ("Mon *-05~07/1", "Mon *-05~07/1 00:00:00"),
        ("*-*-1..7/2", "*-*-01..07/2 00:00:00"),
        ("Wednesday,Mon..Tue 8:5:3", "Mon..Wed *-*-* 08:05:03"),
        ("*-*-* 08..08,23:13", "*-*-* 08,23:13:00"),
        ("*:*:*", "*-*-* *:*:*"),
    ]

    @Test(arguments: normalized.indices)
    func anExpressionIsNormalizedAsSystemdPrintsIt(_ index: Int) throws {
        let (text, expected) = Self.normalized[index]
        #expect(try CalendarExpression(parsing: text).normalized == expected)
    }

    /// What systemd refuses, with a line that says what to write.
    @Test(arguments: [
        ("Fri..Mon", "goes backwards"), ("*-*-32", "day 32 is out of range"), ("*-*-* 24:00", "hour 24 is out of range"),
        ("*-*-*/2", "cannot read"), ("*/2:00", "cannot read"), ("2026-12-24 9", "cannot read"), ("*-*-* 23:59:60", "second 60 is out of range"),
        ("*:0/0", "step of 0"), ("*-*~29", "day 29 is out of range"), ("*-*~01/1", "repeats not even once"), ("", "empty"),
        ("*-*-* 12:00:00.5", "fractions of a second"), ("Mon..", "no end"), ("1969-01-01", "year 1969 is out of range"),
    ])
    func whatSystemdRefusesIsRefused(_ text: String, _ message: String) {
        #expect(throws: RecurrenceError.self) { try CalendarExpression(parsing: text) }
        do { _ = try CalendarExpression(parsing: text) } catch { #expect(error.message.contains(message), "\(error.message)") }
    }

    private func next(_ text: String, _ zoneName: String, after: String, count: Int = 3) throws -> [String] {
        let expression = try CalendarExpression(parsing: text)
        let rules = try zone(zoneName)
        var cursor = instant(after)
        var found: [String] = []
        while found.count < count, let next = expression.next(after: cursor, in: rules) {
            found.append(ISO8601.format(next.instant, offsetSeconds: rules.offset(at: next.instant), zulu: false))
            cursor = next.instant
        }
        return found
    }

    @Test func theLastDayOfEachMonthAndShortMonthsSkipped() throws {
        #expect(try next("*-*~01 18:00", "UTC", after: "2027-01-30T00:00:00Z") == [
            "2027-01-31T18:00:00+00:00", "2027-02-28T18:00:00+00:00", "2027-03-31T18:00:00+00:00",
        ])
        #expect(try next("*-*-31 18:00", "UTC", after: "2027-01-30T00:00:00Z") == [
            "2027-01-31T18:00:00+00:00", "2027-03-31T18:00:00+00:00", "2027-05-31T18:00:00+00:00",
        ])
    }

    /// As systemd: a time the spring change skips does not fire that day; a repeated one fires once, at the first.
    @Test func aTimeInADSTGapIsSkippedAndARepeatedOneFiresOnce() throws {
        #expect(try next("*-*-* 02:30", "Europe/Berlin", after: "2027-03-27T12:00:00+01:00") == [
            "2027-03-29T02:30:00+02:00", "2027-03-30T02:30:00+02:00", "2027-03-31T02:30:00+02:00",
        ])
        #expect(try next("*-*-* 02:30", "Europe/Berlin", after: "2027-10-30T12:00:00+02:00") == [
            "2027-10-31T02:30:00+02:00", "2027-11-01T02:30:00+01:00", "2027-11-02T02:30:00+01:00",
        ])
    }

    /// systemd's search goes round in circles here ("Infinite loop in calendar calculation") and never starts the
    /// timer again; remindd fires at the next time that exists.
    @Test func whereSystemdGivesUpTheReminderStillFires() throws {
        #expect(try next("11/11,01:05..09/1", "Europe/Berlin", after: "2026-03-28T21:32:59Z", count: 2) == [
            "2026-03-29T01:05:00+01:00", "2026-03-29T01:06:00+01:00",
        ])
    }

    @Test func anExpressionBeyondTheYear2199NeverFires() throws {
        #expect(try next("2199-12-31 23:59", "UTC", after: "2200-01-01T00:00:00Z").isEmpty)
        #expect(try next("*-02-30", "UTC", after: "2026-01-01T00:00:00Z").isEmpty)
    }
}
