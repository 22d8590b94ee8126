/// A message remindd says to a person, as written in English: the text gettext looks up (its msgid) and, for a
/// message about a count, its English plural. Arguments are positional (`%1$s`, `%2$d`), so that a translation
/// can put them in its own order; `%%` is a percent sign.
///
/// Every message lives in its target's table (`DaemonMessages`, `CommandMessages`), made with this initializer and
/// literal text: `po/extract-messages` reads the tables to write the template, `po/remindd.pot`.
public struct Message: Sendable, Hashable {
    /// The English text, also the key of its translations.
    public let text: String
    /// The English plural (`%1$d days` for `%1$d day`): chosen by the language's plural rule for the count.
    public let plural: String?

    public init(_ text: String, plural: String? = nil) {
        (self.text, self.plural) = (text, plural)
    }

    /// `template` with its `%N$s` and `%N$d` replaced by the N-th argument and `%%` by `%`. A directive that
    /// names no argument stays as written (a translation's mistake shows, rather than crashing the daemon).
    public static func format(_ template: String, _ arguments: [String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let directive = rest[rest.index(after: percent)...]
            if directive.first == "%" {
                result += "%"
                rest = directive.dropFirst()
                continue
            }
            let digits = directive.prefix { $0.isASCII && $0.isNumber }
            let afterDigits = directive.dropFirst(digits.count)
            if let number = Int(digits), number >= 1, number <= arguments.count, afterDigits.first == "$",
                let conversion = afterDigits.dropFirst().first, conversion == "s" || conversion == "d"
            {
                result += arguments[number - 1]
                rest = afterDigits.dropFirst(2)
            } else {
                result += "%"
                rest = directive
            }
        }
        return result + rest
    }
}
