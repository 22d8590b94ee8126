extension CalendarExpression {
    /// One item of a list: a value, a range `start..stop`, or a repetition `start[..stop]/step`.
    struct Item: Hashable, Sendable, Comparable {
        var start: Int
        /// -1: no end.
        var stop = -1
        /// 0: the value alone; a range without a step steps by 1.
        var step = 0

        static func < (a: Item, b: Item) -> Bool { (a.start, a.stop, a.step) < (b.start, b.stop, b.step) }
    }

    /// The error for text that cannot be read, with what to write instead.
    static func unreadable(_ text: String, at rest: Substring) -> RecurrenceError {
        RecurrenceError("cannot read \(quotedInput(text))\(rest.isEmpty ? "" : " at '\(rest.prefix(20))'"): write [WEEKDAYS] [YEAR-MONTH-DAY] [HH:MM[:SS]] [ZONE], e.g. 'Mon..Fri *-*-* 09:00', '*-*~01 18:00' or 'daily' (see systemd.time(7))")
    }
}

/// Reads a ``CalendarExpression``'s text: weekday names, and chains of numbers.
struct CalendarExpressionReader {
    private var bytes: Substring.UTF8View
    private let text: Substring

    init(_ text: Substring) {
        self.text = text
        bytes = text.utf8
    }

    /// The first fraction of a second read (`.5`): systemd takes them, remindd fires on whole seconds.
    var fraction: String?

    var atEnd: Bool { bytes.isEmpty }
    var peek: UInt8? { bytes.first }
    var rest: Substring { Substring(bytes) }
    mutating func advance() { bytes = bytes.dropFirst() }
    mutating func skipSpaces() { while peek == UInt8(ascii: " ") { advance() } }

    /// A whole number (at most 9 digits), or nil when none is here.
    mutating func number() -> Int64? {
        var value: Int64 = 0
        var digits = 0
        while let byte = peek, (48...57).contains(byte) {
            guard digits < 12 else { return nil }
            value = value * 10 + Int64(byte - 48)
            digits += 1
            advance()
        }
        return digits == 0 ? nil : value
    }

    /// Weekday names with `,` lists and `..` (or `-`) ranges, then spaces; nil when the text starts otherwise.
    mutating func weekdays() throws(RecurrenceError) -> UInt8? {
        var bits: UInt8 = 0
        var rangeFrom: Int?
        var first = true
        while true {
            let lower = String(decoding: Array(bytes.prefix(9)), as: UTF8.self).lowercased()
            // Whole names first, then three letters ("Mon" would match the start of "Monday").
            guard let (index, length) = nameAt(lower) else {
                if first { return nil }
                throw RecurrenceError("'\(rest.prefix(20))' is not a weekday: write Mon, Tue, Wed, Thu, Fri, Sat or Sun (or the whole name), with ',' lists and '..' ranges")
            }
            bytes = bytes.dropFirst(length)
            guard atEnd || [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: " ")].contains(peek!) else {
                throw RecurrenceError("\(quotedInput(text)): a weekday name must be followed by ',', '..' or a space")
            }
            bits |= 1 << UInt8(index)
            if let from = rangeFrom {
                guard from <= index else { throw RecurrenceError("the weekday range \(Self.names[from])..\(Self.names[index]) goes backwards: ranges run Monday to Sunday, e.g. Mon..Fri; for a weekend write Sat,Sun") }
                for day in from...index { bits |= 1 << UInt8(day) }
                rangeFrom = nil
            }
            if atEnd { return bits }
            if peek == UInt8(ascii: " ") {
                skipSpaces()
                return bits
            }
            if peek == UInt8(ascii: ".") {
                advance()
                guard peek == UInt8(ascii: ".") else { throw RecurrenceError("\(quotedInput(text)): a weekday range is written with '..', e.g. Mon..Fri") }
                advance()
                rangeFrom = index
            } else if peek == UInt8(ascii: "-") {
                advance()
                rangeFrom = index
            } else {
                advance()  // ','
            }
            if atEnd || peek == UInt8(ascii: " ") {
                guard rangeFrom == nil else { throw RecurrenceError("\(quotedInput(text)): the weekday range has no end, e.g. Mon..Fri") }
                skipSpaces()
                return bits
            }
            first = false
        }
    }

    private static let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let wholeNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    private func nameAt(_ lower: String) -> (Int, Int)? {
        for (index, name) in Self.wholeNames.enumerated() where lower.hasPrefix(name) { return (index, name.utf8.count) }
        for (index, name) in Self.wholeNames.enumerated() where lower.hasPrefix(name.prefix(3)) { return (index, 3) }
        return nil
    }

    /// A chain: `*` (nil: any value) or items separated by commas.
    mutating func chain(_ expression: CalendarExpression, isSeconds: Bool = false) throws(RecurrenceError) -> [CalendarExpression.Item]? {
        if peek == UInt8(ascii: "*") {
            advance()
            return nil
        }
        var items: [CalendarExpression.Item] = []
        while true {
            guard items.count < 240 else { throw RecurrenceError("'\(expression.text.prefix(40))...' lists more than 240 values in one field") }
            guard let start = try value(isSeconds: isSeconds) else { throw CalendarExpression.unreadable(expression.text, at: rest) }
            var item = CalendarExpression.Item(start: start)
            if peek == UInt8(ascii: "."), bytes.dropFirst().first == UInt8(ascii: ".") {
                bytes = bytes.dropFirst(2)
                guard let stop = try value(isSeconds: isSeconds) else { throw CalendarExpression.unreadable(expression.text, at: rest) }
                (item.stop, item.step) = (stop, 1)
            }
            if peek == UInt8(ascii: "/") {
                advance()
                guard let step = try value(isSeconds: isSeconds) else { throw CalendarExpression.unreadable(expression.text, at: rest) }
                guard step > 0 else { throw RecurrenceError("a repetition step of 0 in '\(expression.text)' never moves: give a step of 1 or more, e.g. *:0/15") }
                item.step = step
            } else if isSeconds, item.stop >= 0, item.start + 1 > item.stop {
                // systemd steps seconds by whole seconds of its microseconds: a range of them must span one.
                throw RecurrenceError("the seconds range \(item.start)..\(item.stop) does not span a second: write \(item.start) alone, or a range such as \(item.start)..\(item.start + 5)")
            }
            guard atEnd || [UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "~"), UInt8(ascii: ":")].contains(peek!) else {
                throw CalendarExpression.unreadable(expression.text, at: rest)
            }
            items.append(item)
            guard peek == UInt8(ascii: ",") else { return items }
            advance()
        }
    }

    /// A number in a chain; a fraction of a second is refused (remindd fires on whole seconds).
    private mutating func value(isSeconds: Bool) throws(RecurrenceError) -> Int? {
        guard let value = number() else { return nil }
        guard value <= Int64(Int32.max) else { throw RecurrenceError("\(value) is too large a number for a calendar field") }
        if isSeconds, peek == UInt8(ascii: "."), bytes.dropFirst().first != UInt8(ascii: ".") {
            // Read as systemd reads it; refused once the rest is known to be valid (see `fraction`).
            let start = rest
            advance()
            guard number() != nil else { return nil }
            fraction = fraction ?? String(start.prefix(start.utf8.count - rest.utf8.count))
        }
        return Int(value)
    }
}
