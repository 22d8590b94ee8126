import FitnessCore
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
