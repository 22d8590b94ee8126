/// remindd's items in a linked collection: a vdir (one iCalendar item per file) that vdirsyncer keeps in step
/// with a CalDAV server, so that every device's remindd, and the task apps of the phone, see the same reminders.
///
/// - A reminder is one VTODO, its file named by its UID: what any client shows (SUMMARY, DTSTART, DUE, RRULE,
///   RDATE, EXDATE, a VALARM at its time) and, for other remindd devices, what remindd itself needs in `X-REMINDD-`
///   properties (the rule as `add` took it, zone, window, repeats, urgency, enabled, dose; a log's amount). Rewritten in place, it keeps
///   every property and component remindd does not own (another client's categories, its own alarms, overrides).
///   A reminder's command (`--exec`) is never written: a synced file must not make another machine run a program.
/// - Each log and each skip is an item of its own, a VJOURNAL related to its reminder (`RELATED-TO`): a dose
///   logged on two devices is two items, never an edit of one file that a sync conflict could lose.
///
/// Pure: the caller gives the rules, the zone and the instants. Text read back is untrusted: every value is
/// checked as `add` and `log` check theirs.
public enum CollectionItem {
    /// A reminder as its item says it.
    public struct Reminder: Sendable, Hashable {
        public var uid: String
        public var name: String
        public var rule: RuleSpec
        /// nil: it follows the system zone of each device.
        public var timeZone: String?
        public var enabled: Bool
        public var windowSeconds: Int64?
        /// When it was added (CREATED): occurrences before it are not the reminder's, on any device.
        public var created: Instant?
        /// Its parts' settings that travel (each part's `X-REMINDD-` properties: repeats, urgency, dose, limits,
        /// course); what does not travel is unset (``Delivery/merging(synced:)``).
        public var delivery: Delivery

        public init(
            uid: String, name: String, rule: RuleSpec, timeZone: String?, enabled: Bool = true, windowSeconds: Int64? = nil, created: Instant? = nil,
            delivery: Delivery = Delivery()
        ) {
            (self.uid, self.name, self.rule, self.timeZone, self.enabled) = (uid, name, rule, timeZone, enabled)
            (self.windowSeconds, self.created, self.delivery) = (windowSeconds, created, delivery)
        }
    }

    /// A log (taken) or a skip of one of the collection's reminders.
    public struct Record: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable {
            case taken, skipped
        }

        public var uid: String
        public var kind: Kind
        /// The reminder's UID.
        public var reminder: String
        /// Taken: when; skipped: when the user skipped it.
        public var at: Instant
        /// Taken: the zone in effect then.
        public var timeZone: String
        /// Skipped, or taken late: the occurrence's instant.
        public var occurrence: Instant?
        /// Skipped: the user's reason.
        public var reason: String?
        /// Taken: how much, in thousandths of the reminder's dose unit (X-REMINDD-AMOUNT, as a decimal).
        public var amount: Int64?

