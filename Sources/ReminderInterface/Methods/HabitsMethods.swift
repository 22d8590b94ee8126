import VarlinkProtocol

/// `io.remindd.Habits`: the overall streak, rest days, streak freezes, recovery, achievements, the calendar.
public enum Habits {
    public static let interface = "io.remindd.Habits"
}

/// A method of `io.remindd.Habits`.
public protocol HabitsMethod: VarlinkMethod {}
extension HabitsMethod {
    public static var interface: String { Habits.interface }
}

/// A range of dates (YYYY-MM-DD).
public struct DateRange: Codable, Sendable, Hashable {
    public var from: String?
    public var to: String?
    public init(from: String? = nil, to: String? = nil) { (self.from, self.to) = (from, to) }
}

extension Habits {
    /// The overall streak, freezes banked, habit strength.
    public enum Streak: HabitsMethod {
        public typealias Parameters = NoFields
        public typealias Reply = StreakValue
    }

    /// Marks a day, or a range of days, as rest days.
    public enum RestMark: HabitsMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var from: String
            public var to: String?
            public var reason: String?
            public var light: [String]?
            public init(from: String, to: String? = nil, reason: String? = nil, light: [String]? = nil) {
                (self.from, self.to, self.reason, self.light) = (from, to, reason, light)
            }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var dates: [String]
            /// Those of `dates` that were rest days already, for the same reason: nothing changed for them.
            public var alreadyMarked: [String]?
            public init(dates: [String], alreadyMarked: [String]? = nil) { (self.dates, self.alreadyMarked) = (dates, alreadyMarked) }
        }
    }

    public enum RestUnmark: HabitsMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var date: String
            public init(date: String) { self.date = date }
        }
        public typealias Reply = NoFields
    }

    /// Rest days in a range, oldest first.
    public enum RestList: HabitsMethod {
        public typealias Parameters = DateRange
        public struct Reply: Codable, Sendable, Hashable {
            public var restDays: [RestDayValue]
            public init(restDays: [RestDayValue]) { self.restDays = restDays }
        }
    }

    public enum RestStats: HabitsMethod {
        public typealias Parameters = NoFields
        public typealias Reply = RestStatsValue
    }

    public enum FreezeHistory: HabitsMethod {
        public typealias Parameters = NoFields
        public struct Reply: Codable, Sendable, Hashable {
            public var events: [FreezeEventValue]
            public init(events: [FreezeEventValue]) { self.events = events }
        }
    }

    /// Restores the most recently broken streak, once ever.
    public enum Recover: HabitsMethod {
        public typealias Parameters = NoFields
        public struct Reply: Codable, Sendable, Hashable {
            public var streak: StreakRunValue
            public init(streak: StreakRunValue) { self.streak = streak }
        }
    }

    public enum Achievements: HabitsMethod {
        public typealias Parameters = NoFields
        public struct Reply: Codable, Sendable, Hashable {
            public var achievements: [AchievementValue]
            public init(achievements: [AchievementValue]) { self.achievements = achievements }
        }
    }

    /// A month day by day.
    public enum Calendar: HabitsMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var month: String?
            public init(month: String? = nil) { self.month = month }
        }
        public typealias Reply = CalendarValue
    }
}
