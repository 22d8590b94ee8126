import ReminderCore
import VarlinkProtocol

// The records of io.remindd.Fitness and io.remindd.Routines: exercises, food and workouts, days, routines.

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
