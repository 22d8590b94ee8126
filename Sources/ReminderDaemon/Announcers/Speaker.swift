import Glibc
import ReminderCore
import ReminderScheduling
import Translation

/// Who is spoken to: config.toml's `speak` (a reminder's `--speak` or `--no-speak` overrides it).
public enum SpeakChoice: String, Sendable, Hashable, CaseIterable {
    /// Reminders with a dose are said aloud.
    case doses
    case all
    /// Only reminders that say `--speak` (the default).
    case none
}

/// speech-dispatcher's `spd-say` (package speech-dispatcher, with espeak-ng: the stack Orca uses), found in
/// `PATH` at start, and the words an announcement says.
public struct Speaker: Sendable, Hashable {
    /// `spd-say`'s absolute path.
    public let program: String
    /// The voice's language: the language the words are in (the daemon's messages'), so that German words are
    /// read by a German voice and, where remindd has no translation, English words by an English one.
    public let language: String
    /// What its environment adds: the daemon's `PULSE_SERVER`, `PIPEWIRE_REMOTE` and `SPEECHD_ADDRESS` when set
    /// (a transient unit has the user manager's environment).
    public let environment: [String]

    /// The speaker of `environment` reading words in `language`, or nil when `spd-say` is not installed.
    public static func find(environment: [String: String], language: String) -> Speaker? {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        let candidates = folders.map { folder -> String in "\(folder)/spd-say" }
        guard let program = candidates.first(where: { path in access(path, X_OK) == 0 }) else { return nil }
        let forwarded = ["PULSE_SERVER", "PIPEWIRE_REMOTE", "SPEECHD_ADDRESS"].compactMap { name in environment[name].map { "\(name)=\($0)" } }
        return Speaker(program: program, language: language, environment: forwarded)
    }

    /// `spd-say` saying `text` and waiting until it is said (so that one is said at a time).
    func arguments(saying text: String) -> [String] {
        [program, "--wait", "--language", language, "--", text]
    }

    /// The most reminders one announcement names; the rest are counted.
    static let named = 3

    /// `Time for Metformin, 500 milligrams.`; several at once: `Time for Metformin, 500 milligrams; Ramipril,
    /// 5 milligrams; and 2 more.` (in the language of `words`).
    static func words(for firings: [DueFiring], more: Int, in words: any MessageCatalog) -> String {
        let items = firings.prefix(named).map { firing in
            [firing.reminder.name, firing.dose.map { spoken($0, in: words) }].compactMap { $0 }.joined(separator: ", ")
        }
        let others = more + max(0, firings.count - named)
        var said = items.joined(separator: "; ")
        if others > 0 { said = words(DaemonMessages.andMoreSaid, said, others) }
        return words(DaemonMessages.timeFor, said)
    }

    /// A dose as it is said: `500 milligrams`, `2 tablets`, `1 tablet` (a unit of the user's own, as written).
    static func spoken(_ dose: Dose, in words: any MessageCatalog) -> String {
        let said = [
            "mg": DaemonMessages.milligrams, "mcg": DaemonMessages.micrograms, "µg": DaemonMessages.micrograms, "g": DaemonMessages.grams,
            "ml": DaemonMessages.millilitres, "IU": DaemonMessages.internationalUnits,
        ]
        guard let message = said[dose.unit] else { return words.dose(dose) }
        return words(message, count: dose.amountText == "1" ? 1 : 2, dose.amountText)
    }
}
