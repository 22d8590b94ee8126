/// What `remindctl import --format ics` makes of a calendar file: a reminder for each alarm of each VEVENT and
/// VTODO (or, with `all`, one at the start of each that has none), at the alarm's instants, and a line for
/// everything left out or changed on the way. Pure: the zones and "now" are given; nothing is stored here.
///
/// - An alarm relative to the start (or, `RELATED=END`, the end) fires at each instance of the event's
///   recurrence (RRULE, RDATE, EXDATE), shifted by the trigger; an absolute trigger fires once. A RECURRENCE-ID
///   override is the whole of its instance (RFC 5545 §3.8.4.4): the recurrence leaves that instance out and
///   the override, moved or not, fires by its own alarms (none: no alarm for it, as calendars show it). `REPEAT` and `DURATION` become the reminder's
///   repeats. Every alarm becomes a desktop reminder, whatever its ACTION (EMAIL and AUDIO are said so).
/// - DTSTART's TZID is the reminder's zone: a zone the system knows, or one a VTIMEZONE in the file defines
///   (Outlook's "W. Europe Standard Time"), which becomes the system zone whose offsets it gives. A recurring
///   event in UTC (`Z`) recurs in UTC; a single one, a floating time or an all-day date follows the system's
///   zone.
/// - Left out, and said so: a cancelled event, one without a date, and one whose alarms all lie in the past.
public struct CalendarImport: Sendable {
    /// A reminder to add.
    public struct Reminder: Sendable, Hashable {
        public var name: String
        public var rule: RuleSpec
        /// `rule`, checked and built (a calendar read at start uses it rather than build it again).
        public var builtRule: ReminderRule
        /// Its first firing after "now" (a calendar read at start looks at the next ones from there).
        public var firstFiring: Instant
        /// An IANA zone, or nil to follow the system's.
        public var timeZone: String?
        /// Its alarm's REPEAT and DURATION.
        public var repeating = RepeatSettings()
        /// The line of the event it came from.
        public var line: Int
        /// The event's UID (nil: it has none), and which of its alarms this is: with the RECURRENCE-ID of an
        /// override, what `import --update` finds it by again ("uid", "uid#2", "uid@20261203T100000#1").
        public var uid: String?
        public var key: String?
    }

    /// The zones the import may use: by name, and every name (to find the one a VTIMEZONE describes).
    public struct Zones: Sendable {
        public let named: @Sendable (String) -> TimeZoneRules?
        public let names: [String]
        public let system: TimeZoneRules

        public init(named: @escaping @Sendable (String) -> TimeZoneRules?, names: [String], system: TimeZoneRules) {
            (self.named, self.names, self.system) = (named, names, system)
        }
    }

    public var reminders: [Reminder] = []
    /// What was changed on the way ("its ACTION:EMAIL alarm becomes a desktop reminder").
    public var notes: [String] = []
    /// What was not imported, and why.
    public var leftOut: [String] = []

    /// Reads `text` and plans the reminders.
    /// - Throws: ``FileLineError`` for a file that is not iCalendar, or holds what cannot be read (a rule, a
    ///   date, a TZID no system zone or VTIMEZONE gives, a VALARM without TRIGGER): nothing is imported then.
    public init(_ text: String, file: String, all: Bool, now: Instant, zones: Zones) throws(FileLineError) {
        let calendars = try ICalendarReader.read(text, file: file)
        var reader = EventReader(file: file, zones: zones, now: now)
        for calendar in calendars {
            reader.timeZones.merge(calendar.components.filter { $0.name == "VTIMEZONE" }.compactMap { zone in zone.first("TZID").map { ($0.value, zone) } }) { a, _ in a }
        }
        let items = calendars.flatMap { $0.components.filter { $0.name == "VEVENT" || $0.name == "VTODO" } }
        var overrides: [String: [ICalendarComponent]] = [:]
        for item in items where item.first("RECURRENCE-ID") != nil {
            overrides[item.first("UID")?.value ?? "", default: []].append(item)
        }
        var names: [String: Int] = [:]
        for item in items {
            // An override (RECURRENCE-ID) is the whole of its instance: the master leaves that instance out, and
            // the override is planned as a single event, with its own alarms (RFC 5545 §3.8.4.4).
            let isOverride = item.first("RECURRENCE-ID") != nil
            let planned = try reader.plan(item, overrides: isOverride ? [] : overrides[item.first("UID")?.value ?? ""] ?? [], all: all)
            notes += planned.notes
            if let reason = planned.leftOut { leftOut.append(reason); continue }
            for var reminder in planned.reminders {
                // Two events of one name (a weekly "Standup" in two calendars): "Standup (2)".
                let key = reminder.name.lowercased()
                names[key, default: 0] += 1
                if names[key]! > 1 { reminder.name += " (\(names[key]!))" }
                reminders.append(reminder)
            }
        }
    }
}

