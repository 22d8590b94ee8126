/// Formatting and parsing of the ISO 8601 forms remindd reads and writes.
public enum ISO8601 {
    /// Zero-pads a non-negative number to `width` digits (negative years keep their sign).
    public static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }

    /// `+HH:MM` / `-HH:MM`, or `+HH:MM:SS` for the odd historical offsets (LMT) that have seconds.
    public static func formatOffset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        var text = sign + pad(magnitude / 3600, 2) + ":" + pad(magnitude / 60 % 60, 2)
        if magnitude % 60 != 0 { text += ":" + pad(magnitude % 60, 2) }
        return text
    }

    /// `2024-03-10T03:30:00-04:00` for an instant seen at a UTC offset; `...Z` when the offset is zero and `zulu`.
    public static func format(_ instant: Instant, offsetSeconds: Int, zulu: Bool = true) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(25)
        write(instant, offsetSeconds: offsetSeconds, zulu: zulu, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the ``format(_:offsetSeconds:zulu:)`` text as ASCII, without building intermediate strings.
    public static func write(_ instant: Instant, offsetSeconds: Int, zulu: Bool = true, into bytes: inout [UInt8]) {
        let local = instant.secondsSinceEpoch + Int64(offsetSeconds)
        let days = CivilCalendar.floorDiv(local, 86400)
        let (year, month, day) = CivilCalendar.civil(fromDayNumber: Int(days))
        let seconds = Int(local - days * 86400)
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        if year < 0 || year > 9999 {
            bytes.append(contentsOf: pad(year, 4).utf8)
        } else {
            digits(year, 4)
        }
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(seconds / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(seconds / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(seconds % 60, 2)
        if offsetSeconds == 0 && zulu {
            bytes.append(UInt8(ascii: "Z"))
        } else {
            bytes.append(contentsOf: formatOffset(offsetSeconds).utf8)
        }
    }

    /// Parses `YYYY-MM-DD`.
    public static func parseDate(_ text: some StringProtocol) -> LocalDate? {
        // Byte by byte: a calendar of 20,000 items parses a few dates per item.
        guard text.utf8.count == 10 else { return nil }
        var fields = (year: 0, month: 0, day: 0)
        for (offset, byte) in text.utf8.enumerated() {
            if offset == 4 || offset == 7 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            switch offset {
            case ..<4: fields.year = fields.year * 10 + digit
            case ..<7: fields.month = fields.month * 10 + digit
            default: fields.day = fields.day * 10 + digit
            }
        }
        return LocalDate(year: fields.year, month: fields.month, day: fields.day)
    }

    /// Parses `HH:MM` or `HH:MM:SS` (exactly two digits each).
    /// (The fields are kept in three variables, not an array: every rule's times are read at every start.)
    public static func parseTime(_ text: some StringProtocol) -> TimeOfDay? {
        var (hour, minute, fields) = (0, 0, 0)
        var value = 0
        var digits = 0
        for byte in text.utf8 {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                guard digits < 2 else { return nil }  // fields are two digits: stop before a long run overflows
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            } else if byte == UInt8(ascii: ":") && digits == 2 && fields < 2 {
                if fields == 0 { hour = value } else { minute = value }
                fields += 1
                value = 0
                digits = 0
            } else {
                return nil
            }
        }
        guard digits == 2, fields > 0 else { return nil }
        return fields == 1 ? TimeOfDay(hour: hour, minute: value, second: 0) : TimeOfDay(hour: hour, minute: minute, second: value)
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS]` (a space instead of `T` is accepted).
    public static func parseDateTime(_ text: some StringProtocol) -> LocalDateTime? {
        guard let sep = text.utf8.firstIndex(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: " ") }),
            let date = parseDate(text[text.startIndex..<sep]),
            let time = parseTime(text[text.utf8.index(after: sep)...])
        else { return nil }
        return LocalDateTime(date: date, time: time)
    }

    /// The instant an ISO 8601 time with its offset (or `Z`) names; nil without one.
    public static func parseAbsolute(_ text: String) -> Instant? {
        guard let parsed = parseInstant(text), let offset = parsed.offsetSeconds else { return nil }
        return Instant(secondsSinceEpoch: parsed.local.localSeconds - Int64(offset))
    }

    /// Parses an instant: `YYYY-MM-DDTHH:MM[:SS]` followed by `Z` or `±HH:MM` (or `±HHMM`, `±HH`).
    /// Returns the local date-time and the offset, or nil for the offset when the text has none.
    /// Read byte by byte (by `Character`, each of the ten firings `remindctl next` prints cost two parses of
    /// 20,000 instructions, a tenth of the command).
    public static func parseInstant(_ text: String) -> (local: LocalDateTime, offsetSeconds: Int?)? {
        let bytes = text.utf8
        if bytes.last == UInt8(ascii: "Z") || bytes.last == UInt8(ascii: "z") {
            return parseDateTime(text[..<bytes.index(before: bytes.endIndex)]).map { ($0, 0) }
        }
        // An offset sign can only appear after the 'T' (the date has '-' of its own).
        guard let t = bytes.firstIndex(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: " ") }) else { return nil }
        guard let signIndex = bytes[t...].lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) else {
            return parseDateTime(text).map { ($0, nil) }
        }
        guard let local = parseDateTime(text[..<signIndex]) else { return nil }
        // `HH`, `HHMM` or `HH:MM`: the digits without their colons.
        var (value, digits) = (0, 0)
        for byte in bytes[bytes.index(after: signIndex)...] where byte != UInt8(ascii: ":") {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 4 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits == 2 || digits == 4 else { return nil }
        let (hours, minutes) = digits == 4 ? (value / 100, value % 100) : (value, 0)
        guard hours <= 18, minutes < 60 else { return nil }
        let magnitude = hours * 3600 + minutes * 60
        return (local, bytes[signIndex] == UInt8(ascii: "-") ? -magnitude : magnitude)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
