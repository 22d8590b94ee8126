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

extension HistoryEntryValue: JSONValueConvertible {
    /// The record as JSON, made directly (as the synthesized encoding would write it: no `detail` when nil).
    public var jsonValue: JSONValue {
        var fields: [String: JSONValue] = [
            "reminderId": .number(Double(reminderId)), "reminderName": .string(reminderName), "slot": .string(slot), "kind": .string(kind),
            "scheduledUtc": .string(scheduledUtc), "handledUtc": .string(handledUtc), "lateSeconds": .number(Double(lateSeconds)),
            "slotsDue": .number(Double(slotsDue)), "replanned": .bool(replanned),
        ]
        if let detail { fields["detail"] = .string(detail) }
        if let amount, let unit { (fields["amount"], fields["unit"]) = (.number(amount), .string(unit)) }
        return .object(fields)
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


/// `ReportReminder` of remindd's interfaces: one reminder's figures over a report's period
/// (``AdherenceFigures``).
public struct ReportReminderValue: Codable, Sendable, Hashable {
    /// A reason given for skips, and how many.
    public struct SkipReason: Codable, Sendable, Hashable {
        public var reason: String
        public var count: Int
    }

    /// One day: its date and its occurrences' states in time order.
    public struct Day: Codable, Sendable, Hashable {
        public var date: String
        public var states: [String]
    }

    public var reminderId: Int64
    public var reminderName: String
    public var due: Int
    public var onTime: Int
    public var loggedAhead: Int
    public var late: Int
    public var lateMinutesMedian: Int?
    public var lateMinutesP90: Int?
    public var skipped: Int
    public var skipReasons: [SkipReason]
    /// The missed occurrences' local times (ISO 8601 with offset), oldest first.
    public var missed: [String]
    /// Taken (on time and late) / (due - skipped); nil when nothing was to take.
    public var adherence: Double?
    public var days: [Day]
    /// What the reminder says: its dose and schedule (`2 tablet, daily at 08:00, 20:00`).
    public var regimen: String?
    /// Doses logged past the reminder's limits (`--force`) in the period; nil when none.
    public var forced: Int?

    public init(reminderId: Int64, reminderName: String, figures: AdherenceFigures, regimen: String? = nil, forced: Int? = nil) {
        (self.reminderId, self.reminderName, self.regimen, self.forced) = (reminderId, reminderName, regimen, forced)
        (due, onTime, loggedAhead, late) = (figures.due, figures.onTime, figures.loggedAhead, figures.late)
        (lateMinutesMedian, lateMinutesP90, skipped) = (figures.lateMinutesMedian, figures.lateMinutesP90, figures.skipped)
        skipReasons = figures.skipReasons.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { SkipReason(reason: $0.key, count: $0.value) }
        missed = figures.missed.map(\.localISO8601)
        adherence = figures.adherence
        days = figures.days.map { Day(date: $0.date.description, states: $0.states.map(\.rawValue)) }
    }
}

/// `ReportMedication` of remindd's interfaces: a medication's amounts per day, as-needed doses per week and stock
/// over a report's period (``MedicationFigures``).
public struct ReportMedicationValue: Codable, Sendable, Hashable {
    /// An amount taken on a day, in the unit.
    public struct Taken: Codable, Sendable, Hashable {
        public var date: String
        public var amount: Double
        public init(date: String, amount: Double) { (self.date, self.amount) = (date, amount) }
    }
    /// The doses of a week, from its Monday.
    public struct Week: Codable, Sendable, Hashable {
        public var week: String
        public var doses: Int
        public init(week: String, doses: Int) { (self.week, self.doses) = (week, doses) }
    }
    /// What was left at the end of a day, and what was added (refilled, or more counted) that day.
    public struct StockDay: Codable, Sendable, Hashable {
        public var date: String
        public var left: Double
        public var added: Double
        public init(date: String, left: Double, added: Double) { (self.date, self.left, self.added) = (date, left, added) }
    }

    public var reminderId: Int64
    public var reminderName: String
    public var unit: String
    public var taken: [Taken]
    public var asNeededWeeks: [Week]?
    public var stock: [StockDay]?

    public init(reminderId: Int64, reminderName: String, unit: String, taken: [Taken], asNeededWeeks: [Week]?, stock: [StockDay]?) {
        (self.reminderId, self.reminderName, self.unit) = (reminderId, reminderName, unit)
        (self.taken, self.asNeededWeeks, self.stock) = (taken, asNeededWeeks, stock)
    }
}

/// `ReportHabits` of remindd's interfaces: the habit's days, strength, weekdays and streaks over a report's period.
public struct ReportHabitsValue: Codable, Sendable, Hashable {
    /// A day's state and the habit's strength at its end (0 to 1).
    public struct Day: Codable, Sendable, Hashable {
        public var date: String
        public var state: String
        public var strength: Double
        public init(date: String, state: String, strength: Double) { (self.date, self.state, self.strength) = (date, state, strength) }
    }
    /// A streak: its length in days, its first and last day.
    public struct Streak: Codable, Sendable, Hashable {
        public var length: Int
        public var start: String
        public var end: String
        public init(length: Int, start: String, end: String) { (self.length, self.start, self.end) = (length, start, end) }
    }

    public var days: [Day]
    /// Active days by weekday, Monday first.
    public var activeByWeekday: [Int]
    /// The longest streaks that reach into the period, at most ten, newest first.
    public var streaks: [Streak]

    public init(days: [Day], activeByWeekday: [Int], streaks: [Streak]) {
        (self.days, self.activeByWeekday, self.streaks) = (days, activeByWeekday, streaks)
    }
}

/// `ReportFitness` of remindd's interfaces: each day's calories over a report's period.
public struct ReportFitnessValue: Codable, Sendable, Hashable {
    /// A day's calories: eaten, burned in workouts, eaten less burned.
    public struct Day: Codable, Sendable, Hashable {
        public var date: String
        public var consumed: Int
        public var burned: Int
        public var net: Int
        public init(date: String, consumed: Int, burned: Int, net: Int) { (self.date, self.consumed, self.burned, self.net) = (date, consumed, burned, net) }
    }

    public var days: [Day]
    public init(days: [Day]) { self.days = days }
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

/// `StreakRun` of remindd's interfaces: consecutive streak days.
public struct StreakRunValue: Codable, Sendable, Hashable {
    public var length: Int
    public var start: String
    public var end: String

    public init(length: Int, start: String, end: String) {
        self.length = length
        self.start = start
        self.end = end
    }
}

/// `Streak`'s reply: the overall streak.
public struct StreakValue: Codable, Sendable, Hashable {
    public var current: StreakRunValue?
    public var best: StreakRunValue?
    public var freezes: Int
    /// Habit strength, 0 to 100.
    public var strength: Int
    /// The last day something must be logged to keep the streak.
    public var mustLogBy: String?
    public var recoveryAvailable: Bool

    public init(current: StreakRunValue?, best: StreakRunValue?, freezes: Int, strength: Int, mustLogBy: String?, recoveryAvailable: Bool) {
        self.current = current
        self.best = best
        self.freezes = freezes
        self.strength = strength
        self.mustLogBy = mustLogBy
        self.recoveryAvailable = recoveryAvailable
    }
}

/// A freeze earned, used, or not earned because the bank was full.
public struct FreezeEventValue: Codable, Sendable, Hashable {
    public var date: String
    public var kind: String
    public var banked: Int
    public var streak: Int

    public init(date: String, kind: String, banked: Int, streak: Int) {
        self.date = date
        self.kind = kind
        self.banked = banked
        self.streak = streak
    }
}

/// An achievement, unlocked or not yet.
public struct AchievementValue: Codable, Sendable, Hashable {
    public var id: String
    public var title: String
    public var xp: Int
    public var requirement: String
    /// The day it was unlocked, or nil.
    public var unlocked: String?

    public init(id: String, title: String, xp: Int, requirement: String, unlocked: String?) {
        self.id = id
        self.title = title
        self.xp = xp
        self.requirement = requirement
        self.unlocked = unlocked
    }
}

/// One day of `Calendar`'s month: active, rest, frozen, recovered, missed, open, or future.
public struct CalendarDayValue: Codable, Sendable, Hashable {
    public var date: String
    public var state: String
    public var today: Bool

    public init(date: String, state: String, today: Bool) {
        self.date = date
        self.state = state
        self.today = today
    }
}

/// `Calendar`'s reply.
public struct CalendarValue: Codable, Sendable, Hashable {
    public var month: String
    public var days: [CalendarDayValue]
    public var streak: Int
    public var freezes: Int
    public var strength: Int

    public init(month: String, days: [CalendarDayValue], streak: Int, freezes: Int, strength: Int) {
        self.month = month
        self.days = days
        self.streak = streak
        self.freezes = freezes
        self.strength = strength
    }
}

/// A rest day in `RestList`'s reply.
public struct RestDayValue: Codable, Sendable, Hashable {
    public var date: String
    public var reason: String
    public var light: [String]
    /// Still ahead.
    public var planned: Bool

    public init(date: String, reason: String, light: [String], planned: Bool) {
        self.date = date
        self.reason = reason
        self.light = light
        self.planned = planned
    }
}

/// `RestStats`'s reply.
public struct RestStatsValue: Codable, Sendable, Hashable {
    public var restDaysThisMonth: Int
    public var activeDaysThisWeek: Int
    public var restDaysThisWeek: Int

    public init(restDaysThisMonth: Int, activeDaysThisWeek: Int, restDaysThisWeek: Int) {
        self.restDaysThisMonth = restDaysThisMonth
        self.activeDaysThisWeek = activeDaysThisWeek
        self.restDaysThisWeek = restDaysThisWeek
    }
}

/// One intensity level of an exercise: its MET value and where it comes from.
public struct ExerciseLevelValue: Codable, Sendable, Hashable {
    public var intensity: String
    public var met: Double
    public var code: String
    /// True when derived from the base entry (no distinct Compendium entry for this level).
    public var derived: Bool

    public init(intensity: String, met: Double, code: String, derived: Bool) {
        self.intensity = intensity
        self.met = met
        self.code = code
        self.derived = derived
    }
}

/// An exercise of the library.
public struct ExerciseValue: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var category: String
    public var levels: [ExerciseLevelValue]

    public init(id: String, name: String, category: String, levels: [ExerciseLevelValue]) {
        self.id = id
        self.name = name
        self.category = category
        self.levels = levels
    }
}

/// A workout or food entry of the daily log.
public struct LogEntryValue: Codable, Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var kcal: Int
    /// ISO 8601 local time with offset.
    public var local: String
    public var minutes: Int?
    public var intensity: String?

    public init(id: Int64, name: String, kcal: Int, local: String, minutes: Int?, intensity: String?) {
        self.id = id
        self.name = name
        self.kcal = kcal
        self.local = local
        self.minutes = minutes
        self.intensity = intensity
    }
}

/// A day's log: food and workouts in separate lists, and the totals.
public struct DayValue: Codable, Sendable, Hashable {
    public var date: String
    public var food: [LogEntryValue]
    public var workouts: [LogEntryValue]
    public var consumed: Int
    public var burned: Int
    /// consumed - burned: negative is a deficit.
    public var net: Int

