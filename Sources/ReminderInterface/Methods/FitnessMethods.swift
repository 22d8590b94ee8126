import VarlinkProtocol

/// `io.remindd.Fitness`: the exercise library, workouts, food, daily calories, the profile.
public enum Fitness {
    public static let interface = "io.remindd.Fitness"
}

/// A method of `io.remindd.Fitness`.
public protocol FitnessMethod: VarlinkMethod {}
extension FitnessMethod {
    public static var interface: String { Fitness.interface }
}

/// A workout or food entry by id.
public struct EntryID: Codable, Sendable, Hashable {
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

/// A reply of exercises.
public struct ExercisesReply: Codable, Sendable, Hashable {
    public var exercises: [ExerciseValue]
    public init(exercises: [ExerciseValue]) { self.exercises = exercises }
}

/// A reply of one workout.
public struct WorkoutReply: Codable, Sendable, Hashable {
    public var workout: LogEntryValue
    public init(workout: LogEntryValue) { self.workout = workout }
}

/// A reply of one food entry.
public struct FoodReply: Codable, Sendable, Hashable {
    public var food: LogEntryValue
    public init(food: LogEntryValue) { self.food = food }
}

extension Fitness {
    /// Finds exercises: case-insensitive, words in any order, one typo per word.
    public enum ExerciseSearch: FitnessMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var text: String
            public init(text: String) { self.text = text }
        }
        public typealias Reply = ExercisesReply
    }

    public enum ExerciseList: FitnessMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var category: String?
            public init(category: String? = nil) { self.category = category }
        }
        public typealias Reply = ExercisesReply
    }

    public enum ExerciseShow: FitnessMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var name: String
            public init(name: String) { self.name = name }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var exercise: ExerciseValue
            public init(exercise: ExerciseValue) { self.exercise = exercise }
        }
    }

    /// Logs a workout.
    public enum WorkoutAdd: FitnessMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var exercise: String
            public var minutes: Int
            public var intensity: String?
            public var at: String?
            public init(exercise: String, minutes: Int, intensity: String? = nil, at: String? = nil) {
                (self.exercise, self.minutes, self.intensity, self.at) = (exercise, minutes, intensity, at)
            }
        }
        public typealias Reply = WorkoutReply
    }

    public enum WorkoutEdit: FitnessMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var id: Int64
            public var minutes: Int?
            public var intensity: String?
            public init(id: Int64, minutes: Int? = nil, intensity: String? = nil) { (self.id, self.minutes, self.intensity) = (id, minutes, intensity) }
        }
        public typealias Reply = WorkoutReply
    }

    /// Deletes a workout; answers it as it was.
    public enum WorkoutDelete: FitnessMethod {
        public typealias Parameters = EntryID
        public typealias Reply = WorkoutReply
    }

    public enum FoodAdd: FitnessMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var name: String
            public var kcal: Int
            public var at: String?
            public init(name: String, kcal: Int, at: String? = nil) { (self.name, self.kcal, self.at) = (name, kcal, at) }
        }
        public typealias Reply = FoodReply
    }

    /// Deletes a food entry; answers it as it was.
    public enum FoodDelete: FitnessMethod {
        public typealias Parameters = EntryID
        public typealias Reply = FoodReply
    }

    /// A day's food and workouts with consumed, burned and net calories.
    public enum Day: FitnessMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var date: String?
            public init(date: String? = nil) { self.date = date }
        }
        public typealias Reply = DayValue
    }

    /// Days in a range, at most 366.
    public enum DayHistory: FitnessMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var from: String
            public var to: String?
            public init(from: String, to: String? = nil) { (self.from, self.to) = (from, to) }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var days: [DayValue]
            public init(days: [DayValue]) { self.days = days }
        }
    }

    /// The profile: the weight calories are computed with.
    public enum ProfileGet: FitnessMethod {
        public typealias Parameters = NoFields
        public struct Reply: Codable, Sendable, Hashable {
            public var weightKg: Double
            /// The weight was set with ProfileSet (else it is the default).
            public var weightSet: Bool
            /// Who reports are made for; nil until set.
            public var name: String?
            public init(weightKg: Double, weightSet: Bool, name: String?) { (self.weightKg, self.weightSet, self.name) = (weightKg, weightSet, name) }
        }
    }

    /// Sets the weight used for calories, the name reports are made for ("" removes it), or both.
    public enum ProfileSet: FitnessMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var weight: String?
            public var name: String?
            public init(weight: String? = nil, name: String? = nil) { (self.weight, self.name) = (weight, name) }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var weightKg: Double
            public var name: String?
            public init(weightKg: Double, name: String?) { (self.weightKg, self.name) = (weightKg, name) }
        }
    }
}
