/// The one reader of remindd's TOML files (the config and the routines): the subset they use, line by line,
/// with each line's number for `FILE:LINE:` errors. Tables and arrays of tables are reported for the caller to
/// accept or refuse; values nest no deeper than an array of strings, so no input can recurse.
///
/// Not LebJe/TOMLKit (full TOML on toml++): the files need a few forms, every error must name its line, and a
/// C++ dependency would add minutes to every build for nothing the files use.
public enum TOMLReader {
    /// One meaningful line (blank lines and comments are left out).
    public enum Item: Equatable, Sendable {
        /// `[name]`
        case table(String)
        /// `[[name]]`
        case arrayOfTables(String)
        /// `key = value`, with the value as written (for messages).
        case keyValue(key: String, value: TOMLValue, text: String)
    }

    /// A line that is none of the forms.
    public struct LineError: Error, Equatable, Sendable {
        public let line: Int
        public let message: String
    }

    /// The file's meaningful lines with their numbers.
    public static func lines(_ text: String) throws(LineError) -> [(line: Int, item: Item)] {
        var items: [(line: Int, item: Item)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = stripComment(raw).trimmed
            if content.isEmpty { continue }
            if content.hasPrefix("[[") && content.hasSuffix("]]") {
                items.append((index + 1, .arrayOfTables(String(content.dropFirst(2).dropLast(2)).trimmed)))
            } else if content.hasPrefix("[") && content.hasSuffix("]") {
                items.append((index + 1, .table(String(content.dropFirst().dropLast()).trimmed)))
            } else if let equals = content.firstIndex(of: "=") {
                let key = content[..<equals].trimmed
                let value = content[content.index(after: equals)...].trimmed
                items.append((index + 1, .keyValue(key: key, value: TOMLValue(value), text: value)))
            } else {
                throw LineError(line: index + 1, message: "expected 'key = value'")
            }
        }
        return items
    }

    /// The line without its comment (a `#` outside quotes).
    static func stripComment(_ line: Substring) -> Substring {
        var inString: Character?
        var escaped = false
        for index in line.indices {
            let c = line[index]
            if let quote = inString {
                if escaped { escaped = false } else if c == "\\" && quote == "\"" { escaped = true } else if c == quote { inString = nil }
            } else if c == "\"" || c == "'" {
                inString = c
            } else if c == "#" {
                return line[..<index]
            }
        }
        return line
    }
}

/// A TOML value of the subset remindd reads: a string, a boolean, an integer, or a one-line array of strings.
public enum TOMLValue: Equatable, Sendable {
    case string(String)
    case bool(Bool)
    case integer(Int)
    /// An array of strings on one line: `["a", 'b']`.
    case strings([String])
    case invalid

    public init(_ text: String) {
        if text.hasPrefix("["), text.hasSuffix("]") {
            self = Self.strings(text.dropFirst().dropLast())
            return
        }
        self.init(scalar: text)
    }

    /// A value that is not an array. (An array's elements are read with this, never as arrays: the config has
    /// no nested arrays, and reading them recursively let `[[[...]]]` 3,000 deep overflow the stack.)
    private init(scalar text: String) {
        if text.hasPrefix("[") { self = .invalid; return }
        if text == "true" { self = .bool(true); return }
        if text == "false" { self = .bool(false); return }
        if let number = Int(text.filter { $0 != "_" }), text.first != "_" { self = .integer(number); return }
        if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
            let inner = text.dropFirst().dropLast()
            self = inner.contains("'") ? .invalid : .string(String(inner))
            return
        }
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { self = .invalid; return }
        var result = ""
        var escaped = false
        for c in text.dropFirst().dropLast() {
            if escaped {
                switch c {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "\\", "\"": result.append(c)
                default: self = .invalid; return
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "\"" {
                self = .invalid
                return
            } else {
                result.append(c)
            }
        }
        self = escaped ? .invalid : .string(result)
    }

    /// The elements of an array's inside (split at commas outside quotes), each a string; else invalid.
    private static func strings(_ inside: Substring) -> TOMLValue {
        var elements: [String] = []
        var current = ""
        var quote: Character?
        var escaped = false
        for c in inside {
            if let open = quote {
                if escaped { escaped = false } else if c == "\\" && open == "\"" { escaped = true } else if c == open { quote = nil }
                current.append(c)
            } else if c == "\"" || c == "'" {
                quote = c
                current.append(c)
            } else if c == "," {
                elements.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        elements.append(current)
        let trimmed = elements.map { $0.trimmed }
        let items = trimmed.last == "" && trimmed.count > 1 ? trimmed.dropLast() : trimmed[...]  // a trailing comma
        var result: [String] = []
        for item in items {
            guard case .string(let value) = TOMLValue(scalar: item) else { return .invalid }
            result.append(value)
        }
        return .strings(result)
    }
}

extension StringProtocol {
    fileprivate var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