/// Plans one VEVENT or VTODO.
private struct EventReader {
    let file: String
    let zones: CalendarImport.Zones
    let now: Instant
    var timeZones: [String: ICalendarComponent] = [:]
    /// VTIMEZONE TZIDs already matched to a system zone.
    private var matched: [String: String] = [:]

    init(file: String, zones: CalendarImport.Zones, now: Instant) {
        (self.file, self.zones, self.now) = (file, zones, now)
    }

    struct Planned {
        var reminders: [CalendarImport.Reminder] = []
        var notes: [String] = []
        var leftOut: String?
    }

    private func fail(_ line: Int, _ message: String) -> FileLineError { FileLineError(file: file, line: line, message: message) }

    /// A date or date-time value: local in the event's zone, the zone's name (nil: floating), whether all-day.
    private struct Moment {
        var local: LocalDateTime
        var zoneName: String?
        var allDay: Bool
    }

    mutating func plan(_ item: ICalendarComponent, overrides: [ICalendarComponent], all: Bool) throws(FileLineError) -> Planned {
        let summary = String(Self.oneLine(item.first("SUMMARY")?.text ?? "").prefix(ReminderName.maximumLength - 40))
        var name = summary.isEmpty ? (item.name == "VTODO" ? "Untitled task" : "Untitled event") : summary
        // A name `add` would refuse (only digits, which read as an id) gets a word before it.
        do { name = try ReminderName.checked(name) } catch { name = "Event \(name)" }
        let label = "line \(item.line): \"\(name)\""
        var planned = Planned()
        if item.first("STATUS")?.value.uppercased() == "CANCELLED" {
            if let instance = item.first("RECURRENCE-ID") {
                // The recurrence leaves the instance out (see the master's exceptions): said, not left out.
                planned.notes.append("\(label): the instance of \(instance.value.prefix(20)) is cancelled")
            } else {
                planned.leftOut = "\(label): cancelled"
            }
            return planned
        }
        guard let startProperty = item.first("DTSTART") ?? (item.name == "VTODO" ? item.first("DUE") : nil) else {
            planned.leftOut = "\(label): no DTSTART\(item.name == "VTODO" ? " or DUE" : ""), so no time to remind"
            return planned
        }
        let timing = try timing(of: item, startingAt: startProperty, overrides: overrides)
        var alarms = item.components.filter { $0.name == "VALARM" }
        if alarms.isEmpty {
            guard all else {
                planned.leftOut = "\(label): no alarm (import with --all to be reminded at its start)"
                return planned
            }
            alarms = [ICalendarComponent(name: "VALARM", line: item.line, properties: [
                ICalendarProperty(name: "TRIGGER", parameters: [:], value: "PT0S", line: item.line),
            ])]
        }
        for (index, alarm) in alarms.enumerated() {
            let named = Named(name: name, label: label, alarmIndex: index, alarmCount: alarms.count)
            if let reminder = try reminder(for: alarm, of: item, named, timing, notes: &planned.notes) { planned.reminders.append(reminder) }
        }
        if planned.reminders.isEmpty {
            let when = timing.recurs ? "the recurrence has ended" : "it was on \(timing.zone.localDateTime(at: timing.startInstant).date)"
            planned.leftOut = "\(label): every alarm lies in the past (\(when))"
        }
        return planned
    }

