#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import ReminderCore

/// Why a day was marked as a rest day.
public enum RestReason: String, CaseIterable, Sendable, Codable, LooselyNamed {
    case recovery = "Recovery"
    case travel = "Travel"
    case illness = "Illness"
    case busyDay = "Busy Day"
    case other = "Other"
}

/// A day the user marked as rest, with the reason and any light activities.
public struct RestDay: Hashable, Sendable {
    public var date: LocalDate
    public var reason: RestReason
    public var lightActivities: [String]

    public init(date: LocalDate, reason: RestReason, lightActivities: [String] = []) {
        self.date = date
        self.reason = reason
        self.lightActivities = lightActivities
    }
}

/// The state of one day in the overall streak.
public enum DayState: String, Sendable, Codable {
    /// At least one activity (an intake log or a workout).
    case active
    /// Marked as a rest day: keeps and extends the streak.
    case rest
    /// A single missed day covered by a freeze: counts as a streak day.
    case frozen
    /// A missed day restored by the one-time manual recovery: counts as a streak day.
    case recovered
    /// Nothing logged, and the day is over.
    case missed
    /// Today (or yesterday within the grace period) with nothing logged yet: does not break the streak.
    case open
}

/// How activity instants become days: the day boundary and the grace period.
public struct DayRules: Hashable, Sendable {
    /// When the day starts, as an offset from midnight (night-shift users: 04:00).
    public var dayStart: TimeOfDay
    /// An activity this long after the day ends counts for the previous day when that day has none.
    public var graceSeconds: Int

    public init(dayStart: TimeOfDay = TimeOfDay(hour: 0, minute: 0)!, graceSeconds: Int = 3600) {
        self.dayStart = dayStart
        self.graceSeconds = graceSeconds
    }

    /// The day (number) of a local wall-clock time: the date, moved back one when before `dayStart`.
    public func day(ofLocalSeconds local: Int64) -> Int {
        Int(CivilCalendar.floorDiv(local - Int64(dayStart.secondsSinceMidnight), 86400))
    }

    /// Seconds since the start of its day.
    func secondsIntoDay(ofLocalSeconds local: Int64) -> Int {
        Int(CivilCalendar.floorMod(local - Int64(dayStart.secondsSinceMidnight), 86400))
    }
}

/// An activity: when it happened, and the UTC offset of the zone in effect then (past days never move).
public struct Activity: Hashable, Sendable {
    public var instant: Instant
    public var offsetSeconds: Int

    public init(instant: Instant, offsetSeconds: Int) {
        self.instant = instant
        self.offsetSeconds = offsetSeconds
    }

    var localSeconds: Int64 { instant.secondsSinceEpoch + Int64(offsetSeconds) }
}

/// Something that happened to the freeze bank, for `remindctl freeze history`.
public struct FreezeEvent: Hashable, Sendable {
    public enum Kind: String, Sendable, Codable {
        /// The streak reached a multiple of 7 through an active or rest day.
        case earned
        /// A 6th freeze would have been earned: the bank holds 5.
        case maxReached = "max-reached"
        /// A single missed day was covered.
        case used
    }

    public var date: LocalDate
    public var kind: Kind
    /// Freezes in the bank after the event.
    public var banked: Int
    /// The streak length on that day.
    public var streak: Int
}

/// An achievement, unlocked once, on a day.
public struct Achievement: Hashable, Sendable {
    public enum ID: String, CaseIterable, Sendable, Codable {
        case firstRestDay = "first_rest_day"
        case balancedWeek = "balanced_week"
        case restAdvocate = "rest_advocate"
        case firstFreeze = "first_freeze"
        case freezeSaver = "freeze_saver"
        case secondChance = "second_chance"

        public var title: String {
            switch self {
            case .firstRestDay: return "Recovery Mode"
            case .balancedWeek: return "Balanced Week"
            case .restAdvocate: return "Rest Advocate"
            case .firstFreeze: return "Safety Net"
            case .freezeSaver: return "Freeze Saver"
            case .secondChance: return "Second Chance"
            }
        }

        public var xp: Int {
            switch self {
            case .firstRestDay: return 10
            case .balancedWeek: return 50
            case .restAdvocate: return 75
            case .firstFreeze: return 25
            case .freezeSaver: return 100
            case .secondChance: return 50
            }
        }

