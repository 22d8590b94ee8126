import ReminderCore
import VarlinkProtocol

/// `Firing` of remindd's interfaces: one upcoming or past firing.
public struct FiringValue: Codable, Sendable, Hashable {
    public var reminderId: Int64
    public var reminderName: String
    public var slot: String
    /// ISO 8601 local time with offset.
    public var local: String
    public var utc: String
    /// A pending snooze of the occurrence: `local` and `utc` are when the snooze announces it (Next, and a
    /// reminder's `next` when its snooze comes first).
    public var snoozed: Bool?
    /// The read-only calendar whose alarm this is (Next; nil for the user's own reminders).
    public var calendar: String?
    /// The dose it asks for, and its unit (Next; nil without a dose).
    public var dose: Double?
    public var unit: String?
    /// Whom its reminder is for (nil: the user).
    public var person: String?

    public init(reminderID: Int64, name: String, occurrence: Occurrence, calendar: String? = nil) {
        reminderId = reminderID
        reminderName = name
        slot = occurrence.slotID(reminderID: String(reminderID))
        local = occurrence.localISO8601
        utc = occurrence.instant.description
        self.calendar = calendar
    }

    /// The snooze of `occurrence` due at `due`.
    public init(reminderID: Int64, name: String, occurrence: Occurrence, snoozedUntil due: Instant, in zone: TimeZoneRules, calendar: String? = nil) {
        self.init(reminderID: reminderID, name: name, occurrence: occurrence, calendar: calendar)
        local = ISO8601.format(due, offsetSeconds: zone.offset(at: due), zulu: false)
        utc = due.description
        snoozed = true
    }
}

/// `Occurrence` of remindd's interfaces: one occurrence of a reminder on a day, and what became of it.
public struct OccurrenceValue: Codable, Sendable, Hashable {
    public var reminderId: Int64
    public var reminderName: String
    public var slot: String
    /// ISO 8601 local time with offset (the reminder's zone).
    public var local: String
    public var utc: String
    /// upcoming, due, taken, skipped, missed or suppressed.
    public var state: String
    public var windowEndUtc: String
    /// The log that took it (taken), or the latest of those counted against it (suppressed).
    public var loggedUtc: String?
    /// The dose it asks for, and its unit (nil without a dose).
    public var dose: Double?
    public var unit: String?
    /// Whom its reminder is for (nil: the user).
    public var person: String?

    public init(reminderID: Int64, name: String, status: OccurrenceStatus) {
        reminderId = reminderID
        reminderName = name
        slot = status.occurrence.slotID(reminderID: String(reminderID))
        local = status.occurrence.localISO8601
        utc = status.occurrence.instant.description
        state = status.state.rawValue
        windowEndUtc = status.windowEnd.description
        loggedUtc = status.coveredBy?.description
    }
}

/// A value that says the dose its reminder asks for.
public protocol SaysDose {
    var dose: Double? { get set }
    var unit: String? { get set }
}

extension SaysDose {
    /// The value with `dose` said (a reminder's; nil leaves it without).
    public func saying(_ dose: Dose?) -> Self {
        var value = self
        (value.dose, value.unit) = (dose.map { Double($0.thousandths) / 1000 }, dose?.unit)
        return value
    }
}

extension FiringValue: SaysDose {}
extension OccurrenceValue: SaysDose {}

/// A value that says whom its reminder is for (`--for Anna`).
public protocol NamesPerson {
    var reminderName: String { get set }
    var person: String? { get set }
}

extension NamesPerson {
    /// The value with its reminder's person said.
    public func of(_ person: PersonSettings) -> Self {
        var value = self
        value.person = person.person
        return value
    }

    /// `Anna: Amoxicillin`; the reminder's name alone for the user's own.
    public var shownName: String { person.map { "\($0): \(reminderName)" } ?? reminderName }
}

extension FiringValue: NamesPerson {}
extension OccurrenceValue: NamesPerson {}
extension HistoryEntryValue: NamesPerson {}
extension AsNeededValue: NamesPerson {}
extension StockValue: NamesPerson {}
extension ReportReminderValue: NamesPerson {}