        public init(uid: String, kind: Kind, reminder: String, at: Instant, timeZone: String, occurrence: Instant? = nil, reason: String? = nil) {
            (self.uid, self.kind, self.reminder, self.at, self.timeZone, self.occurrence, self.reason) = (uid, kind, reminder, at, timeZone, occurrence, reason)
        }
    }

    /// What an item holds.
    public enum Content: Sendable, Hashable {
        case reminder(Reminder)
        case record(Record)
        /// A month of a reminder's logs and skips (``CollectionArchive``).
        case archive(CollectionArchive)
        /// One occurrence of a reminder as a plain task (``OccurrenceTask``).
        case occurrence(OccurrenceTask.Read)
        /// Not remindd's (another client's task or event): its UID.
        case foreign(String)
    }

    /// The properties remindd owns in a reminder's VTODO (replaced when it is rewritten); the rest are kept.
    static let owned: Set<String> = [
        "UID", "DTSTAMP", "LAST-MODIFIED", "CREATED", "SUMMARY", "DTSTART", "DUE", "RRULE", "RDATE", "EXDATE", "X-REMINDD-ONCALENDAR",
    ]

    /// The file name of an item: its UID where that is a safe file name, else a digest of it.
    public static func fileName(uid: String) -> String {
        let safe = uid.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.@".unicodeScalars.contains($0)) }
        if safe, !uid.hasPrefix("."), uid.count <= 200 { return uid + ".ics" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs and machines
        for byte in uid.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "remindd-" + String(hash, radix: 16) + ".ics"
    }

    /// How a one-off reminder's task was closed by remindd, so that a task app stops showing and ringing it:
    /// taken (STATUS:COMPLETED at the log's time), skipped or missed (STATUS:CANCELLED). `X-REMINDD-CLOSED` says
    /// remindd wrote it: a task closed so is not read back as another client's `todo done` (its log travels as
    /// its own item).
    public enum Closure: Sendable, Hashable {
        case taken(at: Instant)
        case skipped, missed

        var lines: [String] {
            switch self {
            case .taken(let at): ["STATUS:COMPLETED", "COMPLETED:" + ICalendar.utc(at), "PERCENT-COMPLETE:100", "X-REMINDD-CLOSED:TAKEN"]
            case .skipped: ["STATUS:CANCELLED", "X-REMINDD-CLOSED:SKIPPED"]
            case .missed: ["STATUS:CANCELLED", "X-REMINDD-CLOSED:MISSED"]
            }
        }

        /// What a closure owns in the task, replaced when it is written (another client's status then goes).
        static let owned: Set<String> = ["STATUS", "COMPLETED", "PERCENT-COMPLETE"]
    }

    /// How remindd closed the task of an item's text, if it did (another device may have).
    public static func closure(of text: String?) -> Closure? {
        // Text that is not iCalendar has no closure (it is refused where it is read as an item).
        guard let text, let master = try? masterTask(text), let closed = master.first("X-REMINDD-CLOSED")?.value.uppercased() else { return nil }
        switch closed {
        case "TAKEN": return master.first("COMPLETED").flatMap { utcInstant($0.value) }.map { .taken(at: $0) }
        case "SKIPPED": return .skipped
        case "MISSED": return .missed
        default: return nil
        }
    }

    /// A reminder's item. `previous` is the item's text as last read or written: what remindd does not own in it
    /// is kept.
    /// - Parameters:
    ///   - rule: the reminder's rule, made (the caller checked it).
    ///   - zone: the zone it fires in (its own, or this device's).
    ///   - modifiedAt: the last change (`LAST-MODIFIED`, which the conflict resolver compares).
    ///   - closure: a one-off's task closed (nil: its status is left as other clients set it).
    ///   - asJournal: written as a VJOURNAL that task apps do not show, without schedule or alarms (its
    ///     occurrences are tasks of their own, ``OccurrenceTask``).
    public static func text(
        _ reminder: Reminder, rule: ReminderRule, zone: TimeZoneRules, modifiedAt: Instant, previous: String?, closure: Closure? = nil,
        asJournal: Bool = false
    ) -> String {
        var own = ["UID:" + ICalendar.text(reminder.uid), "DTSTAMP:" + ICalendar.utc(modifiedAt), "LAST-MODIFIED:" + ICalendar.utc(modifiedAt)]
        if let created = reminder.created { own.append("CREATED:" + ICalendar.utc(created)) }
        own.append("SUMMARY:" + ICalendar.text(reminder.name))
        var settings = ["X-REMINDD-RULE:" + ICalendar.text(ruleJSON(reminder.rule))]
        if let timeZone = reminder.timeZone { settings.append("X-REMINDD-TZ:" + timeZone) }
        if !reminder.enabled { settings.append("X-REMINDD-ENABLED:FALSE") }
        if let window = reminder.windowSeconds { settings.append("X-REMINDD-WINDOW:\(window)") }
        // Every value is TEXT, escaped (RFC 5545 3.3.11): a bare comma separates values, and a server's parser
        // (Radicale's vobject) kept only the first (`21600,3` came back as `21600`).
        settings += reminder.delivery.syncedProperties.map { "X-REMINDD-\($0.name):" + ICalendar.text($0.text) }
        if asJournal {
            own.append("DESCRIPTION:" + ICalendar.text("A remindd reminder: its occurrences are tasks of their own."))
            return merged(component: "VJOURNAL", uid: reminder.uid, own: own + settings, alarm: [], previous: previous, alsoOwned: ["DESCRIPTION"])
        }
        // What other clients show and fire: the schedule as of the change, in the zone it fires in.
        let shown = ICalendar.Reminder(id: 0, name: reminder.name, rule: rule, zoneName: reminder.timeZone ?? zone.identifier, zone: zone)
        let events = ICalendar.events(shown, now: modifiedAt)
        let event = events.prefix { $0 != "END:VEVENT" }
        var trigger = "PT0S"
        // A one-off is a task due at its time (as a task app writes one, `todoman new --due`): DUE alone, its alarm
        // at the DUE. A series needs DTSTART (RFC 5545 3.8.5.3); its DUE is the window's end (an hour without one:
        // clients refuse a DUE that is not after DTSTART).
        let oneOff = !event.contains { $0.hasPrefix("RRULE") || $0.hasPrefix("RDATE") }
        for line in event {
            let name = String(line.prefix { $0 != ":" && $0 != ";" })
            if ["RRULE", "RDATE", "EXDATE", "X-REMINDD-ONCALENDAR"].contains(name) { own.append(line) }
            if name == "TRIGGER" { trigger = String(line.dropFirst("TRIGGER:".count)) }
            if name == "DTSTART", oneOff {
                own.append("DUE" + line.dropFirst("DTSTART".count))
            } else if name == "DTSTART" {
                own.append(line)
                own.append("DUE" + line.dropFirst("DTSTART".count).prefix { $0 != ":" } + ":" + due(line, zone: zone, window: reminder.windowSeconds))
            }
        }
        let alarms = alarms(of: reminder, events: events, trigger: trigger, related: oneOff ? ";RELATED=END" : "")
        return merged(
            component: "VTODO", uid: reminder.uid, own: own + settings + (closure?.lines ?? []), alarm: alarms, previous: previous,
            alsoOwned: closure == nil ? [] : Closure.owned)
    }

    /// A reminder's task's alarms: at its time (`trigger`), at the day's other times after the first (a task has one
    /// schedule: the first time of day's; the same days' other times are alarms after it), and `--before` each.
    private static func alarms(of reminder: Reminder, events: [String], trigger: String, related: String) -> [String] {
        var triggers = [trigger]
        let starts = events.filter { $0.hasPrefix("DTSTART") }.compactMap { line in ICalendarTime.dateTime(String(line.split(separator: ":").last ?? "")) }
        let rules = events.filter { $0.hasPrefix("RRULE") || $0 == "END:VEVENT" }
        if let first = starts.first, rules.count == 2 * starts.count, Set(rules.filter { $0 != "END:VEVENT" }).count == 1 {
            for start in starts.dropFirst() where start.time.secondsSinceMidnight > first.time.secondsSinceMidnight {
                triggers.append(AlarmOffset(days: 0, seconds: start.time.secondsSinceMidnight - first.time.secondsSinceMidnight).text)
            }
        }
        var alarms = triggers.flatMap { trigger in
            ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + ICalendar.text(reminder.name), "TRIGGER\(related):" + trigger, "X-REMINDD-ALARM:1", "END:VALARM"]
        }
        // `--before`: an alarm that long before each of the others, so that a task app warns too.
        for minutes in reminder.delivery.notification.beforeMinutes ?? [] {
            for trigger in triggers {
                guard let at = try? AlarmOffset(parsing: trigger), at.days == 0 else { continue }  // ours: always parses
                let before = AlarmOffset(days: 0, seconds: at.seconds - minutes * 60).text
                alarms += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + ICalendar.text("\(reminder.name) in \(WindowLength.text(Int64(minutes) * 60))"),
                           "TRIGGER\(related):" + before, "X-REMINDD-ALARM:1", "END:VALARM"]
            }
        }
        return alarms
    }

    /// A log's or a skip's item.
    public static func text(_ record: Record, reminderName: String) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + product, "BEGIN:VJOURNAL", "UID:" + ICalendar.text(record.uid),
                     "DTSTAMP:" + ICalendar.utc(record.at), "DTSTART:" + ICalendar.utc(record.at),
                     "SUMMARY:" + ICalendar.text((record.kind == .taken ? "Taken: " : "Skipped: ") + reminderName),
                     "RELATED-TO;RELTYPE=PARENT:" + ICalendar.text(record.reminder), "X-REMINDD-RECORD:" + record.kind.rawValue.uppercased(),
                     "X-REMINDD-TZ:" + record.timeZone]
        if let occurrence = record.occurrence { lines.append("X-REMINDD-OCCURRENCE:" + ICalendar.utc(occurrence)) }
        if let reason = record.reason { lines.append("DESCRIPTION:" + ICalendar.text(reason)) }
        if let amount = record.amount { lines.append("X-REMINDD-AMOUNT:" + Dose.text(thousandths: amount)) }
        lines += ["END:VJOURNAL", "END:VCALENDAR"]
        return lines.map(ICalendar.fold).joined(separator: "\r\n") + "\r\n"
    }

    static let product = "-//remindd//remindd collection//EN"

    /// The rule as JSON, keys sorted: the same rule is the same text.
    static func ruleJSON(_ rule: RuleSpec) -> String {
        // A RuleSpec is strings and booleans: it always encodes.
        (try? FlatJSON.text(of: rule)) ?? "{}"
    }

    /// DUE: the end of the occurrence's window (an hour when it has none), in DTSTART's form.
    private static func due(_ start: String, zone: TimeZoneRules, window: Int64?) -> String {
        let value = String(start.split(separator: ":", maxSplits: 1).last ?? "")
        let utc = value.hasSuffix("Z")
        guard let local = ICalendarTime.dateTime(utc ? String(value.dropLast()) : value) else { return value }
        let seconds = window ?? 3600
        if utc { return ICalendar.utc(Instant(secondsSinceEpoch: local.localSeconds + seconds)) }
        return ICalendar.local(zone.localDateTime(at: zone.resolve(local).adding(seconds: seconds)))
    }

    /// `previous` with the first `component` of `uid` (not an override) given remindd's lines: its owned
    /// properties and `X-REMINDD-` settings replaced by `own`, remindd's alarm by `alarm`; every other line kept
    /// where it was. Without a usable `previous`: a new VCALENDAR.
    static func merged(component: String, uid: String, own: [String], alarm: [String], previous: String?, alsoOwned: Set<String>) -> String {
        var lines: [String] = []
        if let previous {
            do {
                try ICalendarReader.forEachContentLine(previous, fail: { FileLineError(file: "", line: $0, message: $1) }) { line, _ in lines.append(line) }
            } catch {
                lines = []  // not iCalendar after all: written anew
            }
        }
        // Where the master component is: BEGIN and END at depth 2 (inside the VCALENDAR), without RECURRENCE-ID.
        var master: (begin: Int, end: Int)?
        var depth = 0
        var open: Int?
        var isOverride = false
        for (index, line) in lines.enumerated() {
            let upper = line.uppercased()
            if upper.hasPrefix("BEGIN:") {
                depth += 1
                if depth == 2, upper == "BEGIN:" + component { (open, isOverride) = (index, false) }
            } else if upper.hasPrefix("END:") {
                if depth == 2, let begin = open, upper == "END:" + component, !isOverride, master == nil { master = (begin, index) }
                if depth == 2 { open = nil }
                depth -= 1
            } else if depth == 2, open != nil, upper.hasPrefix("RECURRENCE-ID") {
                isOverride = true
            }
        }
        guard let (begin, end) = master, lines.first?.uppercased() == "BEGIN:VCALENDAR" else {
            let fresh = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + product, "BEGIN:" + component] + own + alarm + ["END:" + component, "END:VCALENDAR"]
            return fresh.map(ICalendar.fold).joined(separator: "\r\n") + "\r\n"
        }
        // The master's own lines, without what remindd owns and without remindd's alarm.
        var kept: [String] = []
        var inner = 0
        var subcomponent: [String] = []
        for line in lines[(begin + 1)..<end] {
            let upper = line.uppercased()
            if upper.hasPrefix("BEGIN:") { inner += 1 }
            if inner > 0 {
                subcomponent.append(line)
                if upper.hasPrefix("END:") {
                    inner -= 1
                    if inner == 0 {
                        if !subcomponent.contains(where: { $0.uppercased().hasPrefix("X-REMINDD-ALARM") }) { kept += subcomponent }
                        subcomponent = []
                    }
                }
                continue
            }
            let name = String(upper.prefix { $0 != ":" && $0 != ";" })
            if owned.contains(name) || alsoOwned.contains(name) || name.hasPrefix("X-REMINDD-") { continue }
            kept.append(line)
        }
        let result = Array(lines[...begin]) + own + kept + alarm + Array(lines[end...])
        return result.map(ICalendar.fold).joined(separator: "\r\n") + "\r\n"
    }

    /// What an item holds, checked as `add` and `log` check what they are given.
    /// - Throws: ``FileLineError`` for a file that is not iCalendar, or remindd's item with a value it would
    ///   refuse (a name, a rule, a window): the caller leaves it out and says why.
    public static func read(_ text: String, file: String) throws(FileLineError) -> Content {
        func fail(_ line: Int, _ message: String) -> FileLineError { FileLineError(file: file, line: line, message: message) }
        let calendars = try ICalendarReader.read(text, file: file)
        let items = calendars.flatMap(\.components).filter { ["VTODO", "VEVENT", "VJOURNAL"].contains($0.name) }
        if let journal = items.first(where: { $0.name == "VJOURNAL" && $0.first("X-REMINDD-RECORD") != nil }) {
            return .record(try record(journal, fail: fail))
        }
        if let journal = items.first(where: { $0.name == "VJOURNAL" && $0.first("X-REMINDD-ARCHIVE") != nil }) {
            return .archive(try CollectionArchive.read(journal, fail: fail))
        }
        if let task = items.first(where: { $0.name == "VTODO" && $0.first("X-REMINDD-OCCURRENCE-OF") != nil }) {
            return .occurrence(try OccurrenceTask.read(task, fail: fail))
        }
        // A reminder: its recurring task, or (`collection-mode = "occurrences"`) a journal that task apps do not show.
        guard let master = items.first(where: { ["VTODO", "VJOURNAL"].contains($0.name) && $0.first("RECURRENCE-ID") == nil && $0.first("X-REMINDD-RULE") != nil }) else {
            let uid = items.first?.first("UID")?.value ?? ""
            return .foreign(uid)
        }
        return .reminder(try reminder(master, fail: fail))
    }

    /// The version of an item to keep when two devices changed it between two syncs (vdirsyncer's conflict):
    /// an occurrence task marked in an app over remindd's own, and remindd's closure over the open version; else
    /// the later LAST-MODIFIED, then (equal times) the greater text, so that both sides pick the same one whichever
    /// is `a`. Logs and skips never conflict: each is an item of its own.
    public static func resolve(_ a: String, _ b: String) -> (kept: String, other: String) {
        // An occurrence task: what a person did in an app (completed, cancelled) wins over what remindd wrote,
        // and remindd's closure (taken, skipped, missed) over the open version, whenever each was written.
        if a.contains("X-REMINDD-OCCURRENCE-OF:") {
            let (rankA, rankB) = (occurrenceRank(a), occurrenceRank(b))
            if rankA != rankB { return rankA > rankB ? (a, b) : (b, a) }
        }
        let (first, second) = (lastModified(a) ?? Instant(secondsSinceEpoch: .min), lastModified(b) ?? Instant(secondsSinceEpoch: .min))
        return first > second || (first == second && a >= b) ? (a, b) : (b, a)
    }

    /// How far an occurrence task's version got: 2 marked in an app, 1 closed by remindd, 0 open.
    private static func occurrenceRank(_ text: String) -> Int {
        // A version that does not read as a task is no mark of anyone's: ranked as open.
        guard case .occurrence(let task)? = try? read(text, file: "") else { return 0 }
        return task.marked != nil ? 2 : text.contains("X-REMINDD-CLOSED:") ? 1 : 0
    }

    /// A task or one instance of it marked done by another client: `todo done` (the task's STATUS:COMPLETED), or a
    /// RECURRENCE-ID override with STATUS:COMPLETED (Thunderbird, jtx Board, Tasks.org).
    public struct Completion: Sendable, Hashable {
        /// "done" for the task itself, else the RECURRENCE-ID's value: one log per key.
        public var key: String
        /// COMPLETED (UTC), if the client wrote it.
        public var at: Instant?
        /// The instance it completes (RECURRENCE-ID); nil for the task itself, or a RECURRENCE-ID that is not a time.
        public var instance: Instance?

        /// A RECURRENCE-ID's value: a time in UTC, a time in the item's zone, or a day (an all-day instance).
        public enum Instance: Sendable, Hashable {
            case utc(LocalDateTime)
            case local(LocalDateTime)
            case day(LocalDate)
        }
    }

    /// The completions in an item (of any client), each once.
    public static func completions(_ text: String) -> [Completion] {
        let items: [ICalendarComponent]
        do { items = try ICalendarReader.read(text, file: "").flatMap(\.components).filter { $0.name == "VTODO" } } catch { return [] }
        var found: [Completion] = []
        for item in items where item.first("STATUS")?.value.uppercased() == "COMPLETED" {
            // Closed by remindd for a log that is an item of its own: not a completion to log again.
            if item.first("RECURRENCE-ID") == nil, item.first("X-REMINDD-CLOSED")?.value.uppercased() == "TAKEN" { continue }
            let key = item.first("RECURRENCE-ID").map { String($0.value.prefix(40)) } ?? "done"
            guard !found.contains(where: { $0.key == key }) else { continue }
            let completed = item.first("COMPLETED")?.value.uppercased()
            let at = completed.flatMap { $0.hasSuffix("Z") ? ICalendarTime.dateTime(String($0.dropLast())) : nil }.map { Instant(secondsSinceEpoch: $0.localSeconds) }
            var completion = Completion(key: key, at: at)
            if let recurrence = item.first("RECURRENCE-ID")?.value.uppercased() {
                if recurrence.hasSuffix("Z") {
                    completion.instance = ICalendarTime.dateTime(String(recurrence.dropLast())).map(Completion.Instance.utc)
                } else {
                    completion.instance = ICalendarTime.dateTime(recurrence).map(Completion.Instance.local) ?? ICalendarTime.date(recurrence).map(Completion.Instance.day)
                }
            }
            found.append(completion)
        }
        return found
    }

    /// The LAST-MODIFIED of a reminder's item (the conflict resolver keeps the later version), if it has one.
    public static func lastModified(_ text: String) -> Instant? {
        guard let master = try? masterTask(text), let value = master.first("LAST-MODIFIED")?.value else { return nil }
        return utcInstant(value)
    }

    /// The first VTODO of an item that is not an override (nil: none). - Throws: when it is not iCalendar.
    private static func masterTask(_ text: String) throws(FileLineError) -> ICalendarComponent? {
        try ICalendarReader.read(text, file: "").flatMap(\.components).first { $0.name == "VTODO" && $0.first("RECURRENCE-ID") == nil }
    }

    /// A UTC date-time value (`20261224T170000Z`) as an instant; nil for any other form.
    static func utcInstant(_ value: String) -> Instant? {
        let value = value.uppercased()
        guard value.hasSuffix("Z"), let local = ICalendarTime.dateTime(String(value.dropLast())) else { return nil }
        return Instant(secondsSinceEpoch: local.localSeconds)
    }

    private static func reminder(_ item: ICalendarComponent, fail: (Int, String) -> FileLineError) throws(FileLineError) -> Reminder {
        guard let uid = item.first("UID")?.text, !uid.isEmpty else { throw fail(item.line, "a remindd reminder without UID") }
        let summary = item.first("SUMMARY")
        let name: String
        do { name = try ReminderName.checked(summary?.text ?? "") } catch { throw fail(summary?.line ?? item.line, "SUMMARY: \(error.message)") }
        let ruleProperty = item.first("X-REMINDD-RULE")!
        let rule: RuleSpec
        do {
            rule = try FlatJSON.decode(RuleSpec.self, from: ruleProperty.text)
        } catch {
            throw fail(ruleProperty.line, "X-REMINDD-RULE is not a rule as remindd writes it")
        }
        do { _ = try rule.makeRule() } catch { throw fail(ruleProperty.line, "X-REMINDD-RULE: \(error.message)") }
        var reminder = Reminder(uid: uid, name: name, rule: rule, timeZone: item.first("X-REMINDD-TZ")?.value)
        if let zone = reminder.timeZone, zone.isEmpty || zone.count > 100 || zone.contains("..") { throw fail(item.first("X-REMINDD-TZ")!.line, "X-REMINDD-TZ is not a zone name") }
        reminder.enabled = item.first("X-REMINDD-ENABLED")?.value.uppercased() != "FALSE"
        if let window = item.first("X-REMINDD-WINDOW") {
            guard let seconds = Int64(window.value), WindowLength.range.contains(seconds) else { throw fail(window.line, "X-REMINDD-WINDOW is not \(WindowLength.forms) in seconds") }
            reminder.windowSeconds = seconds
        }
        do {
            reminder.delivery = try Delivery { name in item.first("X-REMINDD-" + name)?.text }
        } catch {
            throw fail(item.first("X-REMINDD-" + error.parameter)?.line ?? item.line, error.message)
        }
        if let created = item.first("CREATED") {
            let value = created.value.uppercased()
            guard value.hasSuffix("Z"), let local = ICalendarTime.dateTime(String(value.dropLast())) else {
                throw fail(created.line, "CREATED is not a UTC date-time such as 20261224T170000Z")
            }
            reminder.created = Instant(secondsSinceEpoch: local.localSeconds)
        }
        return reminder
    }

    private static func record(_ item: ICalendarComponent, fail: (Int, String) -> FileLineError) throws(FileLineError) -> Record {
        guard let uid = item.first("UID")?.text, !uid.isEmpty else { throw fail(item.line, "a remindd log without UID") }
        guard let kind = Record.Kind(rawValue: item.first("X-REMINDD-RECORD")!.value.lowercased()) else {
            throw fail(item.first("X-REMINDD-RECORD")!.line, "X-REMINDD-RECORD is neither TAKEN nor SKIPPED")
        }
        guard let reminder = item.first("RELATED-TO")?.text, !reminder.isEmpty else { throw fail(item.line, "a remindd log without RELATED-TO (its reminder)") }
        func instant(_ name: String) throws(FileLineError) -> Instant? {
            guard let property = item.first(name) else { return nil }
            let value = property.value.uppercased()
            guard value.hasSuffix("Z"), let local = ICalendarTime.dateTime(String(value.dropLast())) else {
                throw fail(property.line, "\(name) is not a UTC date-time such as 20261224T170000Z")
            }
            return Instant(secondsSinceEpoch: local.localSeconds)
        }
        guard let at = try instant("DTSTART") else { throw fail(item.line, "a remindd log without DTSTART (when)") }
        let zone = item.first("X-REMINDD-TZ")?.value ?? "UTC"
        guard !zone.isEmpty, zone.count <= 100, !zone.contains("..") else { throw fail(item.line, "X-REMINDD-TZ is not a zone name") }
        let reason = item.first("DESCRIPTION").map { String($0.text.prefix(500)) }
        var record = Record(uid: uid, kind: kind, reminder: reminder, at: at, timeZone: zone, occurrence: try instant("X-REMINDD-OCCURRENCE"), reason: reason)
        if let amount = item.first("X-REMINDD-AMOUNT") {
            guard let thousandths = Dose.thousandths(amount.value) else { throw fail(amount.line, "X-REMINDD-AMOUNT is not an amount such as 2 or 0.5") }
            record.amount = thousandths
        }
        return record
    }
}