    /// When an item's alarms fire from: its start (in its zone), its length, its recurrence.
    private struct Timing {
        var start: LocalDateTime
        /// An IANA zone, or nil to follow the system's.
        var zoneName: String?
        var zone: TimeZoneRules
        var startInstant: Instant
        /// Its length (for `RELATED=END`).
        var endSeconds: Int
        var rule: RecurrenceRule?
        var ruleText: String?
        var dates: [LocalDateTime]
        /// The EXDATEs and the instances its overrides replace, in order.
        var exceptions: [LocalDateTime]

        var recurs: Bool { rule != nil || !dates.isEmpty }
    }

    /// An item's name, and which of its alarms is planned.
    private struct Named {
        var name: String
        /// `line 12: "Standup"`, to begin what is said about it.
        var label: String
        var alarmIndex: Int
        var alarmCount: Int
    }

    private mutating func timing(of item: ICalendarComponent, startingAt startProperty: ICalendarProperty, overrides: [ICalendarComponent]) throws(FileLineError) -> Timing {
        var start = try moment(startProperty)
        if start.zoneName == "UTC", item.first("RRULE") == nil, item.first("RDATE") == nil, overrides.isEmpty {
            // A single event in UTC (as Google writes them) is at an instant: the reminder follows the system
            // zone, at that instant's local time there.
            start = Moment(local: zones.system.localDateTime(at: Instant(secondsSinceEpoch: start.local.localSeconds)), zoneName: nil, allDay: false)
        }
        let zone = try rules(start.zoneName, line: startProperty.line)
        var timing = Timing(
            start: start.local, zoneName: start.zoneName, zone: zone, startInstant: zone.resolve(start.local),
            endSeconds: try duration(of: item, start: start, zone: zone), dates: [], exceptions: [])
        // The recurrence, with the overrides of single instances.
        if let property = item.first("RRULE") {
            do { timing.rule = try RecurrenceRule(parsing: property.value) } catch { throw fail(property.line, "RRULE: \(error.message)") }
            timing.ruleText = property.value
        }
        for property in item.all("RDATE") { timing.dates += try moments(property, in: start.zoneName, zone: zone) }
        var exceptions: Set<LocalDateTime> = []
        for property in item.all("EXDATE") { exceptions.formUnion(try moments(property, in: start.zoneName, zone: zone)) }
        for override in overrides {
            guard let id = override.first("RECURRENCE-ID") else { continue }
            exceptions.formUnion(try moments(id, in: start.zoneName, zone: zone))
        }
        timing.exceptions = exceptions.sorted()
        return timing
    }

    /// The reminder of one alarm of an item, or nil when it lies in the past.
    private func reminder(
        for alarm: ICalendarComponent, of item: ICalendarComponent, _ named: Named, _ timing: Timing, notes: inout [String]
    ) throws(FileLineError) -> CalendarImport.Reminder? {
        guard let trigger = alarm.first("TRIGGER") else {
            throw fail(alarm.line, "a VALARM without TRIGGER: add e.g. TRIGGER:-PT15M, or remove the alarm")
        }
        if let action = alarm.first("ACTION")?.value.uppercased(), action != "DISPLAY" {
            notes.append("\(named.label): its ACTION:\(action.prefix(20)) alarm becomes a desktop reminder")
        }
        let (offset, absolute, when) = try self.offset(of: trigger, timing, described: named.alarmCount > 1)
        // An event's alarm is a recurrence (of one instance, when it does not recur) with the alarm's offset, at
        // its start too: the announcement says the event's own time, and offers no "taken". Made from the parts
        // read, as `makeRule` makes it from the spec's text (which is what is stored).
        let (dates, exceptions) = absolute ? ([], []) : (timing.dates, timing.exceptions)
        let spec = RuleSpec(
            start: timing.start.description, rrule: absolute ? "-" : timing.ruleText ?? "-",
            rdate: Self.list(dates), exdate: Self.list(exceptions), alarm: offset.text)
        let made: ReminderRule
        do throws(RuleSpecError) {
            let checked: AlarmOffset
            do { checked = try offset.checkedLength() } catch { throw RuleSpecError("invalid --rrule: \(error.message)") }
            let set = try RuleSpec.recurrenceSet(start: timing.start, rule: absolute ? nil : timing.rule, alarm: checked, dates: dates, exceptions: exceptions)
            made = ReminderRule(days: .recurrence(set), times: [], start: timing.start)
        } catch { throw fail(trigger.line, error.message) }
        guard let first = made.nextOccurrence(after: now, in: timing.zone) else { return nil }
        var reminder = CalendarImport.Reminder(
            name: named.alarmCount > 1 ? "\(named.name) (\(when))" : named.name, rule: spec, builtRule: made, firstFiring: first.instant,
            timeZone: timing.zoneName, line: item.line)
        if let uid = item.first("UID")?.value, !uid.isEmpty {
            reminder.uid = uid
            reminder.key = uid + (item.first("RECURRENCE-ID").map { "@" + $0.value } ?? "") + (named.alarmIndex == 0 ? "" : "#\(named.alarmIndex + 1)")
        }
        if let plan = try repeatPlan(of: alarm, label: named.label, notes: &notes) { reminder.repeating.plan = plan }
        return reminder
    }

