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
        // By bytes: a directive is ASCII, and every other byte (a UTF-8 sequence's too) is copied as it is (by
        // characters, a page of 1,000 rows spent a fifth of its time here).
        let (percent, dollar) = (UInt8(ascii: "%"), UInt8(ascii: "$"))
        guard template.utf8.contains(percent) else { return template }
        let bytes = Array(template.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + arguments.reduce(0) { $0 + $1.utf8.count })
        var index = 0
        while index < bytes.count {
            guard bytes[index] == percent else {
                result.append(bytes[index])
                index += 1
                continue
            }
            if index + 1 < bytes.count, bytes[index + 1] == percent {
                result.append(percent)
                index += 2
                continue
            }
            var cursor = index + 1
            var number = 0
            while cursor < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]) {
                number = min(number * 10 + Int(bytes[cursor] - UInt8(ascii: "0")), Int(Int32.max))  // past any argument's number
                cursor += 1
            }
            if cursor > index + 1, number >= 1, number <= arguments.count, cursor + 1 < bytes.count, bytes[cursor] == dollar,
                bytes[cursor + 1] == UInt8(ascii: "s") || bytes[cursor + 1] == UInt8(ascii: "d")
            {
                result += arguments[number - 1].utf8
                index = cursor + 2
            } else {
                result.append(percent)
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
