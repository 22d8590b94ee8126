/// Reminders as iCalendar (RFC 5545) events, for calendars and other programs: one VEVENT per time of day
/// (and per clamped day of month) with an RRULE, EXDATEs for skipped days, UNTIL, TZID with a VTIMEZONE,
/// and a VALARM at the firing time. Pure: the caller gives the rules, zones, skips and "now".
///
/// What iCalendar cannot say exactly: a firing moved by a DST gap is left to the reader (RFC 5545 3.3.5
/// reads a missing local time with the offset before the gap, as remindd does); suppression by an earlier
/// log, snoozes and repeats are not in the file; a monthly rule with two days that clamp to the same last
/// day (30 and 31) shows that day twice.
public enum ICalendar {
    /// One reminder to write.
    public struct Reminder: Sendable {
        public var id: Int64
        public var name: String
        public var rule: ReminderRule
        public var zoneName: String
        public var zone: TimeZoneRules
        /// Occurrences the user skipped ahead (their instants): written as EXDATEs.
        public var skipped: [Instant]
        /// What the event says beyond its name (the dose: "Take 2 tablet"), in DESCRIPTION and the alarm's text.
        public var description: String?

        public init(
            id: Int64, name: String, rule: ReminderRule, zoneName: String, zone: TimeZoneRules, skipped: [Instant] = [], description: String? = nil
        ) {
            (self.id, self.name, self.rule, self.zoneName, self.zone, self.skipped) = (id, name, rule, zoneName, zone, skipped)
            self.description = description
        }
    }

    /// A VCALENDAR with every reminder's events, starting with their first occurrence after `now`, and a
    /// VTIMEZONE for each zone with its transitions over the next `years`.
    public static func calendar(_ reminders: [Reminder], now: Instant, years: Int = 3) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//remindd//remindctl export//EN", "CALSCALE:GREGORIAN"]
        var zones: [String: TimeZoneRules] = [:]
        var events: [String] = []
        for reminder in reminders {
            let written = self.events(reminder, now: now)
            if !written.isEmpty { zones[reminder.zoneName] = reminder.zone }
            events += written
        }
        for name in zones.keys.sorted() where name != "UTC" {
            lines += timeZone(name, zones[name]!, from: now.adding(seconds: -366 * 86400), through: now.adding(seconds: Int64(years) * 366 * 86400))
        }
        lines += events
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// The VEVENTs of one reminder: one per time of day, and per clamped day of month; an RFC 5545 rule as one
    /// event with its DTSTART, RRULE and RDATEs as given.
    static func events(_ reminder: Reminder, now: Instant) -> [String] {
        if case .recurrence(let set) = reminder.rule.days { return recurrenceEvent(reminder, set, now: now) }
        if case .calendar(let expression) = reminder.rule.days { return calendarEvent(reminder, expression, now: now) }
        var events: [String] = []
        for time in reminder.rule.times {
            for (index, recurrence) in recurrences(reminder.rule.days).enumerated() {
                var single = ReminderRule(days: recurrence.days, times: [time], start: reminder.rule.start, until: reminder.rule.until,
                                          skip: reminder.rule.skippedDayNumbers.map(LocalDate.init(dayNumber:)))
                single.preset = nil
                guard let first = single.nextOccurrence(after: now.adding(seconds: -1), in: reminder.zone) else { continue }
                let start = LocalDateTime(date: first.scheduledDate, time: time)
                var event = eventHead(reminder, uid: "reminder-\(reminder.id)-\(compact(time))\(index > 0 ? "-\(index)" : "")@remindd", start: start, now: now)
                if let rrule = recurrence.rrule {
                    let until = reminder.rule.until.map { ";UNTIL=" + utc(reminder.zone.resolve(LocalDateTime(date: $0, time: TimeOfDay(hour: 23, minute: 59, second: 59)!))) } ?? ""
                    event.append("RRULE:" + rrule + until)
                    let skippedDays = reminder.rule.skippedDayNumbers.map { LocalDateTime(date: LocalDate(dayNumber: $0), time: time) }
                    let skippedAhead = reminder.skipped.map { reminder.zone.localDateTime(at: $0) }.filter { $0.time == time }
                    for excluded in (skippedDays + skippedAhead).filter({ $0 >= start }).sorted() {
                        event.append("EXDATE\(zoneParameter(reminder)):\(local(excluded))")
                    }
                }
                events += event + eventTail(reminder)
            }
        }
        return events
    }

