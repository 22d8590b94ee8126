import ArgumentParser
import Glibc
import ReminderCore
import ReminderInterface
import Translation

private func printExercises(_ exercises: [ExerciseValue]) {
    out.table(["EXERCISE", "CATEGORY", "LIGHT", "MODERATE", "VIGOROUS"], exercises.map { e in
        [e.name, e.category] + e.levels.map { String($0.met) + " MET" }
    })
}

struct ExerciseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exercise", abstract: "The exercise library (Compendium of Physical Activities MET values).",
        subcommands: [ExerciseSearchCommand.self, ExerciseListCommand.self, ExerciseShowCommand.self])
}

struct ExerciseSearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find exercises (any word order, a small typo is fine).",
        discussion: "Examples:\n  remindctl exercise search bike\n  remindctl exercise search \"runing\"")

    @Argument(help: "Words of the name.") var text: String
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let found = try connection.call(Fitness.ExerciseSearch.self, .init(text: text)).exercises
        if json { return try out.json(found) }
        if found.isEmpty { return out.print("No exercise matches \(quotedInput(text)). See 'remindctl exercise list'.") }
        printExercises(found)
    }
}

struct ExerciseListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List exercises, optionally of one category.",
        discussion: "Examples:\n  remindctl exercise list\n  remindctl exercise list --category Strength")

    @Option(help: "Cardio, Strength, Sports or Flexibility.") var category: String?
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let all = try connection.call(Fitness.ExerciseList.self, .init(category: category)).exercises
        if json { return try out.json(all) }
        printExercises(all)
    }
}

struct ExerciseShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "An exercise's category and MET at each intensity, with Compendium codes.",
        discussion: "Example:\n  remindctl exercise show Swimming")

    @Argument(help: "The exercise (an id or a name).", completion: .custom(Completions.exercises)) var name: String
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let e = try connection.call(Fitness.ExerciseShow.self, .init(name: name)).exercise
        if json { return try out.json(e) }
        out.print("\(e.name) (\(e.category))")
        out.table(["INTENSITY", "MET", "COMPENDIUM"], e.levels.map { [$0.intensity, String($0.met), $0.derived ? "derived from \($0.code)" : $0.code] })
    }
}

struct WorkoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout", abstract: "Log workouts (they count as activity for the streak).",
        subcommands: [WorkoutAddCommand.self, WorkoutUpdateCommand.self, WorkoutDeleteCommand.self, WorkoutListCommand.self])
}

struct WorkoutAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Log a workout; calories = minutes x MET x 3.5 x kg / 200.",
        discussion: "Examples:\n  remindctl workout add Running --minutes 30 --intensity vigorous\n  remindctl workout add yoga --minutes 45 --intensity light --at 07:00")

    @Argument(help: "The exercise (see 'remindctl exercise list').", completion: .custom(Completions.exercises)) var exercise: String
    @Option(parsing: .unconditional, help: "Duration, 1 to 1440.") var minutes: Int
    @Option(help: "light, moderate or vigorous.", completion: .custom(Completions.intensities)) var intensity: String?
    @Option(help: "When (default now): 07:45 or 2026-11-21T07:45 in your zone (TZ), or an instant.") var at: String?
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let w = try connection.call(Fitness.WorkoutAdd.self, .init(exercise: exercise, minutes: minutes, intensity: intensity, at: CommandContext.current.typedTime(at))).workout
        if json { return try out.json(w) }
        let typed = exercise.lowercased()
        let picked = [w.name.lowercased(), String(w.name.lowercased().map { $0 == " " ? "-" : $0 })].contains(typed)
            ? "" : " (the only exercise matching '\(exercise)')"
        out.print(out.words(HabitMessages.loggedWorkout, w.id, w.name + picked, w.minutes ?? 0, w.intensity ?? "", w.kcal))
    }
}

struct WorkoutUpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update", abstract: "Change a workout's minutes or intensity (calories are recomputed).",
        discussion: "Example:\n  remindctl workout update 3 --minutes 40")

    @Argument(help: "The workout id.") var id: Int64
    @Option(parsing: .unconditional, help: "Duration, 1 to 1440.") var minutes: Int?
    @Option(help: "light, moderate or vigorous.", completion: .custom(Completions.intensities)) var intensity: String?
    @Flag(help: "Print the workout as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        guard minutes != nil || intensity != nil else { throw CLIError("nothing to change: give --minutes or --intensity") }
        let w = try connection.call(Fitness.WorkoutEdit.self, .init(id: id, minutes: minutes, intensity: intensity)).workout
        if json { return try out.json(w) }
        out.print(out.words(HabitMessages.workoutLine, w.id, w.name, w.minutes ?? 0, w.intensity ?? "", w.kcal))
    }
}

