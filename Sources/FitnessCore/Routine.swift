import ReminderCore

/// A recommended weekly routine: seven days, each a training day (exercises from the library) or a rest day.
public struct Routine: Hashable, Sendable {
    public enum Difficulty: String, CaseIterable, Sendable { case beginner = "Beginner", intermediate = "Intermediate", advanced = "Advanced" }

    public struct Day: Hashable, Sendable {
        public var number: Int
        public var title: String
        public var description: String
        /// Library ids; empty on a rest day.
        public var exercises: [String]
        public var rest: Bool
        public var notes: String?
    }

    public var id: String
    public var name: String
    public var description: String
    public var difficulty: Difficulty
    /// Days 1 to 7, in order.
    public var days: [Day]

    /// Parses a routine file (the TOML subset routines use: top-level keys and `[[day]]` tables of strings,
    /// integers, booleans and string arrays). Exercises must be in `library`.
    public init(toml text: String, file: String, library: ExerciseLibrary) throws(RoutineError) {
        let (top, dayTables) = try Self.tables(text, file: file)
        id = try Self.string(top, "id", at: 1, file: file)
        name = try Self.string(top, "name", at: 1, file: file)
        description = try Self.string(top, "description", at: 1, file: file)
        let difficultyText = try Self.string(top, "difficulty", at: 1, file: file)
        guard let difficulty = Difficulty(rawValue: difficultyText) else {
            throw RoutineError(file: file, line: top["difficulty"]!.1, message: "difficulty must be Beginner, Intermediate or Advanced, not '\(difficultyText)'")
        }
        self.difficulty = difficulty
        for key in top.keys where !["id", "name", "description", "difficulty"].contains(key) {
            throw RoutineError(file: file, line: top[key]!.1, message: "unknown key '\(key)'")
        }
        guard dayTables.count == 7 else {
            throw RoutineError(file: file, line: dayTables.last?.line ?? 1, message: "a routine has 7 [[day]] tables, this one has \(dayTables.count)")
        }
        var days: [Day] = []
        for (expected, table) in zip(1..., dayTables) {
            days.append(try Self.day(expected, table, file: file, library: library))
        }
        self.days = days
    }

    /// A table's keys: each one's value and line.
    private typealias Fields = [String: (TOMLValue, Int)]

    /// The file's top-level keys, and its `[[day]]` tables in order (each with the line it starts on).
    private static func tables(_ text: String, file: String) throws(RoutineError) -> (top: Fields, days: [(line: Int, fields: Fields)]) {
        var top: Fields = [:]
        var dayTables: [(line: Int, fields: Fields)] = []
        let lines: [(line: Int, item: TOMLReader.Item)]
        do { lines = try TOMLReader.lines(text) } catch { throw RoutineError(file: file, line: error.line, message: error.message) }
        for (line, item) in lines {
            let key: String, value: TOMLValue
            switch item {
            case .arrayOfTables("day"):
                dayTables.append((line, [:]))
                continue
            case .table(let name):
                throw RoutineError(file: file, line: line, message: "unknown table [\(name)]: routines have top-level keys and [[day]] tables")
            case .arrayOfTables(let name):
                throw RoutineError(file: file, line: line, message: "unknown table [[\(name)]]: routines have top-level keys and [[day]] tables")
            case .keyValue(let name, let parsed, _):
                (key, value) = (name, parsed)
            }
            guard value != .invalid else {
                throw RoutineError(file: file, line: line, message: "bad value for '\(key)': use \"text\", a number, true/false or [\"a\", \"b\"]")
            }
            if dayTables.isEmpty {
                guard top[key] == nil else { throw RoutineError(file: file, line: line, message: "'\(key)' is set twice") }
                top[key] = (value, line)
            } else {
                guard dayTables[dayTables.count - 1].fields[key] == nil else { throw RoutineError(file: file, line: line, message: "'\(key)' is set twice in this day") }
                dayTables[dayTables.count - 1].fields[key] = (value, line)
            }
        }
        return (top, dayTables)
    }

    /// A key's non-empty string.
    private static func string(_ fields: Fields, _ key: String, at line: Int, file: String) throws(RoutineError) -> String {
        guard let (value, valueLine) = fields[key] else { throw RoutineError(file: file, line: line, message: "missing '\(key)'") }
        guard case .string(let text) = value, !text.isEmpty else { throw RoutineError(file: file, line: valueLine, message: "'\(key)' must be a non-empty string") }
        return text
    }

    /// The `expected`-th `[[day]]` table as a day.
    private static func day(_ expected: Int, _ table: (line: Int, fields: Fields), file: String, library: ExerciseLibrary) throws(RoutineError) -> Day {
        let fields = table.fields
        for key in fields.keys where !["number", "title", "description", "exercises", "rest", "notes"].contains(key) {
            throw RoutineError(file: file, line: fields[key]!.1, message: "unknown key '\(key)' in a day")
        }
        guard case .integer(let number)? = fields["number"]?.0, number == expected else {
            throw RoutineError(file: file, line: fields["number"]?.1 ?? table.line, message: "day \(expected) must have number = \(expected)")
        }
        var rest = false
        if let (value, line) = fields["rest"] {
            guard case .bool(let flag) = value else { throw RoutineError(file: file, line: line, message: "'rest' must be true or false") }
            rest = flag
        }
        var exercises: [String] = []
        if let (value, line) = fields["exercises"] {
            guard case .strings(let ids) = value else { throw RoutineError(file: file, line: line, message: "'exercises' must be a list of exercise ids") }
            for exerciseID in ids where library.exercise(named: exerciseID) == nil {
                throw RoutineError(file: file, line: line, message: "unknown exercise '\(exerciseID)': use ids from 'remindctl exercise list'")
            }
            exercises = ids
        }
        guard rest != !exercises.isEmpty else {
            throw RoutineError(file: file, line: table.line, message: "day \(expected) needs either exercises = [...] or rest = true")
        }
        var notes: String?
        if let (value, line) = fields["notes"] {
            guard case .string(let text) = value else { throw RoutineError(file: file, line: line, message: "'notes' must be a string") }
            notes = text
        }
        return Day(
            number: number, title: try string(fields, "title", at: table.line, file: file),
            description: try string(fields, "description", at: table.line, file: file), exercises: exercises, rest: rest, notes: notes)
    }
}

/// A routine file problem.
public typealias RoutineError = FileLineError

extension StringProtocol {
    /// Without the spaces, tabs and carriage returns at either end. Read by byte: every start reads the exercise
    /// library's fields through it, and by `Character` (reversed twice) that was a twentieth of a start's CPU.
    var trimmed: String {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }
        let text = Substring(self)
        guard let first = text.utf8.firstIndex(where: { !isBlank($0) }), let last = text.utf8.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(text[first..<text.utf8.index(after: last)])
    }
}