    /// An RFC 5545 rule's event: DTSTART and RRULE unchanged (COUNT counts from that start), RDATEs, and
    /// EXDATEs for the instances on skipped days and those skipped ahead.
    private static func recurrenceEvent(_ reminder: Reminder, _ set: RecurrenceSet, now: Instant) -> [String] {
        guard reminder.rule.nextOccurrence(after: now.adding(seconds: -1), in: reminder.zone) != nil else { return [] }
        var event = eventHead(reminder, uid: "reminder-\(reminder.id)@remindd", start: set.start, now: now)
        if let rule = set.rule {
            let text = rule.text.withoutSurroundingSpaces
            event.append(text.uppercased().hasPrefix("RRULE:") ? text : "RRULE:" + text)
        }
        event += set.dates.map { "RDATE\(zoneParameter(reminder)):\(local($0))" }
        return event + exclusions(reminder, plus: set.exceptions, from: set.start) + eventTail(reminder, trigger: set.alarm ?? .zero)
    }

    /// A calendar expression's event: from its next firing, as the RRULE it converts to (with its own text in
    /// `X-REMINDD-ONCALENDAR`); years that are no unbroken run, as RDATEs of the next 100 firings.
    private static func calendarEvent(_ reminder: Reminder, _ expression: CalendarExpression, now: Instant) -> [String] {
        let firings = reminder.rule.occurrences(after: now.adding(seconds: -1), count: expression.recurrenceRule == nil ? 100 : 1, in: reminder.zone)
        guard let first = firings.first else { return [] }
        let start = LocalDateTime(date: first.scheduledDate, time: first.scheduledTime)
        var event = eventHead(reminder, uid: "reminder-\(reminder.id)@remindd", start: start, now: now)
        if let rule = expression.recurrenceRule {
            event.append("RRULE:" + rule)
        } else {
            event += firings.dropFirst().map { "RDATE\(zoneParameter(reminder)):\(local(LocalDateTime(date: $0.scheduledDate, time: $0.scheduledTime)))" }
        }
        event.append("X-REMINDD-ONCALENDAR:" + text(expression.normalized))
        return event + exclusions(reminder, from: start) + eventTail(reminder)
    }

    /// EXDATEs, from `start` on, for the firings on the rule's skipped days, those skipped ahead, and `more`
    /// (an RFC 5545 rule's own EXDATEs).
    private static func exclusions(_ reminder: Reminder, plus more: Set<LocalDateTime> = [], from start: LocalDateTime) -> [String] {
        let unskipped = ReminderRule(days: reminder.rule.days, times: [], start: reminder.rule.start)
        let onSkippedDays = reminder.rule.skippedDayNumbers.flatMap { day in
            unskipped.occurrences(on: LocalDate(dayNumber: day), in: reminder.zone).map(\.localDateTime)
        }
        let excluded = more.union(onSkippedDays).union(reminder.skipped.map { reminder.zone.localDateTime(at: $0) })
        return excluded.filter { $0 >= start }.sorted().map { "EXDATE\(zoneParameter(reminder)):\(local($0))" }
    }

    private static func eventHead(_ reminder: Reminder, uid: String, start: LocalDateTime, now: Instant) -> [String] {
        ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:\(utc(now))", "SUMMARY:\(text(reminder.name))", "DTSTART\(zoneParameter(reminder)):\(local(start))"]
            + (reminder.description.map { ["DESCRIPTION:" + text($0)] } ?? [])
    }

    /// The alarm (at the event's start, or `trigger` from it), and the event's end.
    private static func eventTail(_ reminder: Reminder, trigger: AlarmOffset = .zero) -> [String] {
        let said = reminder.name + (reminder.description.map { ": " + $0 } ?? "")
        return ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(text(said))", "TRIGGER:\(trigger.text)", "END:VALARM", "END:VEVENT"]
    }