    /// A TRIGGER as an offset from the item's start, whether it is an absolute instant, and (when `described`:
    /// the item has several alarms) what tells it apart in its name.
    private func offset(of trigger: ICalendarProperty, _ timing: Timing, described: Bool) throws(FileLineError) -> (AlarmOffset, absolute: Bool, when: String) {
        let absolute = trigger.parameters["VALUE"]?.uppercased() == "DATE-TIME" || trigger.value.uppercased().hasSuffix("Z") && trigger.value.count >= 15
        guard absolute else {
            var offset: AlarmOffset
            do { offset = try AlarmOffset(parsing: trigger.value) } catch { throw fail(trigger.line, "TRIGGER: \(error.message)") }
            if trigger.parameters["RELATED"]?.uppercased() == "END" { offset = offset.adding(seconds: timing.endSeconds) }
            return (offset, false, described ? offset.words : "")
        }
        guard trigger.value.uppercased().hasSuffix("Z"), let local = ICalendarTime.dateTime(String(trigger.value.uppercased().dropLast())) else {
            throw fail(trigger.line, "TRIGGER '\(trigger.value.prefix(30))': an absolute trigger is a UTC date-time such as 20261224T170000Z")
        }
        // Once (RFC 5545: an absolute trigger does not repeat with the instances): the first instance's alarm, at
        // that offset from its start.
        let instant = Instant(secondsSinceEpoch: local.localSeconds)
        let offset = AlarmOffset(days: 0, seconds: Int(instant.secondsSinceEpoch - timing.startInstant.secondsSinceEpoch))
        return (offset, true, described ? "at \(timing.zone.localDateTime(at: instant).description)" : "")
    }

    /// An alarm's REPEAT and DURATION as the reminder's repeats; one that remindd cannot repeat (under a minute or
    /// over a day apart) is said in `notes`.
    private func repeatPlan(of alarm: ICalendarComponent, label: String, notes: inout [String]) throws(FileLineError) -> RepeatPlan? {
        guard let repeats = alarm.first("REPEAT"), let count = Int(repeats.value), count > 0, let every = alarm.first("DURATION") else { return nil }
        let interval: AlarmOffset
        do { interval = try AlarmOffset(parsing: every.value) } catch { throw fail(every.line, "DURATION: \(error.message)") }
        let seconds = Int64(interval.days) * 86400 + Int64(interval.seconds)
        guard seconds >= 60, seconds <= 86400 else {
            let words = interval.words.hasSuffix(" after") ? String(interval.words.dropLast(" after".count)) : interval.words
            notes.append("\(label): its alarm repeats every \(words): remindd repeats from 1 minute to 24 hours apart, so it does not repeat")
            return nil
        }
        return RepeatPlan(intervalSeconds: seconds, maximum: min(count, 100))
    }

