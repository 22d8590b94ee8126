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
        var top: [String: (TOMLScalar, Int)] = [:]
        var dayTables: [(line: Int, fields: [String: (TOMLScalar, Int)])] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let content = Self.stripComment(String(raw)).trimmed
            if content.isEmpty { continue }
            if content == "[[day]]" {
                dayTables.append((line, [:]))
                continue
            }
            if content.hasPrefix("[") {
                throw RoutineError(file: file, line: line, message: "unknown table \(content): routines have top-level keys and [[day]] tables")
            }
            guard let equals = content.firstIndex(of: "=") else { throw RoutineError(file: file, line: line, message: "expected 'key = value'") }
            let key = String(content[..<equals]).trimmed
            guard let value = TOMLScalar(String(content[content.index(after: equals)...]).trimmed) else {
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
        func string(_ fields: [String: (TOMLScalar, Int)], _ key: String, at line: Int) throws(RoutineError) -> String {
            guard let (value, valueLine) = fields[key] else { throw RoutineError(file: file, line: line, message: "missing '\(key)'") }
            guard case .string(let text) = value, !text.isEmpty else { throw RoutineError(file: file, line: valueLine, message: "'\(key)' must be a non-empty string") }
            return text
        }
        id = try string(top, "id", at: 1)
        name = try string(top, "name", at: 1)
        description = try string(top, "description", at: 1)
        let difficultyText = try string(top, "difficulty", at: 1)
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
                guard case .array(let ids) = value else { throw RoutineError(file: file, line: line, message: "'exercises' must be a list of exercise ids") }
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
            days.append(Day(
                number: number, title: try string(fields, "title", at: table.line), description: try string(fields, "description", at: table.line),
                exercises: exercises, rest: rest, notes: notes))
        }
        self.days = days
    }

    private static func stripComment(_ line: String) -> String {
        var inString = false
        for (offset, c) in line.enumerated() {
            if c == "\"" { inString.toggle() }
            if c == "#" && !inString { return String(line.prefix(offset)) }
        }
        return line
    }
}

/// The TOML values routines use.
enum TOMLScalar: Equatable {
    case string(String), integer(Int), bool(Bool), array([String])

    init?(_ text: String) {
        if text == "true" { self = .bool(true); return }
        if text == "false" { self = .bool(false); return }
        if let number = Int(text) { self = .integer(number); return }
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 {
            let inner = String(text.dropFirst().dropLast())
            guard !inner.contains("\"") else { return nil }
            self = .string(inner)
            return
        }
        if text.hasPrefix("["), text.hasSuffix("]") {
            let inner = text.dropFirst().dropLast().trimmingSpaces
            if inner.isEmpty { self = .array([]); return }
            var items: [String] = []
            for item in inner.split(separator: ",") {
                guard case .string(let value)? = TOMLScalar(String(item).trimmed) else { return nil }
                items.append(value)
            }
            self = .array(items)
            return
        }
        return nil
    }
}

/// A routine file problem.
public typealias RoutineError = FileLineError

extension StringProtocol {
    var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
    var trimmingSpaces: String { trimmed }
}
