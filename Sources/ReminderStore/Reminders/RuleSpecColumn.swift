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
    /// The spec as JSON, keys in sorted order and absent fields left out (as `JSONEncoder` with `.sortedKeys`
    /// wrote it before).
    static func encode(_ spec: RuleSpec) -> String {
        let fields: [(String, String?)] = [
            ("alarm", spec.alarm), ("asNeeded", spec.asNeeded.map { $0 ? "true" : "false" }), ("at", spec.at),
            ("daily", spec.daily.map { $0 ? "true" : "false" }), ("every", spec.every), ("fromLastDose", spec.fromLastDose.map { $0 ? "true" : "false" }),
            ("exdate", spec.exdate), ("monthly", spec.monthly), ("monthlyOn", spec.monthlyOn), ("onCalendar", spec.onCalendar),
            ("once", spec.once), ("preset", spec.preset), ("rdate", spec.rdate), ("rrule", spec.rrule), ("skip", spec.skip),
            ("start", spec.start), ("until", spec.until), ("weekly", spec.weekly), ("yearly", spec.yearly),
        ]
        var json = "{"
        for (key, value) in fields {
            guard let value else { continue }
            if json.utf8.count > 1 { json += "," }
            json += "\"" + key + "\":" + (["daily", "asNeeded", "fromLastDose"].contains(key) ? value : FlatJSON.quoted(value))
        }
        return json + "}"
    }

    static func decode(_ text: String) throws -> RuleSpec {
        if let fields = parseFlatObject(Array(text.utf8)) {
            var spec = RuleSpec()
            for (key, value) in fields {
                switch (key, value) {
                case ("daily", .bool(let flag)): spec.daily = flag
                case ("asNeeded", .bool(let flag)): spec.asNeeded = flag
                case ("fromLastDose", .bool(let flag)): spec.fromLastDose = flag
                case ("weekly", .string(let v)): spec.weekly = v
                case ("monthly", .string(let v)): spec.monthly = v
                case ("monthlyOn", .string(let v)): spec.monthlyOn = v
                case ("yearly", .string(let v)): spec.yearly = v
                case ("every", .string(let v)): spec.every = v
                case ("preset", .string(let v)): spec.preset = v
                case ("once", .string(let v)): spec.once = v
                case ("at", .string(let v)): spec.at = v
                case ("start", .string(let v)): spec.start = v
                case ("until", .string(let v)): spec.until = v
                case ("skip", .string(let v)): spec.skip = v
                case ("rrule", .string(let v)): spec.rrule = v
                case ("onCalendar", .string(let v)): spec.onCalendar = v
                case ("rdate", .string(let v)): spec.rdate = v
                case ("exdate", .string(let v)): spec.exdate = v
                case ("alarm", .string(let v)): spec.alarm = v
                case (_, .null): continue
                default: return try JSONDecoder().decode(RuleSpec.self, from: Data(text.utf8))
                }
            }
            return spec
        }
        return try JSONDecoder().decode(RuleSpec.self, from: Data(text.utf8))
    }

    enum Scalar: Equatable {
        case string(String)
        case bool(Bool)
        case null
    }

    /// Parses `{"key": "string" | true | false | null, ...}` without escapes in its strings; nil for anything
    /// else (``decode(_:)`` then asks JSONDecoder). Each row read at start-up passes here (100,000 at a start):
    /// a string is made from its bytes at once, and the words are compared where they lie.
    static func parseFlatObject(_ bytes: [UInt8]) -> [(String, Scalar)]? {
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
        var fields: [(String, Scalar)] = []
        guard expect(UInt8(ascii: "{")) else { return nil }
        if expect(UInt8(ascii: "}")) { return fields }
        repeat {
            guard let key = string(), expect(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            if literal("true") {
                fields.append((key, .bool(true)))
            } else if literal("false") {
                fields.append((key, .bool(false)))
            } else if literal("null") {
                fields.append((key, .null))
            } else if let value = string() {
                fields.append((key, .string(value)))
            } else {
                return nil
            }
        } while expect(UInt8(ascii: ","))
        guard expect(UInt8(ascii: "}")) else { return nil }
        skipSpace()
        return index == bytes.count ? fields : nil
    }
}
