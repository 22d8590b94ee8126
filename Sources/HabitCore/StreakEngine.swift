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
    /// When its day began (the day start in its zone), for the grace period, which is elapsed time; nil: at the
    /// day start under `offsetSeconds` (the same unless the offset changed since the day began).
    public var dayBegan: Instant?

    public init(instant: Instant, offsetSeconds: Int, dayBegan: Instant? = nil) {
        self.instant = instant
        self.offsetSeconds = offsetSeconds
        self.dayBegan = dayBegan
    }

    /// An activity at `instant` in `zone`: its offset then, and when its day began under `rules` (a day start
    /// that a DST change skips begins the day when the clocks jump; one that occurs twice, at the first).
    public init(instant: Instant, zone: TimeZoneRules, rules: DayRules) {
        let offset = zone.offset(at: instant)
        let day = rules.day(ofLocalSeconds: instant.secondsSinceEpoch + Int64(offset))
        self.init(instant: instant, offsetSeconds: offset, dayBegan: zone.resolve(LocalDateTime(date: LocalDate(dayNumber: day), time: rules.dayStart)))
    }

    var localSeconds: Int64 { instant.secondsSinceEpoch + Int64(offsetSeconds) }

    /// Real seconds since its day began.
    func secondsIntoDay(_ rules: DayRules) -> Int64 {
        guard let dayBegan else { return Int64(rules.secondsIntoDay(ofLocalSeconds: localSeconds)) }
        return instant.secondsSinceEpoch - dayBegan.secondsSinceEpoch
    }
}

/// How many activities fall on each habit day, and how many of those in the grace period after the day before:
/// all the streak engine needs of them. Kept up to date one activity at a time, so that an answer does not read
/// years of history again.
public struct ActivityDays: Sendable, Hashable {
    public struct Count: Sendable, Hashable {
        public var all = 0
        public var grace = 0
    }

    public private(set) var counts: [Int: Count] = [:]
    /// The latest activity ever added (a removal leaves it): activities after "now" must be left out, so with
    /// one after now the days are counted again from the activities.
    public private(set) var latest: Instant?
    public let rules: DayRules

    public init(rules: DayRules) {
        self.rules = rules
    }

    public init(_ activities: some Sequence<Activity>, rules: DayRules) {
        self.init(rules: rules)
        for activity in activities { add(activity) }
    }

    public mutating func add(_ activity: Activity) {
        let (day, inGrace) = place(activity)
        counts[day, default: Count()].all += 1
        if inGrace { counts[day, default: Count()].grace += 1 }
        latest = max(latest ?? activity.instant, activity.instant)
    }

    public mutating func remove(_ activity: Activity) {
        let (day, inGrace) = place(activity)
        guard var count = counts[day], count.all > 0 else { return }
        count.all -= 1
        if inGrace { count.grace = max(0, count.grace - 1) }
        counts[day] = count.all == 0 ? nil : count
    }

    /// Its local day, and whether it falls in the grace period after the day before.
    private func place(_ activity: Activity) -> (day: Int, inGrace: Bool) {
        (rules.day(ofLocalSeconds: activity.localSeconds), activity.secondsIntoDay(rules) < Int64(rules.graceSeconds))
    }
}

/// The one-time manual recovery: the missed days it restored, and the day it was used.
public struct Recovery: Hashable, Sendable {
    public var days: ClosedRange<Int>
    public var usedOn: Int

    public init(days: ClosedRange<Int>, usedOn: Int) {
        self.days = days
        self.usedOn = usedOn
    }
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

    /// Habit strength at the end of a day in `state`, from what it was the day before: active 1, missed 0; rest,
    /// frozen, recovered and open days leave it unchanged.
    public static func strengthAfter(_ state: DayState, from strength: Double) -> Double {
        switch state {
        case .active: strength * strengthMultiplier + (1 - strengthMultiplier)
        case .missed: strength * strengthMultiplier
        case .rest, .frozen, .recovered, .open: strength
        }
    }

