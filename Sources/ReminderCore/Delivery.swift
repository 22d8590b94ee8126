/// How a reminder's occurrences reach the person beyond the journal, made of parts that each feature owns:
/// repeats until acknowledged, a command at each announcement, the desktop notification's urgency, the
/// medication's dose and limits, who is told when a dose is missed, and whom it is for. The default: none of them.
///
/// Each part (``ReminderPart``) keeps its keys side by side with the others' in one flat object: stored, on the
/// wire (``Change``) and in replies (``Shown``). A new option of a feature is declared in its part alone.
public struct Delivery: Sendable, Hashable, Codable {
    // In this order, the parts pack into 264 bytes (152 before the strength, the gaps, the order days and the
    // person: #62 may move those out of line); each reminder with any part set holds one, in a box.
    public var repeating = RepeatSettings()
    public var notification = NotificationSettings()
    public var hook = HookSettings()
    public var medication = MedicationSettings()
    public var escalation = EscalationSettings()
    /// Whom it is for (nil: the user).
    public var person = PersonSettings()
    /// Its pauses with dates (set by `Pause` and `Resume`, not by `Add`/`Update`: no ``Change`` of its own).
    public var pause = PauseSettings()
    /// The name of the read-only calendar whose alarm this is (nil: the user's own reminder). A calendar's
    /// alarm is dismissed or snoozed, never "taken", and is never recorded missed.
    public var calendar: String?

    public init(
        repeating: RepeatSettings = .init(), hook: HookSettings = .init(), notification: NotificationSettings = .init(),
        medication: MedicationSettings = .init(), escalation: EscalationSettings = .init(), calendar: String? = nil
    ) {
        (self.repeating, self.hook, self.notification, self.medication, self.escalation) = (repeating, hook, notification, medication, escalation)
        self.calendar = calendar
    }

    /// Nothing beyond the journal: what a reminder without parts delivers (made once, not at each look at such a
    /// reminder's delivery: `perf` of a burst of 10,000 firings put those at 3% of the thread that records them).
    public static let `default` = Delivery()

    /// Nothing beyond the journal.
    public var isDefault: Bool { self == .default }

    /// Whether the reminder gives a dose (a fixed one or a tapering course): a medication, announced as one.
    public var givesDose: Bool { medication.dose != nil || medication.steps != nil }

    /// Whether its notification asks for critical urgency: as set, or else when it gives a dose (GNOME keeps
    /// only a critical notification on screen; a normal one drops into the list after a few seconds).
    public var critical: Bool { notification.urgency.map { $0 == .critical } ?? givesDose }

