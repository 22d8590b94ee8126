/// A component of an iCalendar file (RFC 5545 §3.4-3.6: VCALENDAR, VEVENT, VTODO, VALARM, VTIMEZONE ...) as
/// read: its properties in order, each with the line it began on, and the components inside it.
public struct ICalendarComponent: Sendable {
    public var name: String
    /// The line of its BEGIN.
    public var line: Int
    public var properties: [ICalendarProperty] = []
    public var components: [ICalendarComponent] = []

    public func first(_ name: String) -> ICalendarProperty? { properties.first { $0.name == name } }
    public func all(_ name: String) -> [ICalendarProperty] { properties.filter { $0.name == name } }
}

/// One content line: `NAME;PARAM=VALUE:value`, unfolded.
public struct ICalendarProperty: Sendable {
    /// Upper-cased.
    public var name: String
    /// Parameter names upper-cased; values without their quotes, a list's values (or a parameter given twice)
    /// joined with commas.
    public var parameters: [String: String]
    /// The value as written (escapes kept).
    public var value: String
    public var line: Int

    /// A TEXT value unescaped (`\n`, `\,`, `\;`, `\\`).
    public var text: String {
        var result = ""
        var escaped = false
        for character in value {
            if escaped {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// Reads iCalendar text (RFC 5545 §3.1): lines ended by CRLF (or LF), unfolded where a line starts with a space
/// or tab, split into name, parameters and value, nested by BEGIN and END.
///
/// remindd reads these files itself rather than through libical: the format is lines, the reading is short and
/// tested here with the files calendar programs write, the daemon stays free of another C library, and the
/// recurrence is remindd's own core either way (its DST rule, its speed).
public enum ICalendarReader {
    /// The largest file read: 20 MiB.
    public static let maximumSize = 20 << 20

    /// The top-level components (VCALENDARs).
    /// - Throws: ``FileLineError`` with the line where the file stops being iCalendar, for `file` (its name as
    ///   the user knows it).
    public static func read(_ text: String, file: String) throws(FileLineError) -> [ICalendarComponent] {
        func fail(_ line: Int, _ message: String) -> FileLineError { FileLineError(file: file, line: line, message: message) }
        guard text.utf8.count <= maximumSize else { throw fail(1, "the file is larger than 20 MiB: is it a calendar?") }
        var stack: [ICalendarComponent] = []
        var done: [ICalendarComponent] = []

        func finish(_ content: UnsafeBufferPointer<UInt8>, line: Int) throws(FileLineError) {
            let property = try parse(content, line: line, fail: fail)
            switch property.name {
            case "BEGIN":
                let name = property.value.uppercased()
                guard !name.isEmpty else { throw fail(line, "BEGIN without a component name") }
                guard stack.count < 16 else { throw fail(line, "components nested more than 16 deep") }
                guard !stack.isEmpty || name == "VCALENDAR" else { throw fail(line, "BEGIN:\(name.prefix(30)) outside a VCALENDAR: a calendar file starts with BEGIN:VCALENDAR") }
                stack.append(ICalendarComponent(name: name, line: line))
            case "END":
                guard let open = stack.popLast() else { throw fail(line, "END:\(property.value.prefix(30)) without a BEGIN") }
                guard open.name == property.value.uppercased() else {
                    throw fail(line, "END:\(property.value.prefix(30)) closes BEGIN:\(open.name) of line \(open.line)")
                }
                if stack.isEmpty { done.append(open) } else { stack[stack.count - 1].components.append(open) }
            default:
                guard !stack.isEmpty else { throw fail(line, "\(property.name.prefix(30)) outside a VCALENDAR: a calendar file starts with BEGIN:VCALENDAR") }
                stack[stack.count - 1].properties.append(property)
            }
        }

        let lastContent = try forEachContentLine(utf8: text, fail: fail, finish)
        if let open = stack.last { throw fail(lastContent, "BEGIN:\(open.name) of line \(open.line) is never closed with END:\(open.name)") }
        guard !done.isEmpty else { throw fail(1, "no BEGIN:VCALENDAR: this is not an iCalendar file") }
        return done
    }

    /// The text of an iCalendar file's bytes. A writer folds lines at 75 octets, which may be inside a multi-byte
    /// UTF-8 character (RFC 5545 3.1 requires the octets to be restored): such a fold is joined before the bytes
    /// are decoded, where decoding first would turn the two halves into two replacement characters
    /// ("M\u{FFFD}\u{FFFD}dicament"). Every other fold is left for ``forEachContentLine(_:fail:_:)``.
    public static func text(utf8 bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var expected = 0  // continuation bytes the last lead byte still wants
        var index = 0
        while index < input.count {
            let byte = input[index]
            if expected > 0, byte & 0xC0 != 0x80 {
                // Inside a character: a fold (CRLF or LF, then a space or a tab) is dropped.
                var end = index
                if input[end] == 0x0D, end + 1 < input.count { end += 1 }
                if input[end] == 0x0A, end + 1 < input.count, input[end + 1] == 0x20 || input[end + 1] == 0x09 {
                    index = end + 2
                    continue
                }
                expected = 0
            }
            output.append(byte)
            switch byte {
            case 0x80..<0xC0: expected = max(0, expected - 1)
            case 0xF0...: expected = 3
            case 0xE0...: expected = 2
            case 0xC0...: expected = 1
            default: expected = 0
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Hands `body` each content line of `text`, unfolded, with the number of its first physical line (a
    /// failure stops at once). - Returns: the number of the last physical line with content.
    @discardableResult
    public static func forEachContentLine(
        _ text: String, fail: (Int, String) -> FileLineError, _ body: (String, Int) throws(FileLineError) -> Void
    ) throws(FileLineError) -> Int {
        try forEachContentLine(utf8: text, fail: fail) { (line, number) throws(FileLineError) in try body(String(decoding: line, as: UTF8.self), number) }
    }

    /// ``forEachContentLine(_:fail:_:)`` with each line's bytes, valid only during the call: a line that is not
    /// folded is read where it lies in `text` (made into two strings and two arrays, the lines of 20,000 items
    /// took 520-700 ms to read on one core; 147-240 ms so).
    static func forEachContentLine(
        utf8 text: String, fail: (Int, String) -> FileLineError, _ body: (UnsafeBufferPointer<UInt8>, Int) throws(FileLineError) -> Void
    ) throws(FileLineError) -> Int {
        var text = text
        // `withUTF8` rethrows untyped errors: the typed one comes out as a result.
        let result = text.withUTF8 { bytes -> Result<Int, FileLineError> in
            Result { () throws(FileLineError) in try forEachContentLine(in: bytes, fail: fail, body) }
        }
        return try result.get()
    }

    private static func forEachContentLine(
        in bytes: UnsafeBufferPointer<UInt8>, fail: (Int, String) -> FileLineError, _ body: (UnsafeBufferPointer<UInt8>, Int) throws(FileLineError) -> Void
    ) throws(FileLineError) -> Int {
        // The content line being gathered: where it lies in `bytes`, or (once a fold continues it) its bytes joined
        // in `folded`. A writer folds at 75 octets, which may be inside a multi-byte character (RFC 5545 3.1), so
        // the halves are joined before they are read as UTF-8.
        var pending: (range: Range<Int>, line: Int, isFolded: Bool)?
        var folded: [UInt8] = []
        func emit(_ pending: (range: Range<Int>, line: Int, isFolded: Bool)) throws(FileLineError) {
            if pending.isFolded {
                let result = folded.withUnsafeBufferPointer { line in Result { () throws(FileLineError) in try body(line, pending.line) } }
                try result.get()
            } else {
                try body(UnsafeBufferPointer(rebasing: bytes[pending.range]), pending.line)
            }
        }
        var (number, lastContent, start) = (0, 1, 0)
        // Lines by their bytes: "\r\n" is one Character to Swift, and CRLF is what RFC 5545 ends lines with.
        while start <= bytes.count {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var end = newline
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            number += 1
            if end > start, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") {
                guard let gathered = pending else { throw fail(number, "a folded line (starting with a space) with no line before it to continue") }
                if !gathered.isFolded {
                    folded.removeAll(keepingCapacity: true)
                    folded += bytes[gathered.range]
                    pending!.isFolded = true
                }
                folded += bytes[(start + 1)..<end]
                lastContent = number
            } else {
                if let pending { try emit(pending) }
                pending = end > start ? (start..<end, number, false) : nil
                if end > start { lastContent = number }
            }
            start = newline + 1
        }
        if let pending { try emit(pending) }
        return lastContent
    }

    /// `NAME;PARAM=VALUE;PARAM="QUOTED":value`. Read on the UTF-8 bytes: every delimiter is ASCII, so a
    /// multi-byte character is never split.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, fail: (Int, String) -> FileLineError) throws(FileLineError) -> ICalendarProperty {
        var index = 0
        func isNameByte(_ b: UInt8) -> Bool {
            (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-")
        }
        let (colon, semicolon, equals, quote) = (UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "\""))
        while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
        guard index > 0, index < bytes.count, bytes[index] == colon || bytes[index] == semicolon else {
            throw fail(line, "'\(String(decoding: bytes, as: UTF8.self).prefix(40))' is not NAME:VALUE (a content line, or a folded line without its leading space)")
        }
        let name = upperCased(bytes[0..<index])
        var parameters: [String: String] = [:]
        while bytes[index] == semicolon {
            index += 1
            let start = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            guard index > start, index < bytes.count, bytes[index] == equals else { throw fail(line, "\(name): a parameter is not NAME=VALUE") }
            let parameter = upperCased(bytes[start..<index])
            index += 1
            // Up to the ':' or ';' outside quotes (a list of values may quote each: "a","b").
            var value: [UInt8] = []
            var quoted = false
            while index < bytes.count, quoted || (bytes[index] != colon && bytes[index] != semicolon) {
                if bytes[index] == quote { quoted.toggle() } else { value.append(bytes[index]) }
                index += 1
            }
            guard !quoted else { throw fail(line, "\(name): parameter \(parameter) opens a quote it never closes") }
            guard index < bytes.count else { throw fail(line, "\(name) has no ':' before its value") }
            // A parameter given twice keeps both, as the list it means (`ROLE=A;ROLE=B` is `A,B`), not the last alone.
            let text = String(decoding: value, as: UTF8.self)
            parameters[parameter] = parameters[parameter].map { $0 + "," + text } ?? text
        }
        return ICalendarProperty(name: name, parameters: parameters, value: String(decoding: bytes[(index + 1)...], as: UTF8.self), line: line)
    }

    /// A name of letters, digits and '-' (what `parse` reads as one) in upper case: its ASCII letters are all it has.
    private static func upperCased(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(unsafeUninitializedCapacity: name.count) { buffer in
            for (offset, byte) in name.enumerated() {
                buffer[offset] = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte
            }
            return name.count
        }
    }
}
