import ReminderCore
import VarlinkProtocol

// The records of a report (Reports.Report): each reminder's figures, medication, habits and fitness.

/// `ReportReminder` of remindd's interfaces: one reminder's figures over a report's period
/// (``AdherenceFigures``).
public struct ReportReminderValue: Codable, Sendable, Hashable {
    /// A reason given for skips, and how many.
    public struct SkipReason: Codable, Sendable, Hashable {
        public var reason: String
        public var count: Int
    }

    /// One day: its date and its occurrences' states in time order, with their local times (`08:00`, or
    /// `08:00:30` with seconds; nil from a daemon before they were sent).
    public struct Day: Codable, Sendable, Hashable {
        public var date: String
        public var states: [String]
        public var times: [String]?
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
    /// Occurrences a pause covered (not due); nil when none.
    public var paused: Int?
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
    /// Whom the reminder is for (nil: the user).
    public var person: String?
    /// What `regimen` says, as facts a client words in its language: the dose and its unit, the strength, and
    /// the rule.
    public var dose: Double?
    public var unit: String?
    public var strength: Double?
    public var strengthUnit: String?
    public var rule: RuleSpec?

    public init(reminderId: Int64, reminderName: String, figures: AdherenceFigures, regimen: String? = nil, forced: Int? = nil) {
        (self.reminderId, self.reminderName, self.regimen, self.forced) = (reminderId, reminderName, regimen, forced)
        (due, onTime, loggedAhead, late) = (figures.due, figures.onTime, figures.loggedAhead, figures.late)
        (lateMinutesMedian, lateMinutesP90, skipped) = (figures.lateMinutesMedian, figures.lateMinutesP90, figures.skipped)
        paused = figures.paused > 0 ? figures.paused : nil
        skipReasons = figures.skipReasons.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { SkipReason(reason: $0.key, count: $0.value) }
        missed = figures.missed.map(\.localISO8601)
        adherence = figures.adherence
        days = figures.days.map { day in
            Day(date: day.date.description, states: day.states.map(\.rawValue), times: day.times.map(\.description))
        }
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

    /// A dose logged past a limit (`--force`): when (local, with offset), which limit it broke when it was
    /// logged (`minInterval`: too soon after the dose at `other`; `maxPerDay`: dose `count` of a rolling 24 hours
    /// from `other`; "": none by then).
    public struct ForcedDose: Codable, Sendable, Hashable {
        public var at: String
        public var limit: String
        public var other: String?
        public var count: Int?
        public init(at: String, limit: String, other: String? = nil, count: Int? = nil) {
            (self.at, self.limit, self.other, self.count) = (at, limit, other, count)
        }
    }

    public var reminderId: Int64
    public var reminderName: String
    public var unit: String
    public var taken: [Taken]
    public var asNeededWeeks: [Week]?
    public var stock: [StockDay]?
    /// Taken as needed: how many doses in the period (absent for a scheduled medication).
    public var asNeededDoses: Int?
    /// Its limits as set (`minInterval` seconds, `maxPerDay`), absent when none.
    public var minIntervalSeconds: Int64?
    public var maxPerDay: Int?
    /// Every dose forced past a limit in the period, oldest first; absent when none.
    public var forcedDoses: [ForcedDose]?

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

extension ReportReminderValue {
    /// The value with its regimen's facts: the reminder's dose, strength and rule.
    public func saying(_ medication: MedicationSettings, rule: RuleSpec) -> Self {
        var value = self
        (value.dose, value.unit) = (medication.dose.map { Double($0.thousandths) / 1000 }, medication.dose?.unit)
        (value.strength, value.strengthUnit) = (medication.strength.map { Double($0.thousandths) / 1000 }, medication.strength?.unit)
        value.rule = rule
        return value
    }
}
