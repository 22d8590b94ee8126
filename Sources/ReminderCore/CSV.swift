/// The one CSV reader (Loop Habit Tracker's files, the exercise library): RFC 4180, where fields in quotes may
/// hold commas, quotes (doubled) and line breaks; CRLF or LF line ends.
public enum CSV {
    /// One record and the line it starts on (a quoted field may span lines).
    public struct Record: Equatable, Sendable {
        public var line: Int
        public var fields: [String]
    }

    /// Text that is not CSV: a quoted field left open.
    public struct Malformed: Error, Equatable, Sendable {
        public let line: Int
        public let message: String
    }

    /// Every record of `text`; a blank line is a record of one empty field.
    public static func records(_ text: String) throws(Malformed) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var start = 1
        var characters = text.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let value = pending { pending = nil; return value }
            return characters.next()
        }
        while let character = next() {
            if character == "\n" || character == "\r\n" { line += 1 }
            if quoted {
                if character == "\"" {
                    let following = next()
                    if following == "\"" { field.append("\"") } else { quoted = false; pending = following }
                } else {
                    field.append(character)
                }
            } else {
                switch character {
                case "\"" where field.isEmpty: quoted = true
                case ",": fields.append(field); field = ""
                case "\n", "\r\n":
                    fields.append(field)
                    records.append(Record(line: start, fields: fields))
                    (fields, field, start) = ([], "", line)
                case "\r": break
                default: field.append(character)
                }
            }
        }
        if quoted { throw Malformed(line: start, message: "a quoted field is not closed") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            records.append(Record(line: start, fields: fields))
        }
        return records
    }
}
