import ReminderCore

/// How hard a workout was, by the Compendium's MET bands.
public enum Intensity: String, CaseIterable, Sendable, Comparable {
    case light, moderate, vigorous

    /// The MET band: Light < 3.0, Moderate 3.0-5.9, Vigorous >= 6.0.
    public init(met: Double) {
        self = met < 3.0 ? .light : met < 6.0 ? .moderate : .vigorous
    }

    public static func < (a: Intensity, b: Intensity) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// An exercise's categories.
public enum ExerciseCategory: String, CaseIterable, Sendable {
    case cardio = "Cardio", strength = "Strength", sports = "Sports", flexibility = "Flexibility"
}

/// One exercise with a MET value for each intensity: from its own Compendium entry where there is one,
/// else derived from the base entry (``Exercise/derive(base:to:)``).
public struct Exercise: Hashable, Sendable {
    public struct Value: Hashable, Sendable {
        public var met: Double
        /// The Compendium code the value comes from (for a derived value, the base entry's).
        public var code: String
        public var derived: Bool

        public init(met: Double, code: String, derived: Bool) {
            self.met = met
            self.code = code
            self.derived = derived
        }
    }

    public var id: String
    public var name: String
    public var category: ExerciseCategory
    public var values: [Intensity: Value]

    public func met(_ intensity: Intensity) -> Double { values[intensity]!.met }

    /// The documented derivation rule: from a base MET value b, a missing level gets
    /// light = min(b × 0.6, 2.9); moderate = b × 1.4 from a light base or b × 0.7 from a vigorous one,
    /// kept within 3.0-5.9; vigorous = max(b × 1.3, 6.0). Rounded to one decimal, always inside the band.
    public static func derive(base: Double, to level: Intensity) -> Double {
        let value: Double
        switch level {
        case .light: value = max(1.0, min(base * 0.6, 2.9))
        case .moderate: value = min(max(Intensity(met: base) == .light ? base * 1.4 : base * 0.7, 3.0), 5.9)
        case .vigorous: value = max(base * 1.3, 6.0)
        }
        return (value * 10).rounded() / 10
    }
}

/// The exercise library: loaded from a CSV data file (`share/remindd/exercises.csv`), searched by name.
public struct ExerciseLibrary: Sendable {
    public let exercises: [Exercise]

    /// Parses the data file; a bad line is an error that names the file and the line.
    public init(csv text: String, file: String) throws(LibraryError) {
        var order: [String] = []
        var rows: [String: (name: String, category: ExerciseCategory, entries: [(Intensity, Exercise.Value)])] = [:]
        var sawHeader = false
        let records: [CSV.Record]
        do { records = try CSV.records(text) } catch { throw LibraryError(file: file, line: error.line, message: error.message) }
        for record in records {
            let fields = record.fields.map(\.trimmed)
            if fields == [""] || fields[0].hasPrefix("#") { continue }  // blank lines and comments
            func fail(_ message: String) -> LibraryError { LibraryError(file: file, line: record.line, message: message) }
            if !sawHeader {
                guard fields == ["id", "name", "category", "code", "met"] else { throw fail("expected the header id,name,category,code,met") }
                sawHeader = true
                continue
            }
            guard fields.count == 5 else { throw fail("expected 5 fields (id,name,category,code,met), found \(fields.count)") }
            guard let category = ExerciseCategory(rawValue: fields[2]) else {
                throw fail("unknown category '\(fields[2])': use \(ExerciseCategory.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let met = Double(fields[4]), met > 0, met < 30 else { throw fail("MET '\(fields[4])' must be a number between 0 and 30") }
            guard !fields[0].isEmpty, !fields[1].isEmpty, !fields[3].isEmpty else { throw fail("id, name and code must not be empty") }
            let level = Intensity(met: met)
            var entry = rows[fields[0]] ?? (fields[1], category, [])
            guard entry.name == fields[1], entry.category == category else { throw fail("'\(fields[0])' has another name or category on an earlier line") }
            guard !entry.entries.contains(where: { $0.0 == level }) else { throw fail("'\(fields[0])' has two \(level.rawValue) entries") }
            entry.entries.append((level, Exercise.Value(met: met, code: fields[3], derived: false)))
            if rows[fields[0]] == nil { order.append(fields[0]) }
            rows[fields[0]] = entry
        }
        exercises = order.map { id in
            let row = rows[id]!
            let base = row.entries[0].1
            var values = Dictionary(uniqueKeysWithValues: row.entries.map { ($0.0, $0.1) })
            for level in Intensity.allCases where values[level] == nil {
                values[level] = Exercise.Value(met: Exercise.derive(base: base.met, to: level), code: base.code, derived: true)
            }
            return Exercise(id: id, name: row.name, category: row.category, values: values)
        }
    }

    /// Exact match on id or name, ignoring case.
    public func exercise(named text: String) -> Exercise? {
        let key = text.lowercased()
        return exercises.first { $0.id == key || $0.name.lowercased() == key }
    }

    /// Exercises whose name contains every word of `text` in any order, ignoring case, each word allowed
    /// one typo (a letter changed, added, dropped or two swapped); best matches first.
    public func search(_ text: String) -> [Exercise] {
        matches(text).map(\.exercise)
    }

    /// What ``search(_:)`` finds, each with its number of typos (words that matched only with one).
    public func matches(_ text: String) -> [(exercise: Exercise, typos: Int)] {
        let words = Self.words(text)
        guard !words.isEmpty else { return [] }
        return exercises.compactMap { exercise -> (Exercise, Int)? in
            let nameWords = Self.words(exercise.name) + Self.words(exercise.id)
            var cost = 0
            for word in words {
                let best = nameWords.map { Self.matchCost(word, $0) }.min() ?? .max
                guard best <= 1 else { return nil }
                cost += best
            }
            return (exercise, cost)
        }.sorted { ($0.1, $0.0.name) < ($1.1, $1.0.name) }.map { (exercise: $0.0, typos: $0.1) }
    }

    /// The closest names to a text that matched nothing, for "did you mean".
    public func suggestions(for text: String, limit: Int = 3) -> [String] {
        let key = text.lowercased()
        return exercises.map { ($0.name, Self.distance(key, $0.name.lowercased())) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit).map(\.0)
    }

    static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// 0 when `word` is a prefix of `candidate`, 1 when one edit away from it or from a prefix of it.
    static func matchCost(_ word: String, _ candidate: String) -> Int {
        if candidate.hasPrefix(word) { return 0 }
        let prefixes = [word.count - 1, word.count, word.count + 1].filter { $0 > 0 && $0 <= candidate.count }.map { String(candidate.prefix($0)) }
        return word.count >= 3 && prefixes.contains { distance(word, $0) <= 1 } ? 1 : 2
    }

    static func distance(_ a: String, _ b: String) -> Int { EditDistance.between(a, b) }
}

/// A bad line in the exercise library file.
public typealias LibraryError = FileLineError
