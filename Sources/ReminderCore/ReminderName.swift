import Foundation

/// The rules for a reminder's name, wherever it comes from (`Add`, `Update`, a backup, Loop Habit Tracker, a
/// synced file): 1 to 200 characters once trimmed, one line without control characters, not only digits
/// (digits address ids).
public enum ReminderName {
    /// The longest name, in characters.
    public static let maximumLength = 200

    /// `name` without its surrounding spaces.
    /// - Throws: ``RuleSpecError`` with what to write instead.
    public static func checked(_ name: String) throws(RuleSpecError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= maximumLength else {
            throw RuleSpecError("a reminder needs a name of 1 to \(maximumLength) characters, e.g. \"Vitamin D\"")
        }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw RuleSpecError("a reminder's name is one line without tabs or control characters: write it as \"\(oneLine(trimmed))\"")
        }
        if trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw RuleSpecError("a name of only digits, like \"\(trimmed)\", reads as an id in show, log or remove: write \"Dose \(trimmed)\" or \"#\(trimmed)\"")
        }
        return trimmed
    }

    /// The name with each run of control characters replaced by a space.
    private static func oneLine(_ name: String) -> String {
        name.unicodeScalars.split { $0.properties.generalCategory == .control }.map { String(String.UnicodeScalarView($0)) }
            .joined(separator: " ")
    }
}