/// Asks before deleting on a terminal (unless --yes); a script is not asked.
struct WorkoutDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a workout.", discussion: "Example:\n  remindctl workout delete 3 --yes")

    @Argument(help: "The workout id.") var id: Int64
    @Flag(help: "Do not ask for confirmation.") var yes = false
    @Flag(help: "Print the deleted workout as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        guard confirmDeletion("workout \(id)", yes: yes) else { return out.print(out.words(HabitMessages.nothingDeleted)) }
        let w = try connection.call(Fitness.WorkoutDelete.self, .init(id: id)).workout
        if json { return try out.json(w) }
        out.print(out.words(HabitMessages.deletedWorkout, w.id, w.name, w.minutes ?? 0, w.intensity ?? "", w.kcal, out.time(w.local)))
    }
}

struct WorkoutListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Workouts of a day (default today).", discussion: "Example:\n  remindctl workout list --date 2026-11-20")

    @Option(help: "The day, YYYY-MM-DD.") var date: String?
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let day = try connection.call(Fitness.Day.self, .init(date: date))
        if json { return try out.json(day.workouts) }
        if day.workouts.isEmpty { return out.print(out.words(HabitMessages.noWorkouts, day.date)) }
        let headings = out.headings(
            CommandMessages.id, CommandMessages.time, HabitMessages.exerciseHeading, HabitMessages.minHeading, HabitMessages.intensityHeading, HabitMessages.kcalHeading)
        out.table(headings, day.workouts.map {
            [String($0.id), out.clock($0.local), $0.name, String($0.minutes ?? 0), $0.intensity ?? "", String($0.kcal)]
        })
    }
}

struct FoodCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "food", abstract: "Log food (calories eaten).", subcommands: [FoodAddCommand.self, FoodListCommand.self, FoodDeleteCommand.self])
}

struct FoodListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "A day's food (default today).",
        discussion: "Examples:\n  remindctl food list\n  remindctl food list --date 2026-11-20 --json")

    @Option(help: ArgumentHelp("The day (YYYY-MM-DD, default today).", valueName: "date")) var date: String?
    @Flag(help: "Print a JSON array of food entries.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let day = try connection.call(Fitness.Day.self, .init(date: date))
        if json { return try out.json(day.food) }
        if day.food.isEmpty { return out.print(out.words(HabitMessages.noFood, day.date)) }
        let headings = out.headings(CommandMessages.id, CommandMessages.time, HabitMessages.foodHeading, HabitMessages.kcalHeading)
        out.table(headings, day.food.map { [String($0.id), out.clock($0.local), $0.name, String($0.kcal)] })
        out.print(out.words(HabitMessages.totalKcal, day.consumed))
    }
}

struct FoodAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Log food.", discussion: "Example:\n  remindctl food add \"Oatmeal with berries\" --kcal 350 --at 07:30")

    @Argument(help: "What it was.") var name: String
    // .unconditional: "--kcal -5" is a value (refused by its range), not a missing one.
    @Option(parsing: .unconditional, help: "Calories, 0 to 20000.") var kcal: Int
    @Option(help: "When (default now): 07:45 or 2026-11-21T07:45 in your zone (TZ), or an instant.") var at: String?
    @Flag(help: "Print the entry as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let f = try connection.call(Fitness.FoodAdd.self, .init(name: name, kcal: kcal, at: CommandContext.current.typedTime(at))).food
        if json { return try out.json(f) }
        out.print(out.words(HabitMessages.loggedFood, f.id, f.name, f.kcal))
    }
}

struct FoodDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a food entry.", discussion: "Example:\n  remindctl food delete 2 --yes")

    @Argument(help: "The food entry id.") var id: Int64
    @Flag(help: "Do not ask for confirmation.") var yes = false
    @Flag(help: "Print the deleted entry as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        guard confirmDeletion("food entry \(id)", yes: yes) else { return out.print(out.words(HabitMessages.nothingDeleted)) }
        let f = try connection.call(Fitness.FoodDelete.self, .init(id: id)).food
        if json { return try out.json(f) }
        out.print(out.words(HabitMessages.deletedFood, f.id, f.name, f.kcal, out.time(f.local)))
    }
}

/// A day as `today` and `day` show it: each reminder's occurrences with their states, how many of each
/// medication's doses are taken, food and workouts.
private struct DayReport: Encodable {
    let date: String
    let occurrences: [OccurrenceValue]
    let doses: [DoseCount]
    /// Today only: each medication taken as needed, and when its next dose is allowed.
    let asNeeded: [AsNeededValue]?
    let food: [LogEntryValue]
    let workouts: [LogEntryValue]
    let consumed: Int
    let burned: Int
    let net: Int
}

