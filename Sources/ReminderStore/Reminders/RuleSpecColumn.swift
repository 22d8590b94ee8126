#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReminderCore

/// The `rule` column: a ``RuleSpec`` as a flat JSON object (`{"at":"09:00","weekly":"sun"}`), readable in
/// `sqlite3`. Reading is the daemon's start-up hot path (100,000 rows) and writing the start-up scan of a large
/// calendar (20,000 items), so flat objects of strings and booleans are written and parsed by hand; anything
/// else read falls back to `JSONDecoder`.
enum RuleSpecColumn {
    /// The spec as JSON, keys in the order of ``fieldsInOrder`` and absent fields left out (as `JSONEncoder` with
    /// `.sortedKeys` wrote it before).
    static func encode(_ spec: RuleSpec) -> String {
        var json = "{"
        json.reserveCapacity(96)
        for (key, field) in fieldsInOrder {
            switch field {
            case .flag(let get, _):
                guard let flag = get(spec) else { continue }
                appendKey(key, to: &json)
                json.append(flag ? "true" : "false")
            case .text(let get, _):
                guard let text = get(spec) else { continue }
                appendKey(key, to: &json)
                FlatJSON.appendQuoted(text, to: &json)
            }
        }
        json.append("}")
        return json
    }

    /// `"key":`, after a comma unless it is the first.
    private static func appendKey(_ key: String, to json: inout String) {
        if json.utf8.count > 1 { json.append(",") }
        json.append("\"")
        json.append(key)
        json.append("\":")
    }

    static func decode(_ text: String) throws -> RuleSpec {
        var text = text
        if let spec = text.withUTF8(parseFlatObject) { return spec }
        return try JSONDecoder().decode(RuleSpec.self, from: Data(text.utf8))
    }

    /// A field of the spec: how to read it and how to set it.
    private enum Field {
        case flag(@Sendable (RuleSpec) -> Bool?, @Sendable (inout RuleSpec, Bool) -> Void)
        case text(@Sendable (RuleSpec) -> String?, @Sendable (inout RuleSpec, String) -> Void)
    }

    /// Every field under its JSON name, in the order the column is written (sorted, as `JSONEncoder` wrote it;
    /// `fromLastDose` before `exdate` as it always was: no rule has both).
    private static let fieldsInOrder: [(String, Field)] = [
        ("alarm", .text({ $0.alarm }, { $0.alarm = $1 })), ("asNeeded", .flag({ $0.asNeeded }, { $0.asNeeded = $1 })),
        ("at", .text({ $0.at }, { $0.at = $1 })), ("daily", .flag({ $0.daily }, { $0.daily = $1 })),
        ("every", .text({ $0.every }, { $0.every = $1 })), ("fromLastDose", .flag({ $0.fromLastDose }, { $0.fromLastDose = $1 })),
        ("exdate", .text({ $0.exdate }, { $0.exdate = $1 })), ("monthly", .text({ $0.monthly }, { $0.monthly = $1 })),
        ("monthlyOn", .text({ $0.monthlyOn }, { $0.monthlyOn = $1 })), ("onCalendar", .text({ $0.onCalendar }, { $0.onCalendar = $1 })),
        ("once", .text({ $0.once }, { $0.once = $1 })), ("preset", .text({ $0.preset }, { $0.preset = $1 })),
        ("rdate", .text({ $0.rdate }, { $0.rdate = $1 })), ("rrule", .text({ $0.rrule }, { $0.rrule = $1 })),
        ("skip", .text({ $0.skip }, { $0.skip = $1 })), ("start", .text({ $0.start }, { $0.start = $1 })),
        ("until", .text({ $0.until }, { $0.until = $1 })), ("weekly", .text({ $0.weekly }, { $0.weekly = $1 })),
        ("yearly", .text({ $0.yearly }, { $0.yearly = $1 })),
    ]

    /// The fields by name, found by hashing a key once: a `switch` over the names compared a key with each name in
    /// turn (19 string comparisons at most for each key of 100,000 rows at a start).
    private static let fields = Dictionary(uniqueKeysWithValues: fieldsInOrder)

    /// The value of one key, set in `spec`; false for a key the spec has not or a value of the wrong type
    /// (``decode(_:)`` then asks JSONDecoder, which ignores the one and refuses the other).
    private static func set(_ key: String, _ value: Scalar, in spec: inout RuleSpec) -> Bool {
        switch (fields[key], value) {
        case (.flag(_, let setFlag)?, .bool(let flag)): setFlag(&spec, flag)
        case (.text(_, let setText)?, .string(let text)): setText(&spec, text)
        case (_, .null): break
        default: return false
        }
        return true
    }

    /// A value the flat object may hold.
    enum Scalar: Equatable {
        case string(String)
        case bool(Bool)
        case null
    }

    /// Parses `{"key": "string" | true | false | null, ...}` without escapes in its strings into a spec; nil for
    /// anything else (``decode(_:)`` then asks JSONDecoder). Each row read at start-up passes here (100,000 at a
    /// start): read where the text lies, a string made from its bytes at once, the words compared in place.
    static func parseFlatObject(_ bytes: UnsafeBufferPointer<UInt8>) -> RuleSpec? {
        var index = 0
        func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
        }
        func expect(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        func literal(_ word: StaticString) -> Bool {
            let matches = word.withUTF8Buffer { word in
                index + word.count <= bytes.count && word.indices.allSatisfy { bytes[index + $0] == word[$0] }
            }
            if matches { index += word.utf8CodeUnitCount }
            return matches
        }
        func string() -> String? {
            guard expect(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
            // No closing quote, or an escape (a rule with a quote or a line break, rare): JSONDecoder reads the row.
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
        }
        var spec = RuleSpec()
        guard expect(UInt8(ascii: "{")) else { return nil }
        if expect(UInt8(ascii: "}")) { return index == bytes.count ? spec : nil }
        repeat {
            guard let key = string(), expect(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            let value: Scalar
            if literal("true") {
                value = .bool(true)
            } else if literal("false") {
                value = .bool(false)
            } else if literal("null") {
                value = .null
            } else if let text = string() {
                value = .string(text)
            } else {
                return nil
            }
            guard set(key, value, in: &spec) else { return nil }
        } while expect(UInt8(ascii: ","))
        guard expect(UInt8(ascii: "}")) else { return nil }
        skipSpace()
        return index == bytes.count ? spec : nil
    }
}