    /// What is wrong with settings that did not come through `Add` or `Update` (a restored or hand-edited
    /// row), with the same limits; nil when nothing is.
    public var problem: String? {
        if let calendar, calendar.isEmpty || calendar.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "the calendar's name is empty or holds control characters"
        }
        return repeating.problem ?? hook.problem ?? notification.problem ?? escalation.problem ?? medication.problem ?? pause.problem ?? person.problem
    }

    /// What `Add` and `Update` take of each part, as flat keys of their parameters (absent: unchanged).
    public struct Change: Codable, Hashable, Sendable {
        public var repeating = RepeatSettings.Change()
        public var hook = HookSettings.Change()
        public var notification = NotificationSettings.Change()
        public var medication = MedicationSettings.Change()
        public var escalation = EscalationSettings.Change()
        public var person = PersonSettings.Change()

        public init(
            repeating: RepeatSettings.Change = .init(), hook: HookSettings.Change = .init(), notification: NotificationSettings.Change = .init(),
            medication: MedicationSettings.Change = .init(), escalation: EscalationSettings.Change = .init(), person: PersonSettings.Change = .init()
        ) {
            (self.repeating, self.hook, self.notification, self.medication, self.escalation) = (repeating, hook, notification, medication, escalation)
            self.person = person
        }

        /// Every command it gives (none given: []), with its parameter: the daemon checks that each program can run.
        public var commands: [(parameter: String, words: [String])] {
            [("command", hook.command), ("escalateCommand", escalation.escalateCommand)].compactMap { parameter, words in
                words.flatMap { $0.isEmpty ? nil : (parameter, $0) }
            }
        }

        public init(from decoder: any Decoder) throws {
            (repeating, hook, notification) = (try .init(from: decoder), try .init(from: decoder), try .init(from: decoder))
            (medication, escalation, person) = (try .init(from: decoder), try .init(from: decoder), try .init(from: decoder))
        }

        public func encode(to encoder: any Encoder) throws {
            for part in [repeating, hook, notification, medication, escalation, person] as [any Encodable] { try part.encode(to: encoder) }
        }
    }

    /// Refuses what is wrong with `change` on its own (remindctl, before connecting).
    public static func check(_ change: Change, adding: Bool) throws(PartError) {
        try RepeatSettings.check(change.repeating, adding: adding)
        try HookSettings.check(change.hook, adding: adding)
        try NotificationSettings.check(change.notification, adding: adding)
        try MedicationSettings.check(change.medication, adding: adding)
        try EscalationSettings.check(change.escalation, adding: adding)
        try PersonSettings.check(change.person, adding: adding)
    }

    /// The settings with `change` applied, or the error of the first bad field.
    public func applying(_ change: Change, adding: Bool) throws(PartError) -> Delivery {
        var changed = self
        changed.repeating = try repeating.applying(change.repeating, adding: adding)
        changed.hook = try hook.applying(change.hook, adding: adding)
        changed.notification = try notification.applying(change.notification, adding: adding)
        changed.medication = try medication.applying(change.medication, adding: adding)
        changed.escalation = try escalation.applying(change.escalation, adding: adding)
        changed.person = try person.applying(change.person, adding: adding)
        return changed
    }

    /// How a reply shows each part, as flat keys of `Reminder`.
    public struct Shown: Codable, Hashable, Sendable {
        public var repeating: RepeatSettings
        public var hook: HookSettings
        public var notification: NotificationSettings.Shown
        public var medication: MedicationSettings.Shown
        public var escalation: EscalationSettings
        public var pause: PauseSettings.Shown
        public var person: PersonSettings
        public var calendar: String?

        public init(from decoder: any Decoder) throws {
            (repeating, hook, notification) = (try .init(from: decoder), try .init(from: decoder), try .init(from: decoder))
            (medication, escalation, pause) = (try .init(from: decoder), try .init(from: decoder), try .init(from: decoder))
            person = try .init(from: decoder)
            calendar = try decoder.container(keyedBy: CalendarKey.self).decodeIfPresent(String.self, forKey: .calendar)
        }

        public func encode(to encoder: any Encoder) throws {
            try Delivery.encode([repeating, hook, notification, medication, escalation, pause, person], calendar: calendar, to: encoder)
        }

        fileprivate init(_ delivery: Delivery, on date: LocalDate?) {
            (repeating, hook, notification) = (delivery.repeating.shown(on: date), delivery.hook.shown(on: date), delivery.notification.shown(on: date))
            notification.urgency = delivery.critical ? NotificationSettings.Urgency.critical.rawValue : NotificationSettings.Urgency.normal.rawValue
            (medication, escalation, calendar) = (delivery.medication.shown(on: date), delivery.escalation.shown(on: date), delivery.calendar)
            (pause, person) = (delivery.pause.shown(on: date), delivery.person)
        }
    }

    /// How a reply shows it on `date` (the reminder's today; nil when it has no zone to tell).
    public func shown(on date: LocalDate?) -> Shown { Shown(self, on: date) }

    /// The `X-REMINDD-` properties of a synced item, part by part.
    public var syncedProperties: [SyncedProperty] {
        repeating.syncedProperties + hook.syncedProperties + notification.syncedProperties + medication.syncedProperties + escalation.syncedProperties
            + pause.syncedProperties + person.syncedProperties
    }

    /// What a synced item says, part by part (what does not travel is left unset). - Throws: the first bad
    /// property's error, named by the property.
    public init(synced property: (String) -> String?) throws(PartError) {
        (repeating, hook, notification) = (try .init(synced: property), try .init(synced: property), try .init(synced: property))
        (medication, escalation, pause) = (try .init(synced: property), try .init(synced: property), try .init(synced: property))
        person = try .init(synced: property)
    }

    /// These settings with what a synced item carries taken from `synced`: what does not travel (commands, the
    /// refill days, the calendar) stays as it is here (each part says what travels).
    public func merging(synced: Delivery) -> Delivery {
        var merged = self
        (merged.repeating, merged.hook, merged.notification) = (repeating.merging(synced: synced.repeating), hook.merging(synced: synced.hook), notification.merging(synced: synced.notification))
        (merged.medication, merged.escalation) = (medication.merging(synced: synced.medication), escalation.merging(synced: synced.escalation))
        (merged.pause, merged.person) = (pause.merging(synced: synced.pause), person.merging(synced: synced.person))
        return merged
    }

    fileprivate enum CalendarKey: String, CodingKey { case calendar }

    public init(from decoder: any Decoder) throws {
        (repeating, hook, notification) = (try .init(from: decoder), try .init(from: decoder), try .init(from: decoder))
        (medication, escalation, pause) = (try .init(from: decoder), try .init(from: decoder), try .init(from: decoder))
        person = try .init(from: decoder)
        calendar = try decoder.container(keyedBy: CalendarKey.self).decodeIfPresent(String.self, forKey: .calendar)
    }

    public func encode(to encoder: any Encoder) throws {
        try Self.encode([repeating, hook, notification, medication, escalation, pause, person], calendar: calendar, to: encoder)
    }

    /// The parts' keys side by side in one object, with the calendar's.
    fileprivate static func encode(_ parts: [any Encodable], calendar: String?, to encoder: any Encoder) throws {
        for part in parts { try part.encode(to: encoder) }
        var container = encoder.container(keyedBy: CalendarKey.self)
        try container.encodeIfPresent(calendar, forKey: .calendar)
    }
}
