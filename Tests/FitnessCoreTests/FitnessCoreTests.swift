import FitnessCore
import Foundation
import Testing

/// The shipped library file, read from the checkout (the same file `make install-user` installs).
func shipped() throws -> ExerciseLibrary {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let path = root.appendingPathComponent("share/remindd/exercises.csv").path
    return try ExerciseLibrary(csv: String(contentsOfFile: path, encoding: .utf8), file: path)
}

@Suite("Exercise library and calories")
struct FitnessCoreTests {
    @Test func theShippedLibraryHasFortyExercisesInEveryCategory() throws {
        let shippedLibrary = try shipped()
        #expect(shippedLibrary.exercises.count >= 40)
        for category in ExerciseCategory.allCases {
            #expect(shippedLibrary.exercises.contains { $0.category == category }, "\(category)")
        }
    }

    @Test func everyLevelIsInsideItsBand() throws {
        let shippedLibrary = try shipped()
        for exercise in shippedLibrary.exercises {
            for level in Intensity.allCases {
                #expect(Intensity(met: exercise.met(level)) == level, "\(exercise.name) \(level): \(exercise.met(level))")
            }
        }
    }

    @Test func distinctCompendiumEntriesAreUsedWhereTheyExist() throws {
        let shippedLibrary = try shipped()
        let walking = shippedLibrary.exercise(named: "walking")!
        #expect(walking.values[.light] == .init(met: 2.8, code: "17152", derived: false))
        #expect(walking.values[.moderate] == .init(met: 3.5, code: "17190", derived: false))
        #expect(walking.values[.vigorous] == .init(met: 7.0, code: "17230", derived: false))
        let cycling = shippedLibrary.exercise(named: "Cycling")!
        #expect(cycling.met(.moderate) == 4.0 && cycling.met(.vigorous) == 7.5)
        let swimming = shippedLibrary.exercise(named: "swimming")!
        #expect(swimming.met(.moderate) == 5.8 && swimming.met(.vigorous) == 9.8)
    }

    @Test func missingLevelsAreDerivedInsideTheirBands() throws {
        let shippedLibrary = try shipped()
        #expect(Exercise.derive(base: 9.8, to: .light) == 2.9)
        #expect(Exercise.derive(base: 9.8, to: .moderate) == 5.9)
        #expect(Exercise.derive(base: 7.0, to: .moderate) == 4.9)
        #expect(Exercise.derive(base: 2.3, to: .moderate) == 3.2)
        #expect(Exercise.derive(base: 2.3, to: .vigorous) == 6.0)
        #expect(Exercise.derive(base: 5.0, to: .light) == 2.9)
        let running = shippedLibrary.exercise(named: "running")!
        #expect(running.values[.light]!.derived && running.values[.light]!.code == "12050")
    }

    @Test func caloriesUseTheACSMFormula() {
        // 30 minutes of running (9.8 MET) at 70 kg: 360 kcal, not the 103 of the formula without 3.5.
        #expect(Calories.burned(minutes: 30, met: 9.8, weightKilograms: 70) == 360)
        #expect(Calories.burned(minutes: 60, met: 3.5, weightKilograms: 82) == 301)
        #expect(Calories.burned(minutes: 0, met: 5, weightKilograms: 70) == 0)
        #expect(Calories.burned(minutes: -5, met: 5, weightKilograms: 70) == 0)
    }

    @Test func weightsParseInKilogramsAndPounds() {
        #expect(Calories.parseWeight("82kg") == 82)
        #expect(Calories.parseWeight("180 lb") == 81.6)
        #expect(Calories.parseWeight("180lbs") == 81.6)
        #expect(Calories.parseWeight("70") == 70)
        #expect(Calories.parseWeight("5kg") == nil)
        #expect(Calories.parseWeight("heavy") == nil)
    }

    @Test func searchIgnoresCaseAndWordOrderAndToleratesATypo() throws {
        let shippedLibrary = try shipped()
        #expect(shippedLibrary.search("BIKE stationary").first?.name == "Stationary Bike")
        #expect(shippedLibrary.search("runing").map(\.name).contains("Running"))
        #expect(shippedLibrary.search("jump rpoe").first?.name == "Jump Rope")
        #expect(shippedLibrary.search("zzzz").isEmpty)
        #expect(shippedLibrary.suggestions(for: "swiming").first == "Swimming")
    }

    /// The "Nope" logged Jump Rope: a word that matches only with a typo is suggested, never picked; the
    /// only exercise with every word typed is picked.
    @Test func onlyAnUnambiguousMatchWithoutTyposIsPicked() throws {
        let library = try shipped()
        func problem(_ name: String) -> String? {
            do { _ = try WorkoutInput.exercise(name, in: library) } catch { return error.message }
            return nil
        }
        #expect(problem("Nope") == "unknown exercise 'Nope': did you mean 'Jump Rope'? ('remindctl exercise search' lists them)")
        #expect(problem("swim")?.hasPrefix("unknown exercise 'swim': did you mean 'Swimming") == true)
        #expect(try WorkoutInput.exercise("jump", in: library).name == "Jump Rope")
        #expect(try WorkoutInput.exercise("jump-rope", in: library).name == "Jump Rope")
    }

    @Test func fieldsAreReadWithoutTheBlanksAroundThem() throws {
        let text = " id , name ,category,code,met\r\n\tcafé-walk\t,  Café walk \u{2603} ,Cardio, 17150 ,\t3.5 \r\n \t \r\n"
        let library = try ExerciseLibrary(csv: text, file: "x.csv")
        let walk = try #require(library.exercises.first)
        #expect(library.exercises.count == 1)
        #expect(walk.id == "café-walk")
        #expect(walk.name == "Café walk \u{2603}")
        #expect(walk.values[.moderate]?.code == "17150")
        #expect(walk.values[.moderate]?.met == 3.5)
    }

    @Test func malformedLinesNameFileAndLine() {
        let header = "id,name,category,code,met\n"
        #expect(throws: LibraryError(file: "x.csv", line: 2, message: "unknown category 'Cardiology': use Cardio, Strength, Sports, Flexibility")) {
            try ExerciseLibrary(csv: header + "a,A,Cardiology,1,3.0\n", file: "x.csv")
        }
        #expect(throws: LibraryError(file: "x.csv", line: 3, message: "'a' has two moderate entries")) {
            try ExerciseLibrary(csv: header + "a,A,Cardio,1,3.0\na,A,Cardio,2,4.0\n", file: "x.csv")
        }
        #expect(throws: LibraryError(file: "x.csv", line: 2, message: "MET 'fast' must be a number between 0 and 30")) {
            try ExerciseLibrary(csv: header + "a,A,Cardio,1,fast\n", file: "x.csv")
        }
    }
}