/// `Reminder` of remindd's interfaces.
public struct ReminderValue: Codable, Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var rule: RuleSpec
    public var summary: String
    /// The zone given when the reminder was added; nil: it follows the system zone.
    public var timeZone: String?
    public var effectiveTimeZone: String
    public var enabled: Bool
    public var next: FiringValue?
    /// The per-goal streak: consecutive scheduled days with every slot logged.
    public var streak: Int
    /// How long after an occurrence a log still takes it; nil: until the next occurrence (at most the day's end).
    public var windowSeconds: Int64?
    /// Each part's settings (repeats, command, urgency, dose and limits, escalation, calendar), as flat keys
    /// beside these (``Delivery/Shown``).
    public var delivery: Delivery.Shown

    public init(
        id: Int64, name: String, rule: RuleSpec, summary: String, timeZone: String?, effectiveTimeZone: String, enabled: Bool, next: FiringValue?,
        streak: Int, windowSeconds: Int64? = nil, delivery: Delivery.Shown
    ) {
        (self.id, self.name, self.rule, self.summary, self.timeZone, self.effectiveTimeZone) = (id, name, rule, summary, timeZone, effectiveTimeZone)
        (self.enabled, self.next, self.streak, self.windowSeconds, self.delivery) = (enabled, next, streak, windowSeconds, delivery)
    }

    private enum CodingKeys: String, CodingKey { case id, name, rule, summary, timeZone, effectiveTimeZone, enabled, next, streak, windowSeconds }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        (id, name) = (try container.decode(Int64.self, forKey: .id), try container.decode(String.self, forKey: .name))
        (rule, summary) = (try container.decode(RuleSpec.self, forKey: .rule), try container.decode(String.self, forKey: .summary))
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        effectiveTimeZone = try container.decode(String.self, forKey: .effectiveTimeZone)
        enabled = try container.decode(Bool.self, forKey: .enabled)
        next = try container.decodeIfPresent(FiringValue.self, forKey: .next)
        streak = try container.decode(Int.self, forKey: .streak)
        windowSeconds = try container.decodeIfPresent(Int64.self, forKey: .windowSeconds)
        delivery = try Delivery.Shown(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(rule, forKey: .rule)
        try container.encode(summary, forKey: .summary)
        try container.encodeIfPresent(timeZone, forKey: .timeZone)
        try container.encode(effectiveTimeZone, forKey: .effectiveTimeZone)
        try container.encode(enabled, forKey: .enabled)
        try container.encodeIfPresent(next, forKey: .next)
        try container.encode(streak, forKey: .streak)
        try container.encodeIfPresent(windowSeconds, forKey: .windowSeconds)
        try delivery.encode(to: encoder)
    }
}

/// `HistoryEntry` of remindd's interfaces: a handled firing.
public struct HistoryEntryValue: Codable, Sendable, Hashable {
    public var reminderId: Int64
    public var reminderName: String
    public var slot: String
    /// fired, suppressed, late or skipped (catch-up off); missed (its window closed with nothing logged);
    /// skipped (by the user); taken, taken-late, logged-ahead (suppresses a later one) or logged (neither):
    /// a log, handled when logged, scheduled at the occurrence it takes or suppresses.
    public var kind: String
    public var scheduledUtc: String
    public var handledUtc: String
    public var lateSeconds: Int64
    public var slotsDue: Int
    public var detail: String?
    /// The slot had been handled before, and came due again because the clock went back.
    public var replanned: Bool
    /// A firing announced again (its repeats and snoozes): how many times, and when last; nil when never.
    public var announcedAgain: Int?
    public var lastAnnouncedUtc: String?
    /// A log: how much it took, in the unit of the reminder's dose (nil without a dose).
    public var amount: Double?
    public var unit: String?
    /// A log forced past the reminder's limits (`--force`); nil otherwise.
    public var forced: Bool?
    /// Whom its reminder is for (nil: the user, or a reminder removed since).
    public var person: String?

    public init(
        reminderId: Int64, reminderName: String, slot: String, kind: String, scheduledUtc: String, handledUtc: String, lateSeconds: Int64, slotsDue: Int,
        detail: String?, replanned: Bool, announcedAgain: Int? = nil, lastAnnouncedUtc: String? = nil
    ) {
        self.reminderId = reminderId
        self.reminderName = reminderName
        self.slot = slot
        self.kind = kind
        self.scheduledUtc = scheduledUtc
        self.handledUtc = handledUtc
        self.lateSeconds = lateSeconds
        self.slotsDue = slotsDue
        self.detail = detail
        self.replanned = replanned
        self.announcedAgain = announcedAgain
        self.lastAnnouncedUtc = lastAnnouncedUtc
    }
}

extension HistoryEntryValue {
    /// The record's compact JSON, written directly (as its Codable encoding writes it: keys sorted, nil
    /// fields left out); a burst's entries are written once each for every Watch client.
    public var encodedJSON: [UInt8] {
        var object = JSONObjectWriter()
        object.field("amount", amount)
        object.field("announcedAgain", announcedAgain)
        object.field("detail", detail)
        object.field("forced", forced)
        object.field("handledUtc", handledUtc)
        object.field("kind", kind)
        object.field("lastAnnouncedUtc", lastAnnouncedUtc)
        object.field("lateSeconds", lateSeconds)
        object.field("person", person)
        object.field("reminderId", reminderId)
        object.field("reminderName", reminderName)
        object.field("replanned", replanned)
        object.field("scheduledUtc", scheduledUtc)
        object.field("slot", slot)
        object.field("slotsDue", slotsDue)
        object.field("unit", unit)
        return object.finished()
    }
}

/// `Status` of remindd's interfaces.
/// The linked collection's folder, and why it is held (not used) now; nil: it is used.
public struct CollectionStateValue: Codable, Sendable, Hashable {
    public var folder: String
    public var heldBecause: String?
    public init(folder: String, heldBecause: String?) { (self.folder, self.heldBecause) = (folder, heldBecause) }
}