    /// The event's length in seconds (DTEND, DUE or DURATION; an all-day event a day), for `RELATED=END`.
    private mutating func duration(of item: ICalendarComponent, start: Moment, zone: TimeZoneRules) throws(FileLineError) -> Int {
        if let end = item.first("DTEND") ?? (item.name == "VTODO" && item.first("DTSTART") != nil ? item.first("DUE") : nil) {
            let moment = try moment(end)
            let endZone = try rules(moment.zoneName, line: end.line)
            return Int(endZone.resolve(moment.local).secondsSinceEpoch - zone.resolve(start.local).secondsSinceEpoch)
        }
        if let length = item.first("DURATION") {
            do {
                let offset = try AlarmOffset(parsing: length.value)
                return offset.days * 86400 + offset.seconds
            } catch { throw fail(length.line, "DURATION: \(error.message)") }
        }
        return start.allDay ? 86400 : 0
    }

    /// A DTSTART-like value.
    private mutating func moment(_ property: ICalendarProperty) throws(FileLineError) -> Moment {
        let value = property.value.uppercased()
        if property.parameters["VALUE"]?.uppercased() == "DATE" || value.count == 8 {
            guard let date = ICalendarTime.date(value) else { throw fail(property.line, "\(property.name) '\(property.value.prefix(30))' is not a date such as 20261224") }
            return Moment(local: LocalDateTime(date: date, time: TimeOfDay(hour: 0, minute: 0)!), zoneName: nil, allDay: true)
        }
        let utc = value.hasSuffix("Z")
        guard let local = ICalendarTime.dateTime(utc ? String(value.dropLast()) : value) else {
            throw fail(property.line, "\(property.name) '\(property.value.prefix(30))' is not a date-time such as 20261224T180000")
        }
        if utc { return Moment(local: local, zoneName: "UTC", allDay: false) }
        guard let tzid = property.parameters["TZID"] else { return Moment(local: local, zoneName: nil, allDay: false) }
        return Moment(local: local, zoneName: try zoneName(tzid, line: property.line), allDay: false)
    }

    /// The values of an RDATE, EXDATE or RECURRENCE-ID, as local times in the event's zone.
    private mutating func moments(_ property: ICalendarProperty, in zoneName: String?, zone: TimeZoneRules) throws(FileLineError) -> [LocalDateTime] {
        var result: [LocalDateTime] = []
        for item in property.value.split(separator: ",") {
            // A PERIOD (start/end or start/duration): its start.
            var single = property
            single.value = String(item.split(separator: "/").first ?? item)
            let moment = try moment(single)
            if moment.zoneName == zoneName || moment.allDay {
                result.append(moment.local)
            } else {
                result.append(zone.localDateTime(at: try rules(moment.zoneName, line: property.line).resolve(moment.local)))
            }
        }
        return result
    }

    /// A TZID as a system zone: its own name, or the zone a VTIMEZONE of the file gives the offsets of.
    private mutating func zoneName(_ tzid: String, line: Int) throws(FileLineError) -> String {
        if zones.named(tzid) != nil { return tzid }
        if let known = matched[tzid] { return known }
        guard let definition = timeZones[tzid] else {
            throw fail(line, "TZID '\(tzid.prefix(60))' is not a zone this system knows, and the file has no VTIMEZONE for it")
        }
        let found = try VTimeZoneMatch.zone(for: definition, zones: zones, now: now, fail: fail)
        matched[tzid] = found
        return found
    }

    private func rules(_ name: String?, line: Int) throws(FileLineError) -> TimeZoneRules {
        guard let name else { return zones.system }
        guard let rules = zones.named(name) else { throw fail(line, "the zone \(quotedInput(name)) cannot be read") }
        return rules
    }

    private static func list(_ values: [LocalDateTime]) -> String? {
        values.isEmpty ? nil : values.map(\.description).joined(separator: ",")
    }

    /// The text on one line: runs of line breaks and control characters as one space.
    private static func oneLine(_ text: String) -> String {
        ReminderName.oneLine(text).withoutSurroundingSpaces
    }
}