/// Reads a day (nil: today) and prints it, or its JSON.
private func showDay(_ date: String?, json: Bool, connection: ConnectionOptions) throws {
    let day = try connection.call(Fitness.Day.self, .init(date: date))
    let reply = try connection.call(Reminders.Occurrences.self, .init(date: day.date))
    let (occurrences, asNeeded) = (reply.occurrences, reply.asNeeded ?? [])
    let doses = DoseCount.counts(of: occurrences)
    if json {
        return try out.json(DayReport(
            date: day.date, occurrences: occurrences, doses: doses, asNeeded: reply.asNeeded, food: day.food, workouts: day.workouts, consumed: day.consumed,
            burned: day.burned, net: day.net))
    }
    let date = ISO8601.parseDate(day.date)
    if let date {
        out.print(out.paint(out.dayTitle(date), .bold))
        out.print("")
    }
    if !occurrences.isEmpty {
        out.table(out.headings(CommandMessages.time, CommandMessages.reminder, CommandMessages.state), occurrences.map { occurrence in
            var state = out.state(occurrence.state)
            if ["taken", "taken-late"].contains(occurrence.state), let logged = occurrence.loggedUtc {
                state = out.words(CommandMessages.loggedAt, state, out.clock(logged))
            }
            return [date.map { out.clockTime(occurrence.local, on: $0) } ?? out.clockTime(occurrence.local), nameWithDose(occurrence.shownName, occurrence.dose, occurrence.unit), state]
        })
        out.print("")
    }
    if !doses.isEmpty {
        out.print(out.words(CommandMessages.doses, doses.map(\.text).joined(separator: " · ")))
        out.print("")
    }
    printAsNeeded(asNeeded)
    printDay(day)
}

/// How many of a medication's doses of the day are taken: `Metformin 2 of 3 taken, 1 missed`.
struct DoseCount: Encodable, Equatable {
    let reminderName: String
    /// Taken: in their window, late, or logged ahead (suppressed).
    let taken: Int
    /// The doses of the day a pause does not cover.
    let of: Int
    let missed: Int
    let skipped: Int
    let paused: Int

    /// One for each reminder with a dose, in the order of their first occurrence.
    static func counts(of occurrences: [OccurrenceValue]) -> [DoseCount] {
        var order: [String] = []
        var grouped: [String: [String]] = [:]
        for occurrence in occurrences where occurrence.dose != nil {
            if grouped[occurrence.shownName] == nil { order.append(occurrence.shownName) }
            grouped[occurrence.shownName, default: []].append(occurrence.state)
        }
        return order.map { name in
            let states = grouped[name] ?? []
            return DoseCount(
                reminderName: name, taken: states.filter { ["taken", "taken-late", "suppressed"].contains($0) }.count,
                of: states.filter { $0 != "paused" }.count, missed: states.filter { $0 == "missed" }.count,
                skipped: states.filter { $0 == "skipped" }.count, paused: states.filter { $0 == "paused" }.count)
        }
    }

    /// `Metformin 2 of 3 taken, 1 missed`, in the output's language.
    var text: String {
        var text = out.words(CommandMessages.doseCount, reminderName, taken, of)
        if missed > 0 { text = out.words(CommandMessages.dosesMissed, text, missed) }
        if skipped > 0 { text = out.words(CommandMessages.dosesSkipped, text, skipped) }
        if paused > 0 { text = out.words(CommandMessages.dosesPaused, text, paused) }
        return text
    }
}

/// The medications taken as needed, under their own heading (`today`, `next`).
func printAsNeeded(_ values: [AsNeededValue]) {
    guard !values.isEmpty else { return }
    out.print(out.words(CommandMessages.asNeeded))
    let width = values.map { [$0.shownName, doseText($0.dose, $0.unit)].compactMap { $0 }.joined(separator: " ").displayWidth }.max() ?? 0
    for value in values { out.print("  " + asNeededLine(value, nameWidth: width)) }
    out.print("")
}