public struct StatusValue: Codable, Sendable, Hashable {
    public var version: String
    public var reminders: Int
    public var enabled: Int
    public var next: FiringValue?
    public var status: String
    public var storePath: String
    public var journal: Bool
    public var systemTimeZone: String
    /// The zone reminders without their own follow (the config's `time-zone`, else the system's).
    public var timeZone: String
    /// Why ``timeZone``: "config" (its `time-zone`) or "system".
    public var timeZoneSource: String
    /// The linked collection, when one is configured.
    public var collection: CollectionStateValue?

    public init(
        version: String, reminders: Int, enabled: Int, next: FiringValue?, status: String, storePath: String, journal: Bool, systemTimeZone: String,
        timeZone: String, timeZoneSource: String, collection: CollectionStateValue? = nil
    ) {
        self.collection = collection
        self.version = version
        self.reminders = reminders
        self.enabled = enabled
        self.next = next
        self.status = status
        self.storePath = storePath
        self.journal = journal
        self.systemTimeZone = systemTimeZone
        self.timeZone = timeZone
        self.timeZoneSource = timeZoneSource
    }
}

/// `Intake` of remindd's interfaces: one logged intake, and what it does to the occurrences of its day.
public struct IntakeValue: Codable, Sendable, Hashable {
    /// The log's id (for `log delete`).
    public var id: Int64
    public var reminderId: Int64
    public var reminderName: String
    public var utc: String
    /// ISO 8601 local time with offset, in the reminder's zone.
    public var local: String
    /// The occurrence it takes (local ISO 8601): the log falls in that occurrence's window.
    public var takes: String?
    /// The occurrence it suppresses (local ISO 8601): logged before it, it will not (or did not) fire.
    public var suppresses: String?
    /// How much was taken, in the unit of the reminder's dose (nil: it has none).
    public var amount: Double?
    public var unit: String?
    /// Logged with force past the reminder's dose limits (nil: not).
    public var forced: Bool?

    public init(id: Int64, reminderId: Int64, reminderName: String, utc: String, local: String, takes: String? = nil, suppresses: String? = nil) {
        self.id = id
        self.reminderId = reminderId
        self.reminderName = reminderName
        self.utc = utc
        self.local = local
        self.takes = takes
        self.suppresses = suppresses
    }
}


/// `AsNeeded` of remindd's interfaces: a medication taken as needed, its last dose and when the next one keeps
/// to its limits.
public struct AsNeededValue: Codable, Sendable, Hashable {
    public var reminderId: Int64
    public var reminderName: String
    public var dose: Double?
    public var unit: String?
    public var lastDoseUtc: String?
    /// Now, or when the limits allow the next dose.
    public var allowedFromUtc: String
    /// The same, ISO 8601 local time with offset, in the reminder's zone.
    public var allowedFromLocal: String
    public var allowedNow: Bool
    /// Doses the last 24 hours still allow (nil: no maximum).
    public var leftInADay: Int?
    /// Whom its reminder is for (nil: the user).
    public var person: String?

    public init(
        reminderId: Int64, reminderName: String, dose: Double?, unit: String?, lastDoseUtc: String?, allowedFromUtc: String, allowedFromLocal: String,
        allowedNow: Bool, leftInADay: Int?
    ) {
        (self.reminderId, self.reminderName, self.dose, self.unit, self.lastDoseUtc) = (reminderId, reminderName, dose, unit, lastDoseUtc)
        (self.allowedFromUtc, self.allowedFromLocal, self.allowedNow, self.leftInADay) = (allowedFromUtc, allowedFromLocal, allowedNow, leftInADay)
    }
}

/// `Log`'s and `Done`'s reply: the log, and how many pending snoozes it cancelled.
public struct LogReply: Codable, Sendable, Hashable {
    public var log: IntakeValue
    public var cancelledSnoozes: Int
    /// Set when the dose's limits were checked without other devices' latest doses (the linked collection could
    /// not be synced first): why.
    public var unsynced: String?

    public init(log: IntakeValue, cancelledSnoozes: Int, unsynced: String? = nil) {
        (self.log, self.cancelledSnoozes, self.unsynced) = (log, cancelledSnoozes, unsynced)
    }
}

/// `Snooze`'s reply.
public struct SnoozeReply: Codable, Sendable, Hashable {
    /// The occurrence snoozed.
    public var occurrence: FiringValue
    /// When it is announced (local ISO 8601).
    public var until: String
    /// It had not come due yet: it is not announced at its time, only at `until`.
    public var postponed: Bool
    /// When the snooze it replaced was due (local ISO 8601).
    public var replaced: String?

    public init(occurrence: FiringValue, until: String, postponed: Bool, replaced: String?) {
        self.occurrence = occurrence
        self.until = until
        self.postponed = postponed
        self.replaced = replaced
    }
}
