/// The length of a reminder's window as the user writes it: `2h`, `90m`, `1h30m`, `45s`; 1 second to 24 hours.
/// (The same form, with days, says how far ahead `add --in` is.)
public enum WindowLength {
    /// What the text may be, for error messages.
    public static let forms = "a length of 1s to 24h such as 2h, 90m or 1h30m"
    /// The lengths a window (and a repeat interval) may have, in seconds.
    public static let range: ClosedRange<Int64> = 1...86400

    /// A length as the user writes it: `2h`, `1h30m`, `45s`.
    public static func text(_ seconds: Int64) -> String {
        let parts = [(seconds / 3600, "h"), (seconds / 60 % 60, "m"), (seconds % 60, "s")].filter { $0.0 > 0 }
        return parts.map { "\($0.0)\($0.1)" }.joined()
    }

    /// The seconds `text` stands for, or nil when it is not a length from 1 second to 24 hours.
    public static func seconds(_ text: String) -> Int64? {
        seconds(text, in: range)
    }

    /// The seconds `text` stands for (`d`, `h`, `m`, `s` parts: `1d12h`, `20m`), or nil when it is not a length
    /// in `range`.
    public static func seconds(_ text: String, in range: ClosedRange<Int64>) -> Int64? {
        var total: Int64 = 0
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                guard digits.count < 6 else { return nil }  // bounded: no number can overflow
                digits.append(character)
                continue
            }
            guard let value = Int64(digits) else { return nil }
            switch character {
            case "d": total += value * 86400
            case "h": total += value * 3600
            case "m": total += value * 60
            case "s": total += value
            default: return nil
            }
            digits = ""
        }
        guard digits.isEmpty, range.contains(total) else { return nil }
        return total
    }
}