private func printDay(_ day: DayValue) {
    let (food, workout) = (out.words(CommandMessages.food), out.words(CommandMessages.workout))
    let rows = (day.food.map { (out.clock($0.local), food, $0.name, "+\($0.kcal)") }
        + day.workouts.map { (out.clock($0.local), workout, "\($0.name), \($0.minutes ?? 0) min \($0.intensity ?? "")", "-\($0.kcal)") })
        .sorted { $0.0 < $1.0 }
    if rows.isEmpty {
        // Only food and workouts: the doses above are logged (the message said "Nothing logged" under them).
        out.print(out.words(CommandMessages.noFoodOrWorkouts, day.date))
    } else {
        out.table(
            out.headings(CommandMessages.time, CommandMessages.kind, CommandMessages.entry, CommandMessages.kcal), rows.map { [$0.0, $0.1, $0.2, $0.3] })
        out.print("")
    }
    let net =
        day.net == 0
        ? out.words(CommandMessages.zeroKcal)
        : day.net < 0 ? out.paint(out.words(CommandMessages.deficit, day.net), .green) : out.paint(out.words(CommandMessages.surplus, day.net), .red)
    out.print(out.words(CommandMessages.netLine, day.consumed, day.burned, net))
}

struct TodayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today", abstract: "Today: each reminder's occurrences and their states, then food and workouts with net calories.",
        discussion: "Example:\n  remindctl today --json")

    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try showDay(nil, json: json, connection: connection)
    }
}

struct DayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "day", abstract: "A day's occurrences and their states, food and workouts, with the totals.", discussion: "Example:\n  remindctl day 2026-11-20")

    @Argument(help: "The day, YYYY-MM-DD (default today).") var date: String?
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try showDay(date, json: json, connection: connection)
    }
}

struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Your profile (the weight used for calories).", subcommands: [ProfileShowCommand.self, ProfileSetCommand.self])
}

struct ProfileShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show your profile.", discussion: "Examples:\n  remindctl profile show\n  remindctl profile show --json")

    @Flag(help: "Print the profile as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let profile = try connection.call(Fitness.ProfileGet.self)
        if json { return try out.json(profile) }
        out.print(out.words(profile.weightSet ? HabitMessages.weight : HabitMessages.weightDefault, String(profile.weightKg)))
        if let name = profile.name { out.print(out.words(HabitMessages.profileName, name)) }
    }
}

struct ProfileSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set your weight (default 70 kg) and the name reports are made for.",
        discussion: """
            Examples:
              remindctl profile set --weight 82kg
              remindctl profile set --weight 180lb
              remindctl profile set --name "Ana Souza"
              remindctl profile set --name ""    (reports name no one)
            """)

    @Option(help: "Weight with unit: 82kg or 180lb.") var weight: String?
    @Option(help: ArgumentHelp("The name reports say they are for (\"\" removes it).", valueName: "name")) var name: String?
    @Flag(help: "Print the profile set as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        guard weight != nil || name != nil else { throw ValidationError("give --weight, --name or both, e.g. remindctl profile set --weight 82kg") }
    }

    func run() throws {
        let reply = try connection.call(Fitness.ProfileSet.self, .init(weight: weight, name: name))
        if json { return try out.json(reply) }
        if weight != nil { out.print("Weight set to \(reply.weightKg) kg") }
        if name != nil { out.print(reply.name.map { "Reports are for \($0)" } ?? "Reports name no one") }
    }
}

struct CaloriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calories", abstract: "Calories day by day: workouts and calories burned, food eaten, the net.",
        discussion: """
            Each day from --from to --to (default today; at most 366 days) in remindd's zone. ('remindctl \\
            history --from' showed this before, and still does for one release.)

            Examples:
              remindctl calories --from 2026-11-01
              remindctl calories --from 2026-11-01 --to 2026-11-07 --json
            """)

    @Option(help: ArgumentHelp("The first day (YYYY-MM-DD).", valueName: "date")) var from: String
    @Option(help: ArgumentHelp("The last day (default today).", valueName: "date")) var to: String?
    @Flag(help: "Print a JSON array of days.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try Self.printDays(from: from, to: to, json: json, connection: connection)
    }

    static func printDays(from: String, to: String?, json: Bool, connection: ConnectionOptions) throws {
        let days = try connection.call(Fitness.DayHistory.self, .init(from: from, to: to)).days
        if json { return try out.json(days) }
        for day in days {
            let title = ISO8601.parseDate(day.date).map { date in
                "\(out.weekday(date)) \(date.day) \(out.words.name(ofMonth: date.month, abbreviated: true))"
            } ?? day.date
            if day.workouts.isEmpty {
                let none = out.words(HabitMessages.noWorkoutsOn, title)
                out.print(day.consumed > 0 ? out.words(HabitMessages.kcalEaten, none, day.consumed) : none)
            } else {
                let list = day.workouts.map { "\($0.name) \($0.minutes ?? 0) min" }.joined(separator: ", ")
                out.print(out.words(HabitMessages.caloriesLine, title, day.burned, list, day.consumed, day.net))
            }
        }
    }
}
