import FitnessCore
import ReminderCore
import Foundation
import Testing

@Suite("Routine files")
struct RoutineTests {
    func shippedRoutines() throws -> [Routine] {
        let library = try shipped()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent("share/remindd/routines")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".toml") }.sorted().map {
            let path = directory.appendingPathComponent($0).path
            return try Routine(toml: String(contentsOfFile: path, encoding: .utf8), file: path, library: library)
        }
    }

    @Test func theShippedRoutinesParse() throws {
        let routines = try shippedRoutines()
        let beginner = try #require(routines.first { $0.id == "beginner-full-body" })
        #expect(beginner.difficulty == .beginner)
        #expect(beginner.days.filter(\.rest).count == 4 && beginner.days.filter { !$0.rest }.count == 3)
        let alternating = try #require(routines.first { $0.id == "alternating" })
        #expect(alternating.days.prefix(6).map(\.rest) == [false, true, false, true, false, true])
        let typical = try #require(routines.first { $0.id == "typical-week" })
        #expect(typical.days[0].title == "Day 1: Heavy Training" && typical.days[1].rest)
    }

    static let good = """
        id = "x"
        name = "X"
        description = "d"
        difficulty = "Beginner"
        """ + (1...7).map { "\n[[day]]\nnumber = \($0)\ntitle = \"Day \($0)\"\ndescription = \"d\"\n" + ($0 % 2 == 0 ? "rest = true" : "exercises = [\"yoga\"]") }.joined()

    /// Routines and the config are read by one TOML reader: a routine takes single quotes and escapes as the
    /// config does (the routine reader took neither), and a nested array is refused, not recursed into.
    @Test func routinesReadStringsAsTheConfigDoes() throws {
        let text = Self.good.replacingOccurrences(of: "name = \"X\"", with: "name = 'X'").replacingOccurrences(of: "description = \"d\"\ndifficulty", with: "description = \"a \\\"quoted\\\" d\"\ndifficulty")
        let routine = try Routine(toml: text, file: "x.toml", library: try shipped())
        #expect(routine.name == "X" && routine.description == "a \"quoted\" d")
        let nested = Self.good.replacingOccurrences(of: "exercises = [\"yoga\"]", with: "exercises = [[\"yoga\"]]")
        #expect(throws: RoutineError.self) { try Routine(toml: nested, file: "x.toml", library: try shipped()) }
    }

    @Test func aWellFormedFileParses() throws {
        let routine = try Routine(toml: Self.good, file: "x.toml", library: try shipped())
        #expect(routine.days.count == 7 && routine.days[0].exercises == ["yoga"])
    }

    // Lines of `good`: 1-4 the routine's keys; day n starts at line 5 + 5 (n - 1) with [[day]], then number,
    // title, description, and exercises or rest.
    @Test(arguments: [
        ("difficulty = \"Beginner\"", "difficulty = \"Expert\"", 4, "difficulty must be Beginner"),
        ("exercises = [\"yoga\"]\n[[day]]\nnumber = 2", "exercises = [\"yogga\"]\n[[day]]\nnumber = 2", 9, "unknown exercise 'yogga'"),
        ("number = 3", "number = 4", 16, "day 3 must have number = 3"),
        ("rest = true\n[[day]]\nnumber = 5", "colour = \"red\"\n[[day]]\nnumber = 5", 24, "unknown key 'colour' in a day"),
        ("description = \"d\"\ndifficulty", "description = d\ndifficulty", 3, "bad value for 'description'"),
    ])
    func malformedFilesNameTheLine(original: String, replacement: String, line: Int, words: String) throws {
        let text = Self.good.replacingOccurrences(of: original, with: replacement)
        #expect(text != Self.good)
        #expect {
            try Routine(toml: text, file: "x.toml", library: try shipped())
        } throws: { error in
            guard let error = error as? RoutineError else { return false }
            return error.line == line && error.message.contains(words) && error.description.hasPrefix("x.toml:\(line): ")
        }
    }
}

@Suite("Routine plans and workout checks")
struct PlanTests {
    func beginner() throws -> Routine {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("share/remindd/routines/beginner-full-body.toml").path
        return try Routine(toml: String(contentsOfFile: path, encoding: .utf8), file: path, library: try shipped())
    }

    @Test func selectingWithRemindersPlansTrainingRemindersAndFourWeeksOfRest() throws {
        let monday = LocalDate(year: 2026, month: 11, day: 23)!
        let alreadyRest: Set<LocalDate> = [LocalDate(year: 2026, month: 11, day: 24)!]
        let plan = RoutinePlan(routine: try beginner(), starts: monday, remind: TimeOfDay(hour: 18, minute: 0), alreadyRest: alreadyRest)
        #expect(plan.reminders.map(\.name) == [
            "Beginner Full Body: Day 1: Full Body A", "Beginner Full Body: Day 3: Full Body B", "Beginner Full Body: Day 5: Full Body C",
        ])
        #expect(plan.reminders.map(\.rule) == ["mon", "wed", "fri"].map { RuleSpec(weekly: $0, at: "18:00", start: "2026-11-23") })
        #expect(plan.restDays.count == 15)  // 4 rest days x 4 weeks, less the one already marked
        #expect(!plan.restDays.contains(LocalDate(year: 2026, month: 11, day: 24)!))
        #expect(plan.restDays.first == LocalDate(year: 2026, month: 11, day: 26))
    }

    @Test func withoutRemindNothingIsCreated() throws {
        let plan = RoutinePlan(routine: try beginner(), starts: LocalDate(year: 2026, month: 11, day: 23)!, remind: nil, alreadyRest: [])
        #expect(plan.reminders.isEmpty && plan.restDays.isEmpty)
    }

    @Test func startingMidweekShiftsTheWeekdays() throws {
        let thursday = LocalDate(year: 2026, month: 11, day: 26)!
        let plan = RoutinePlan(routine: try beginner(), starts: thursday, remind: TimeOfDay(hour: 7, minute: 30), alreadyRest: [])
        #expect(plan.reminders.map(\.rule.weekly) == ["thu", "sat", "mon"])
    }

    let now = Instant(secondsSinceEpoch: 1_795_000_000)

    @Test(arguments: [
        ("Running", 0, "vigorous", 0, "minutes", "1 to 1440 minutes"),
        ("Running", 1441, "vigorous", 0, "minutes", "1 to 1440 minutes"),
        ("Running", 30, nil, 0, "intensity", "missing intensity"),
        ("Running", 30, "fast", 0, "intensity", "unknown intensity 'fast'"),
        ("Swiming", 30, "light", 0, "exercise", "did you mean 'Swimming'"),
        ("Running", 30, "vigorous", 60, "at", "in the future"),
    ] as [(String, Int, String?, Int64, String, String)])
    func everyValidationErrorIsSpecific(exercise: String, minutes: Int, intensity: String?, secondsAhead: Int64, parameter: String, words: String) throws {
        let input = WorkoutInput(exercise: exercise, minutes: minutes, intensity: intensity, at: now.adding(seconds: secondsAhead))
        #expect {
            try input.check(library: try shipped(), weightKilograms: 70, now: now)
        } throws: { error in
            guard let problem = error as? WorkoutInput.Problem else { return false }
            return problem.parameter == parameter && problem.message.contains(words)
        }
    }

    @Test func aValidWorkoutGetsItsCalories() throws {
        let checked = try WorkoutInput(exercise: "running", minutes: 30, intensity: "vigorous", at: now).check(library: try shipped(), weightKilograms: 70, now: now)
        #expect(checked.kcal == 360 && checked.met == 9.8 && checked.exercise.name == "Running")
    }
}