    /// Computes the report.
    /// - Parameters:
    ///   - activities: intake logs and workouts, in any order.
    ///   - restDays: marked rest days (future ones are kept but do not count yet).
    ///   - recovered: the manual recovery, if it was used.
    ///   - now: the current instant and the offset in effect, which give "today".
    public static func report(
        activities: [Activity], restDays: [RestDay], recovered: Recovery?, now: Activity, rules: DayRules = DayRules()
    ) -> StreakReport {
        report(days: ActivityDays(activities.lazy.filter { $0.instant <= now.instant }, rules: rules), restDays: restDays, recovered: recovered, now: now)
    }

    /// Computes the report from activities counted per day (none of them after `now`), under their day rules.
    public static func report(days activityDays: ActivityDays, restDays: [RestDay], recovered: Recovery?, now: Activity) -> StreakReport {
        let rules = activityDays.rules
        let today = rules.day(ofLocalSeconds: now.localSeconds)
        let inGraceOfYesterday = now.secondsIntoDay(rules) < Int64(rules.graceSeconds)
        let own = activityDays.counts
        let rest = Set(restDays.map(\.date.dayNumber))
        let recoveredDays = recovered.map { Set($0.days) } ?? []
        let graceDays = own.filter { $0.value.grace > 0 }.keys.map { $0 - 1 }
        let first = ([today] + Array(own.keys) + graceDays + rest.filter { $0 <= today } + Array(recoveredDays)).min()!
        var walk = StreakWalk(own: own, rest: rest, recoveredDays: recoveredDays, today: today, inGraceOfYesterday: inGraceOfYesterday, first: first)
        walk.walk(from: first)
        if let recovered, recovered.usedOn <= today { walk.unlock(.secondChance, recovered.usedOn) }
        var lastBreak = walk.breaks.last.map(walk.withMissedDays)

        // The current streak survives an open today, and a missed yesterday that a banked freeze will cover.
        var current: StreakRun?
        var mustLogBy: LocalDate?
        var best = walk.best
        let todayState = walk.days[today]!
        if walk.streak > 0 {
            let lastStreakDay = todayState == .open ? today - 1 : today
            current = walk.run(endingAt: lastStreakDay)
            mustLogBy = LocalDate(dayNumber: lastDayToLog(after: lastStreakDay, streak: walk.streak, freezes: walk.freezes, rest: rest))
        } else if walk.days[today - 1] == .missed, let broken = lastBreak, broken.missed == (today - 1)...(today - 1), walk.freezes > 0,
            todayState == .open
        {
            // Yesterday was missed: logging today spends a freeze and keeps the streak. That break is not final:
            // what recovery would restore is the one before it.
            current = broken.streak
            mustLogBy = LocalDate(dayNumber: today)
            lastBreak = walk.breaks.dropLast().last.map(walk.withMissedDays)
        }
        if let last = current, let currentBest = best, last.length > currentBest.length { best = last }

        let achievements = walk.achievements.map { Achievement(id: $0.key, date: LocalDate(dayNumber: $0.value)) }
        return StreakReport(
            days: walk.days, current: current, best: best, freezesBanked: walk.freezes, freezeHistory: walk.history,
            achievements: achievements.sorted { ($0.date, $0.id.rawValue) < ($1.date, $1.id.rawValue) },
            strength: walk.strength, mustLogBy: mustLogBy, lastBreak: lastBreak, recoveryUsed: recovered != nil)
    }

    /// The last day on which an activity keeps a streak whose last day is `lastStreakDay`, with nothing
    /// logged before it: planned rest days keep and extend the streak, and each banked freeze can cover a single
    /// missed day that a streak day follows.
    static func lastDayToLog(after lastStreakDay: Int, streak: Int, freezes: Int, rest: Set<Int>) -> Int {
        /// Whether the streak survives when the next activity is on `target`.
        func survives(loggingOn target: Int) -> Bool {
            var (length, banked) = (streak, freezes)
            for day in (lastStreakDay + 1)..<target {
                length += 1
                if rest.contains(day) {
                    if length % 7 == 0 { banked = min(banked + 1, maximumFreezes) }
                } else {
                    // A missed day is frozen only when a streak day follows it.
                    guard banked > 0, rest.contains(day + 1) || day + 1 == target else { return false }
                    banked -= 1
                }
            }
            return true
        }
        var last = lastStreakDay + 1
        while last - lastStreakDay < 800 && survives(loggingOn: last + 1) { last += 1 }
        return last
    }
}