        public var requirement: String {
            switch self {
            case .firstRestDay: return "take your first rest day"
            case .balancedWeek: return "5 active days and a rest day in one Monday-to-Sunday week"
            case .restAdvocate: return "a rest day right after 10 active days in a row"
            case .firstFreeze: return "earn your first streak freeze"
            case .freezeSaver: return "bank 5 freezes at once"
            case .secondChance: return "use the one-time streak recovery"
            }
        }
    }

    public var id: ID
    public var date: LocalDate
}

/// A run of consecutive streak days.
public struct StreakRun: Hashable, Sendable {
    public var length: Int
    public var start: LocalDate
    public var end: LocalDate
}

/// Everything the habit views show, computed from raw events; nothing here is stored.
public struct StreakReport: Hashable, Sendable {
    /// Day states from the first event through today, by day number.
    public var days: [Int: DayState]
    public var current: StreakRun?
    public var best: StreakRun?
    public var freezesBanked: Int
    public var freezeHistory: [FreezeEvent]
    public var achievements: [Achievement]
    /// Loop Habit Tracker's habit strength, 0...1.
    public var strength: Double
    /// The last day on which something must be logged to keep the current streak, or nil without a streak.
    public var mustLogBy: LocalDate?
    /// The most recent break: the streak it ended and the missed days; what manual recovery would restore.
    public var lastBreak: (streak: StreakRun, missed: ClosedRange<Int>)?
    /// Whether manual recovery was used (it can be used once, ever).
    public var recoveryUsed: Bool

    public static func == (a: StreakReport, b: StreakReport) -> Bool {
        a.days == b.days && a.current == b.current && a.best == b.best && a.freezesBanked == b.freezesBanked
            && a.freezeHistory == b.freezeHistory && a.achievements == b.achievements && a.strength == b.strength
            && a.mustLogBy == b.mustLogBy && a.lastBreak?.streak == b.lastBreak?.streak
            && a.lastBreak?.missed == b.lastBreak?.missed && a.recoveryUsed == b.recoveryUsed
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(current)
        hasher.combine(freezesBanked)
    }

    public func state(of date: LocalDate) -> DayState? { days[date.dayNumber] }
}

/// The streak rules as one pure function of the raw events and "today".
public enum StreakEngine {
    /// Freezes the bank holds at most.
    public static let maximumFreezes = 5
    /// Loop Habit Tracker's smoothing for a daily habit: the score halves in 13 days without activity.
    public static let strengthMultiplier = pow(0.5, 1.0 / 13.0)

