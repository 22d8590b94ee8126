import ReminderCore

/// What selecting a routine creates, decided without I/O: a weekly reminder per training day and the
/// rest days of the next four weeks.
public struct RoutinePlan: Hashable, Sendable {
    public struct PlannedReminder: Hashable, Sendable {
        public var name: String
        public var rule: RuleSpec
    }

    public var reminders: [PlannedReminder]
    public var restDays: [LocalDate]

    /// - Parameters:
    ///   - starts: the date of day 1 (the routine repeats weekly from there).
    ///   - remind: the time of day of the training-day reminders; nil plans nothing.
    ///   - alreadyRest: rest days the user marked, which stay theirs (and are not planned again).
    public init(routine: Routine, starts: LocalDate, remind: TimeOfDay?, alreadyRest: Set<LocalDate>) {
        guard let remind else {
            reminders = []
            restDays = []
            return
        }
        reminders = routine.days.filter { !$0.rest }.map { day in
            let weekday = LocalDate(dayNumber: starts.dayNumber + day.number - 1).weekday
            return PlannedReminder(
                name: "\(routine.name): \(day.title)", rule: RuleSpec(weekly: weekday.shortName, at: remind.description, start: starts.description))
        }
        restDays = (0..<4).flatMap { week in
            routine.days.filter(\.rest).map { LocalDate(dayNumber: starts.dayNumber + week * 7 + $0.number - 1) }
        }.filter { !alreadyRest.contains($0) }.sorted()
    }
}

/// A workout as the user typed it, checked against the library before anything is stored.
public struct WorkoutInput: Sendable {
    public var exercise: String
    public var minutes: Int
    public var intensity: String?
    public var at: Instant

    public init(exercise: String, minutes: Int, intensity: String?, at: Instant) {
        self.exercise = exercise
        self.minutes = minutes
        self.intensity = intensity
        self.at = at
    }

    /// A workout that passed validation, with its MET value and calories.
    public struct Checked: Hashable, Sendable {
        public var exercise: Exercise
        public var intensity: Intensity
        public var met: Double
        public var kcal: Int
    }

    /// Why a workout was refused: the parameter and a one-line message that says how to fix it.
    public struct Problem: Error, Hashable, Sendable {
        public var parameter: String
        public var message: String
    }

    /// Checks duration, intensity, exercise and time, in that order, and computes the calories.
    public func check(library: ExerciseLibrary, weightKilograms: Double, now: Instant) throws(Problem) -> Checked {
        guard (1...1440).contains(minutes) else { throw Problem(parameter: "minutes", message: "a workout lasts 1 to 1440 minutes, not \(minutes)") }
        let intensity = try Self.intensity(intensity)
        let exercise = try Self.exercise(exercise, in: library)
        guard at <= now else { throw Problem(parameter: "at", message: "\(at) is in the future: log what already happened") }
        let met = exercise.met(intensity)
        return Checked(exercise: exercise, intensity: intensity, met: met, kcal: Calories.burned(minutes: minutes, met: met, weightKilograms: weightKilograms))
    }

    public static func intensity(_ text: String?) throws(Problem) -> Intensity {
        guard let text else { throw Problem(parameter: "intensity", message: "missing intensity: add --intensity light, moderate or vigorous") }
        guard let intensity = Intensity(rawValue: text.lowercased()) else {
            throw Problem(parameter: "intensity", message: "unknown intensity \(quotedInput(text)): use light, moderate or vigorous")
        }
        return intensity
    }

    /// An exact name or id, or the only exercise whose name has every word typed (as a word's start, without a
    /// typo); otherwise a problem that suggests the closest names: a typo is only ever suggested, never picked.
    public static func exercise(_ name: String, in library: ExerciseLibrary) throws(Problem) -> Exercise {
        if let exact = library.exercise(named: name) { return exact }
        let found = library.matches(name)
        let withoutTypos = found.filter { $0.typos == 0 }
        if withoutTypos.count == 1 { return withoutTypos[0].exercise }
        let suggestions = found.isEmpty ? library.suggestions(for: name) : found.prefix(3).map(\.exercise.name)
        throw Problem(
            parameter: "exercise",
            message: "unknown exercise '\(name)': did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))? ('remindctl exercise search' lists them)")
    }
}
