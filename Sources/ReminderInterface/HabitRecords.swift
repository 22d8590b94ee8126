import ReminderCore
import VarlinkProtocol

// The records of io.remindd.Habits: streaks, freezes, achievements, the calendar, rest days.

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