    /// Computes the report.
    /// - Parameters:
    ///   - activities: intake logs and workouts, in any order.
    ///   - restDays: marked rest days (future ones are kept but do not count yet).
    ///   - recovered: the days restored by the manual recovery, if it was used.
    ///   - now: the current instant and the offset in effect, which give "today".
    public static func report(
        activities: [Activity], restDays: [RestDay], recovered: ClosedRange<Int>?, now: Activity, rules: DayRules = DayRules()
    ) -> StreakReport {
        let today = rules.day(ofLocalSeconds: now.localSeconds)
        let inGraceOfYesterday = rules.secondsIntoDay(ofLocalSeconds: now.localSeconds) < rules.graceSeconds
        let activeDays = assignDays(activities.filter { $0.instant <= now.instant }, rules: rules)
        let rest = Set(restDays.map(\.date.dayNumber))
        let recoveredDays = recovered.map { Set($0) } ?? []
        let first = ([today] + Array(activeDays) + rest.filter { $0 <= today } + Array(recoveredDays)).min()!

        func base(_ day: Int) -> DayState {
            if activeDays.contains(day) { return .active }
            if rest.contains(day) { return .rest }
            if recoveredDays.contains(day) { return .recovered }
            if day == today || (day == today - 1 && inGraceOfYesterday) { return .open }
            return .missed
        }

        var days: [Int: DayState] = [:]
        var streak = 0
        var streakStart = first
        var freezes = 0
        var history: [FreezeEvent] = []
        var achievements: [Achievement.ID: Int] = [:]
        var best: StreakRun?
        var lastBreak: (streak: StreakRun, missed: ClosedRange<Int>)?
        var activeRun = 0
        var strength = 0.0

        func unlock(_ id: Achievement.ID, _ day: Int) {
            if achievements[id] == nil { achievements[id] = day }
        }
        func run(endingAt day: Int) -> StreakRun {
            StreakRun(length: streak, start: LocalDate(dayNumber: streakStart), end: LocalDate(dayNumber: day))
        }

        var day = first
        while day <= today {
            var state = base(day)
            if state == .missed, streak > 0, freezes > 0, [.active, .rest, .recovered].contains(base(day + 1)) {
                state = .frozen
            }
            days[day] = state
            switch state {
            case .active, .rest, .frozen, .recovered:
                if streak == 0 { streakStart = day }
                streak += 1
                if state == .frozen {
                    freezes -= 1
                    history.append(FreezeEvent(date: LocalDate(dayNumber: day), kind: .used, banked: freezes, streak: streak))
                } else if (state == .active || state == .rest) && streak % 7 == 0 {
                    if freezes < maximumFreezes {
                        freezes += 1
                        history.append(FreezeEvent(date: LocalDate(dayNumber: day), kind: .earned, banked: freezes, streak: streak))
                        unlock(.firstFreeze, day)
                        if freezes == maximumFreezes { unlock(.freezeSaver, day) }
                    } else {
                        history.append(FreezeEvent(date: LocalDate(dayNumber: day), kind: .maxReached, banked: freezes, streak: streak))
                    }
                }
                if best == nil || streak > best!.length { best = run(endingAt: day) }
            case .missed:
                if streak > 0 {
                    // The streak ends here; the missed run is what recovery would restore.
                    var end = day
                    while end + 1 < today && base(end + 1) == .missed { end += 1 }
                    lastBreak = (run(endingAt: day - 1), day...end)
                }
                streak = 0
            case .open:
                break
            }

            // Achievements that depend on the day's own state.
            if state == .rest {
                unlock(.firstRestDay, day)
                if activeRun >= 10 { unlock(.restAdvocate, day) }
            }
            activeRun = state == .active ? activeRun + 1 : 0
            if Weekday(dayNumber: day) == .sunday || day == today {
                let monday = day - CivilCalendar.floorMod(day - 4, 7)
                let week = (monday...day).map { days[$0] }
                if week.filter({ $0 == .active }).count >= 5 && week.contains(.rest) { unlock(.balancedWeek, day) }
            }
            // Habit strength: active 1, missed 0; rest, frozen and recovered days leave it unchanged.
            switch state {
            case .active: strength = strength * strengthMultiplier + (1 - strengthMultiplier)
            case .missed: strength *= strengthMultiplier
            default: break
            }
            day += 1
        }
        if recovered != nil, let start = recovered?.lowerBound { unlock(.secondChance, start) }

        // The current streak survives an open today, and a missed yesterday that a banked freeze will cover.
        var current: StreakRun?
        var mustLogBy: LocalDate?
        let todayState = days[today]!
        if streak > 0 {
            current = run(endingAt: todayState == .open ? today - 1 : today)
            let lastStreakDay = todayState == .open ? today - 1 : today
            mustLogBy = LocalDate(dayNumber: lastStreakDay + (freezes > 0 ? 2 : 1))
        } else if days[today - 1] == .missed, let broken = lastBreak, broken.missed == (today - 1)...(today - 1), freezes > 0,
            todayState == .open
        {
            // Yesterday was missed: logging today spends a freeze and keeps the streak.
            current = broken.streak
            mustLogBy = LocalDate(dayNumber: today)
            lastBreak = nil
        }
        if let last = current, let currentBest = best, last.length > currentBest.length { best = last }

        return StreakReport(
            days: days, current: current, best: best, freezesBanked: freezes, freezeHistory: history,
            achievements: achievements.map { Achievement(id: $0.key, date: LocalDate(dayNumber: $0.value)) }.sorted { ($0.date, $0.id.rawValue) < ($1.date, $1.id.rawValue) },
            strength: strength, mustLogBy: mustLogBy, lastBreak: lastBreak, recoveryUsed: recovered != nil)
    }

    /// The set of active days: each activity on its local day, or on the previous day when it falls in the
    /// grace period and that day has no activity of its own.
    static func assignDays(_ activities: [Activity], rules: DayRules) -> Set<Int> {
        let sorted = activities.sorted { $0.instant < $1.instant }
        var days = Set<Int>()
        var own = Set<Int>()
        for activity in sorted {
            own.insert(rules.day(ofLocalSeconds: activity.localSeconds))
        }
        for activity in sorted {
            let day = rules.day(ofLocalSeconds: activity.localSeconds)
            if rules.secondsIntoDay(ofLocalSeconds: activity.localSeconds) < rules.graceSeconds && !own.contains(day - 1) && !days.contains(day - 1) {
                days.insert(day - 1)
            } else {
                days.insert(day)
            }
        }
        return days
    }
}

