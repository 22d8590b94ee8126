/// The rules for a reminder's name, wherever it comes from (`Add`, `Update`, a backup, Loop Habit Tracker, a
/// synced file): 1 to 200 characters once trimmed, one line without control characters, not only digits
/// (digits address ids).
public enum ReminderName {
    /// The longest name, in characters.
    public static let maximumLength = 200

    /// `name` without its surrounding spaces.
    /// - Throws: ``RuleSpecError`` with what to write instead.
    public static func checked(_ name: String) throws(RuleSpecError) -> String {
        let trimmed = name.withoutSurroundingSpaces
        guard !trimmed.isEmpty, trimmed.utf8.count <= maximumLength || trimmed.count <= maximumLength else {
            throw RuleSpecError("a reminder needs a name of 1 to \(maximumLength) characters, e.g. \"Vitamin D\"")
        }
        if trimmed.unicodeScalars.contains(where: \.isControl) {
            throw RuleSpecError("a reminder's name is one line without tabs or control characters: write it as \"\(oneLine(trimmed))\"")
        }
        if trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            throw RuleSpecError("a name of only digits, like \"\(trimmed)\", reads as an id in show, log or remove: write \"Dose \(trimmed)\" or \"#\(trimmed)\"")
        }
        return trimmed
    }

    /// The text with each run of control characters replaced by a space.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: \.isControl) else { return text }
        return text.unicodeScalars.split(whereSeparator: \.isControl).map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
    }
}

extension Unicode.Scalar {
    /// A control character (general category Cc: U+0000 to U+001F, U+007F to U+009F), told by its value: looking
    /// the property up was a tenth of reading a large calendar.
    public var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}

extension String {
    /// The text without leading and trailing spaces and tabs (and other Unicode spaces), as Foundation's
    /// `trimmingCharacters(in: .whitespaces)`, at no cost when there is nothing to trim.
    public var withoutSurroundingSpaces: String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
        guard let first = unicodeScalars.first, let last = unicodeScalars.last, isSpace(first) || isSpace(last) else { return self }
        let scalars = unicodeScalars.drop(while: isSpace)
        return String(String.UnicodeScalarView(scalars.reversed().drop(while: isSpace).reversed()))
    }
}