    public init(date: String, food: [LogEntryValue], workouts: [LogEntryValue]) {
        self.date = date
        self.food = food
        self.workouts = workouts
        consumed = food.map(\.kcal).reduce(0, +)
        burned = workouts.map(\.kcal).reduce(0, +)
        net = consumed - burned
    }
}

/// A day of a routine.
public struct RoutineDayValue: Codable, Sendable, Hashable {
    public var number: Int
    public var title: String
    public var description: String
    public var exercises: [String]
    public var rest: Bool
    public var notes: String?

    public init(number: Int, title: String, description: String, exercises: [String], rest: Bool, notes: String?) {
        self.number = number
        self.title = title
        self.description = description
        self.exercises = exercises
        self.rest = rest
        self.notes = notes
    }
}

/// A recommended weekly routine.
public struct RoutineValue: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var description: String
    public var difficulty: String
    public var days: [RoutineDayValue]

    public init(id: String, name: String, description: String, difficulty: String, days: [RoutineDayValue]) {
        self.id = id
        self.name = name
        self.description = description
        self.difficulty = difficulty
        self.days = days
    }
}

/// The selected routine and exactly what selecting it created (clearing removes just that).
public struct RoutineSelectionValue: Codable, Sendable, Hashable {
    public var routine: String
    /// The date of day 1.
    public var start: String
    /// The time of day of the reminders it added (HH:MM), if any.
    public var at: String?
    public var reminders: [Int64]
    public var restDays: [String]

    public init(routine: String, start: String, at: String?, reminders: [Int64], restDays: [String]) {
        self.routine = routine
        self.start = start
        self.at = at
        self.reminders = reminders
        self.restDays = restDays
    }
}