    /// The RRULEs that together give a day selector's days (nil: once), with the selector each one stands for.
    static func recurrences(_ days: DaySelector) -> [(rrule: String?, days: DaySelector)] {
        switch days {
        case .daily: return [("FREQ=DAILY", days)]
        case .weekly(let set): return [("FREQ=WEEKLY;BYDAY=" + byDay(set), days)]
        case .monthly(let set):
            var found: [(String?, DaySelector)] = []
            let plain = set.days.filter { $0 <= 28 }
            if !plain.isEmpty {
                found.append(("FREQ=MONTHLY;BYMONTHDAY=" + plain.map(String.init).joined(separator: ","), .monthly(MonthDaySet(days: plain))))
            }
            // 29-31 clamp to the month's last day: the last of the days that exist, up to that day.
            for day in set.days where day > 28 {
                found.append(("FREQ=MONTHLY;BYMONTHDAY=" + (28...day).map(String.init).joined(separator: ",") + ";BYSETPOS=-1", .monthly(MonthDaySet(days: [day]))))
            }
            if set.includesLastDay { found.append(("FREQ=MONTHLY;BYMONTHDAY=-1", .monthly(MonthDaySet(days: [], includesLastDay: true)))) }
            return found
        case .nthWeekday(let ordinal, let weekday): return [("FREQ=MONTHLY;BYDAY=\(ordinal)\(code(weekday))", days)]
        case .yearly(let month, let day) where month == 2 && day == 29:
            return [("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1", days)]
        case .yearly(let month, let day): return [("FREQ=YEARLY;BYMONTH=\(month);BYMONTHDAY=\(day)", days)]
        case .everyDays(let interval): return [("FREQ=DAILY;INTERVAL=\(interval)", days)]
        case .everyWeeks(let interval, let set): return [("FREQ=WEEKLY;INTERVAL=\(interval);BYDAY=\(byDay(set));WKST=MO", days)]
        case .once: return [(nil, days)]
        case .recurrence: return []  // written as one event of its own (recurrenceEvent)
        case .calendar: return []  // not said in RFC 5545 (see calendar(_:now:years:))
        case .asNeeded: return []  // no occurrences: nothing on a calendar
        }
    }

    /// A VTIMEZONE: one observance per transition in the range, or one fixed offset.
    static func timeZone(_ name: String, _ zone: TimeZoneRules, from: Instant, through: Instant) -> [String] {
        var lines = ["BEGIN:VTIMEZONE", "TZID:\(name)"]
        var instant = from
        var found = false
        while let transition = zone.nextTransition(after: instant), transition <= through {
            let before = zone.offset(at: transition.adding(seconds: -1)), after = zone.offset(at: transition)
            let kind = after > before ? "DAYLIGHT" : "STANDARD"
            let localStart = LocalDateTime(localSeconds: transition.secondsSinceEpoch + Int64(before))
            lines += ["BEGIN:\(kind)", "DTSTART:\(local(localStart))", "TZOFFSETFROM:\(offset(before))", "TZOFFSETTO:\(offset(after))", "END:\(kind)"]
            instant = transition
            found = true
        }
        if !found {
            let fixed = zone.offset(at: from)
            lines += ["BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:\(offset(fixed))", "TZOFFSETTO:\(offset(fixed))", "END:STANDARD"]
        }
        lines.append("END:VTIMEZONE")
        return lines
    }

    // MARK: Values

    private static func zoneParameter(_ reminder: Reminder) -> String { reminder.zoneName == "UTC" ? "" : ";TZID=\(reminder.zoneName)" }

    private static func byDay(_ set: WeekdaySet) -> String { set.weekdays.map(code).joined(separator: ",") }

    private static func code(_ weekday: Weekday) -> String { String(weekday.shortName.prefix(2)).uppercased() }

    private static func compact(_ time: TimeOfDay) -> String { String(time.description.filter { $0 != ":" }) }

    /// `20261122T090000` (a local date-time; in UTC for zone UTC, with `Z`).
    public static func local(_ value: LocalDateTime) -> String {
        value.date.description.filter { $0 != "-" } + "T" + ISO8601.pad(value.time.secondsSinceMidnight / 3600, 2)
            + ISO8601.pad(value.time.secondsSinceMidnight / 60 % 60, 2) + ISO8601.pad(value.time.secondsSinceMidnight % 60, 2)
    }

    static func utc(_ instant: Instant) -> String { local(LocalDateTime(localSeconds: instant.secondsSinceEpoch)) + "Z" }

    private static func offset(_ seconds: Int) -> String { ISO8601.formatOffset(seconds).filter { $0 != ":" } }

    /// A TEXT value: backslash, semicolon, comma and line breaks escaped.
    static func text(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// A content line folded to 75 octets (RFC 5545 3.1), never inside a UTF-8 sequence.
    static func fold(_ line: String) -> String {
        var lines: [String] = []
        var current = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            if octets + size > (lines.isEmpty ? 75 : 74) {
                lines.append(current)
                current = ""
                octets = 0
            }
            current.append(character)
            octets += size
        }
        lines.append(current)
        return lines.joined(separator: "\r\n ")
    }
}
