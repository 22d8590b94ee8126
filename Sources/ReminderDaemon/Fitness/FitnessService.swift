import FitnessCore
import ReminderCore
import ReminderInterface
import ReminderStore

/// Workouts, food and the daily log. Calories and every input check come from `FitnessCore` (ACSM formula,
/// profile weight); this type reads and writes the store.
struct FitnessService: Sendable {
    let context: DaemonContext
    /// The stores it holds: the workouts and food.
    let stores: Stores

    private var exercises: ExerciseLibrary { context.exercises }

    func exerciseValue(_ exercise: Exercise) -> ExerciseValue {
        ExerciseValue(
            id: exercise.id, name: exercise.name, category: exercise.category.rawValue,
            levels: Intensity.allCases.map {
                let value = exercise.values[$0]!
                return ExerciseLevelValue(intensity: $0.rawValue, met: value.met, code: value.code, derived: value.derived)
            })
    }

    func searchExercises(_ text: String) -> [ExerciseValue] {
        exercises.search(text).map(exerciseValue)
    }

    func listExercises(category: String?) throws(ServiceError) -> [ExerciseValue] {
        guard let category else { return exercises.exercises.map(exerciseValue) }
        guard let parsed = ExerciseCategory.allCases.first(where: { $0.rawValue.lowercased() == category.lowercased() }) else {
            throw .invalidInput(parameter: "category", message: "unknown category '\(category)': use \(ExerciseCategory.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return exercises.exercises.filter { $0.category == parsed }.map(exerciseValue)
    }

    func showExercise(_ name: String) throws(ServiceError) -> ExerciseValue {
        do { return exerciseValue(try WorkoutInput.exercise(name, in: exercises)) } catch { throw .invalidInput(parameter: error.parameter, message: error.message) }
    }

    /// A setting kept in the profile (the routine selection); nil when not set.
    func setting(_ key: String) throws(ServiceError) -> String? {
        try storing { () throws(StoreError) in try stores.fitness.profile(key) }
    }

    /// Sets a setting, or removes it (nil).
    func setSetting(_ key: String, _ value: String?) throws(ServiceError) {
        if let value {
            try storing { () throws(StoreError) in try stores.fitness.setProfile(key, value) }
        } else {
            try storing { () throws(StoreError) in try stores.fitness.removeProfile(key) }
        }
    }

    /// The profile's key of the name reports are made for.
    static let profileNameKey = "name"
    /// The longest name a profile takes.
    static let maximumNameLength = 100

    /// The weight calories are computed with, whether the user set it, and the name reports are made for.
    func profile() throws(ServiceError) -> Fitness.ProfileGet.Reply {
        let stored = try storing { () throws(StoreError) in try stores.fitness.profile("weight-kg") }.flatMap(Calories.storedWeight)
        let name = try storing { () throws(StoreError) in try stores.fitness.profile(Self.profileNameKey) }
        return .init(weightKg: stored ?? Calories.defaultWeightKilograms, weightSet: stored != nil, name: name)
    }

    /// Sets the weight, the name ("" removes it), or both; each checked before either is stored.
    func setProfile(weight text: String?, name: String?) throws(ServiceError) -> Fitness.ProfileSet.Reply {
        guard text != nil || name != nil else {
            throw .invalidInput(parameter: "weight", message: "nothing to set: give a weight (82kg, 180lb), a name, or both")
        }
        let kilograms = try text.map { text throws(ServiceError) in
            guard let kilograms = Calories.parseWeight(text) else {
                throw .invalidInput(parameter: "weight", message: "invalid weight \(quotedInput(text)): write it with its unit, e.g. 82kg or 180lb (20-400 kg)")
            }
            return kilograms
        }
        let trimmed = name.map { String(String.UnicodeScalarView($0.unicodeScalars.filter { !$0.isControl })).withoutSurroundingSpaces }
        if let trimmed, trimmed.count > Self.maximumNameLength {
            throw .invalidInput(parameter: "name", message: "the name is \(trimmed.count) characters long: give at most \(Self.maximumNameLength)")
        }
        try storing { () throws(StoreError) in
            if let kilograms { try stores.fitness.setProfile("weight-kg", String(kilograms)) }
            if let trimmed {
                if trimmed.isEmpty { try stores.fitness.removeProfile(Self.profileNameKey) } else { try stores.fitness.setProfile(Self.profileNameKey, trimmed) }
            }
        }
        let profile = try profile()
        return .init(weightKg: profile.weightKg, name: profile.name)
    }

    /// Each day's calories from `from` through `through` (the current zone), read in one pass; nil when the
    /// period has no food and no workout.
    func calories(from: LocalDate, through: LocalDate) throws(ServiceError) -> ReportFitnessValue? {
        let zone = try context.settings.zone(named: nil)
        let start = zone.resolve(localSeconds: Int64(from.dayNumber) * 86400)
        let end = zone.resolve(localSeconds: Int64(through.dayNumber + 1) * 86400).adding(seconds: -1)
        var consumed: [Int: Int] = [:]
        var burned: [Int: Int] = [:]
        for table in [FitnessStore.EntryTable.food, .workout] {
            for entry in try storing({ () throws(StoreError) in try stores.fitness.entries(table, from: start, through: end) }) {
                let day = zone.localDayNumber(at: entry.at)
                if table == .food { consumed[day, default: 0] += entry.kcal } else { burned[day, default: 0] += entry.kcal }
            }
        }
        guard !consumed.isEmpty || !burned.isEmpty else { return nil }
        return ReportFitnessValue(days: (from.dayNumber...through.dayNumber).map { day in
            let (eaten, spent) = (consumed[day] ?? 0, burned[day] ?? 0)
            return .init(date: LocalDate(dayNumber: day).description, consumed: eaten, burned: spent, net: eaten - spent)
        })
    }

    private func entryTime(_ text: String?, now: Instant, zone: TimeZoneRules) throws(ServiceError) -> Instant {
        try TypedTime.pastInstant(text, parameter: "at", now: now, zone: zone, future: "log what already happened")
    }

    func addWorkout(exercise name: String, minutes: Int, intensity text: String?, at: String?) async throws(ServiceError) -> LogEntryValue {
        let zone = try context.settings.zone(named: nil)
        let now = context.clock.now()
        let instant = try entryTime(at, now: now, zone: zone)
        let weight = try profile().weightKg
        let checked: WorkoutInput.Checked
        do {
            checked = try WorkoutInput(exercise: name, minutes: minutes, intensity: text, at: instant)
                .check(library: exercises, weightKilograms: weight, now: now)
        } catch {
            throw .invalidInput(parameter: error.parameter, message: error.message)
        }
        let id = try storing { () throws(StoreError) in
            try stores.fitness.addWorkout(
                exercise: checked.exercise.id, minutes: minutes, intensity: checked.intensity.rawValue, met: checked.met, kcal: checked.kcal,
                at: instant, timeZone: zone.identifier)
        }
        await context.feed.deliver()
        return LogEntryValue(
            id: id, name: checked.exercise.name, kcal: checked.kcal, local: ISO8601.format(instant, offsetSeconds: zone.offset(at: instant), zulu: false),
            minutes: minutes, intensity: checked.intensity.rawValue)
    }

    func editWorkout(id: Int64, minutes: Int?, intensity text: String?) async throws(ServiceError) -> LogEntryValue {
        let now = context.clock.now()
        let stored = try storing { () throws(StoreError) in try stores.fitness.entry(.workout, id: id) }
        guard let entry = stored, let exercise = exercises.exercise(named: entry.name) else {
            throw .invalidInput(parameter: "id", message: "no workout \(id): see 'remindctl workout list'")
        }
        let newMinutes = minutes ?? entry.minutes ?? 0
        let weight = try profile().weightKg
        let checked: WorkoutInput.Checked
        do {
            checked = try WorkoutInput(exercise: exercise.id, minutes: newMinutes, intensity: text ?? entry.intensity, at: entry.at)
                .check(library: exercises, weightKilograms: weight, now: now)
        } catch {
            throw .invalidInput(parameter: error.parameter, message: error.message)
        }
        try storing { () throws(StoreError) in
            try stores.fitness.updateWorkout(id: id, minutes: newMinutes, intensity: checked.intensity.rawValue, met: checked.met, kcal: checked.kcal)
        }
        await context.feed.deliver()
        let fallback = try context.settings.zone(named: nil)
        // A zone the zone files no longer have (renamed by a tzdata update): shown in the system zone.
        let zone = (try? context.settings.zone(named: entry.timeZone)) ?? fallback
        return LogEntryValue(
            id: id, name: exercise.name, kcal: checked.kcal, local: ISO8601.format(entry.at, offsetSeconds: zone.offset(at: entry.at), zulu: false),
            minutes: newMinutes, intensity: checked.intensity.rawValue)
    }

    /// Deletes a workout or food entry.
    /// - Returns: the entry as it was, as `workout list` and `food list` show it.
    func deleteEntry(_ table: FitnessStore.EntryTable, id: Int64) async throws(ServiceError) -> LogEntryValue {
        let zone = try context.settings.zone(named: nil)
        let deleted = try storing { () throws(StoreError) in try stores.fitness.deleteEntry(table: table, id: id) }
        guard let deleted else { throw .invalidInput(parameter: "id", message: "no \(table.rawValue) entry \(id): see 'remindctl today' or 'remindctl day DATE'") }
        await context.feed.deliver()
        return value(of: deleted, in: table, zone: zone)
    }

    func addFood(name: String, kcal: Int, at: String?) throws(ServiceError) -> LogEntryValue {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .invalidInput(parameter: "name", message: "a food entry needs a name, e.g. remindctl food add \"Oatmeal\" --kcal 350") }
        guard (0...20_000).contains(kcal) else { throw .invalidInput(parameter: "kcal", message: "kcal must be 0 to 20000, not \(kcal)") }
        let zone = try context.settings.zone(named: nil)
        let now = context.clock.now()
        let instant = try entryTime(at, now: now, zone: zone)
        let id = try storing { () throws(StoreError) in try stores.fitness.addFood(name: trimmed, kcal: kcal, at: instant, timeZone: zone.identifier) }
        return LogEntryValue(id: id, name: trimmed, kcal: kcal, local: ISO8601.format(instant, offsetSeconds: zone.offset(at: instant), zulu: false), minutes: nil, intensity: nil)
    }

    /// Days from `from` to `to` (inclusive, at most 366), each with its food, workouts and totals.
    func days(from: String, to: String?) throws(ServiceError) -> [DayValue] {
        let first = try TypedTime.date(from, parameter: "from")
        let zone = try context.settings.zone(named: nil)
        let last = try context.settings.date(to, parameter: "to", now: context.clock.now())
        guard first <= last else { throw .invalidTime(parameter: "to", message: "the range ends (\(last)) before it starts (\(first))") }
        guard last.dayNumber - first.dayNumber < 366 else { throw .invalidTime(parameter: "to", message: "a history range is at most 366 days") }
        var result: [DayValue] = []
        for day in first.dayNumber...last.dayNumber { result.append(try self.day(LocalDate(dayNumber: day), zone: zone)) }
        return result
    }

    /// Deletes workouts and food older than `retention-days` (90 to 36,500) when the config sets it.
    func pruneOldEntries() {
        guard let days = context.settings.configuration.retentionDays else { return }
        let cutoff = context.clock.now().adding(seconds: -Int64(min(max(days, 90), 36_500)) * 86400)
        do {
            try stores.fitness.pruneEntries(before: cutoff)
        } catch {
            context.say(.warning, "Could not delete the workouts and food older than \(days) days (retention-days): \(error); tried again at the next start")
        }
    }

    /// A local day's food and workouts (default today), in the current zone.
    func day(_ text: String?) throws(ServiceError) -> DayValue {
        let zone = try context.settings.zone(named: nil)
        guard let text else { return try day(LocalDate(dayNumber: zone.localDayNumber(at: context.clock.now())), zone: zone) }
        let date = try TypedTime.date(text, parameter: "date")
        return try day(date, zone: zone)
    }

    private func day(_ date: LocalDate, zone: TimeZoneRules) throws(ServiceError) -> DayValue {
        let start = zone.resolve(localSeconds: Int64(date.dayNumber) * 86400)
        let end = zone.resolve(localSeconds: Int64(date.dayNumber + 1) * 86400).adding(seconds: -1)
        func values(_ table: FitnessStore.EntryTable) throws(ServiceError) -> [LogEntryValue] {
            try storing { () throws(StoreError) in
                try stores.fitness.entries(table, from: start, through: end).map { value(of: $0, in: table, zone: zone) }
            }
        }
        return DayValue(date: date.description, food: try values(.food), workouts: try values(.workout))
    }

    /// A stored entry as the day lists show it: a workout by its exercise's name, the time in `zone`.
    private func value(of entry: FitnessStore.LogEntry, in table: FitnessStore.EntryTable, zone: TimeZoneRules) -> LogEntryValue {
        let name = table == .workout ? (exercises.exercise(named: entry.name)?.name ?? entry.name) : entry.name
        return LogEntryValue(
            id: entry.id, name: name, kcal: entry.kcal, local: ISO8601.format(entry.at, offsetSeconds: zone.offset(at: entry.at), zulu: false),
            minutes: entry.minutes, intensity: entry.intensity)
    }
}

extension FitnessService {
    /// The stores FitnessService holds, and no other: the workouts and food.
    struct Stores: Sendable {
        let fitness: FitnessStore
    }
}
