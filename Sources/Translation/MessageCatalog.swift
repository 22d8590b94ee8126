import ReminderCore

/// Where the words come from: a language's translations of the messages, and its names of weekdays and months.
/// The daemon speaks its environment's language, remindctl its shell's (``GettextCatalog``); tests use English
/// as the tables write it (``UntranslatedCatalog``).
public protocol MessageCatalog: Sendable {
    /// The language the words are in (`de`; `en` when nothing is translated): what a voice should read them in.
    var language: String { get }
    /// The message's format string in this language (the plural form for `count` when it has one).
    func template(_ message: Message, count: Int) -> String
    /// `Sun`/`Sunday` in English, `So`/`Sonntag` in German.
    func name(of weekday: Weekday, abbreviated: Bool) -> String
    /// `Nov`/`November` for 11 in English, `nov.`/`novembre` in French.
    func name(ofMonth month: Int, abbreviated: Bool) -> String
    /// How numbers in the report's prose mark decimals: `.` in English, `,` in German.
    var decimalSeparator: String { get }
}

extension MessageCatalog {
    /// The message in this language with its arguments in place.
    public func callAsFunction(_ message: Message, _ arguments: any CustomStringConvertible...) -> String {
        Message.format(template(message, count: 1), arguments.map(\.description))
    }

    /// A message about `count` things: the language's plural form for it, with its arguments in place
    /// (`count` is not an argument by itself: pass it as one where the text shows it).
    public func callAsFunction(_ message: Message, count: Int, _ arguments: any CustomStringConvertible...) -> String {
        Message.format(template(message, count: count), arguments.map(\.description))
    }

    public var decimalSeparator: String { "." }

    /// A number written with `.` for decimals (`92.5`) as this language writes it (`92,5`).
    public func decimal(_ number: String) -> String {
        decimalSeparator == "." ? number : number.split(separator: ".", omittingEmptySubsequences: false).joined(separator: decimalSeparator)
    }
}

/// The messages as the tables write them, in English, with English weekday and month names: what remindd says
/// under `LANG=C`, and what tests read.
public struct UntranslatedCatalog: MessageCatalog {
    public init() {}

    public var language: String { "en" }

    public func template(_ message: Message, count: Int) -> String {
        guard let plural = message.plural, count != 1 else { return message.text }
        return plural
    }

    public func name(of weekday: Weekday, abbreviated: Bool) -> String {
        let full = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][weekday.rawValue - 1]
        return abbreviated ? String(full.prefix(3)) : full
    }

    public func name(ofMonth month: Int, abbreviated: Bool) -> String {
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        guard (1...12).contains(month) else { return String(month) }
        return abbreviated ? String(names[month - 1].prefix(3)) : names[month - 1]
    }
}
