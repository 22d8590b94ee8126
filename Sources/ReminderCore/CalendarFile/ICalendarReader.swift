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

        func finish(_ content: String, line: Int) throws(FileLineError) {
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

        let lastContent = try forEachContentLine(text, fail: fail, finish)
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
        // The content line's bytes, decoded once it is whole: a writer folds at 75 octets, which may be inside a
        // multi-byte character (RFC 5545 3.1), so the halves are joined before they are read as UTF-8.
        var pending: (bytes: [UInt8], line: Int)?
        var number = 0
        var lastContent = 1
        // Lines by their bytes: "\r\n" is one Character to Swift, and CRLF is what RFC 5545 ends lines with.
        for rawLine in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            let line = rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine
            if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                guard pending != nil else { throw fail(number, "a folded line (starting with a space) with no line before it to continue") }
                pending!.bytes += line.dropFirst()
                lastContent = number
                continue
            }
            if let (content, at) = pending { try body(String(decoding: content, as: UTF8.self), at) }
            pending = line.isEmpty ? nil : (Array(line), number)
            if !line.isEmpty { lastContent = number }
        }
        if let (content, at) = pending { try body(String(decoding: content, as: UTF8.self), at) }
        return lastContent
    }

    /// `NAME;PARAM=VALUE;PARAM="QUOTED":value`. Read on the UTF-8 bytes: every delimiter is ASCII, so a
    /// multi-byte character is never split.
    private static func parse(_ content: String, line: Int, fail: (Int, String) -> FileLineError) throws(FileLineError) -> ICalendarProperty {
        let bytes = Array(content.utf8)
        var index = 0
        func isNameByte(_ b: UInt8) -> Bool {
            (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-")
        }
        let (colon, semicolon, equals, quote) = (UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "\""))
        while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
        guard index > 0, index < bytes.count, bytes[index] == colon || bytes[index] == semicolon else {
            throw fail(line, "'\(content.prefix(40))' is not NAME:VALUE (a content line, or a folded line without its leading space)")
        }
        let name = String(decoding: bytes[0..<index], as: UTF8.self).uppercased()
        var parameters: [String: String] = [:]
        while bytes[index] == semicolon {
            index += 1
            let start = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            guard index > start, index < bytes.count, bytes[index] == equals else { throw fail(line, "\(name): a parameter is not NAME=VALUE") }
            let parameter = String(decoding: bytes[start..<index], as: UTF8.self).uppercased()
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
}
