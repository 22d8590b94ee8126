/// Writes a ``JSONValue`` as JSON text: keys sorted, slashes not escaped, integral numbers without a
/// fraction, as `JSONEncoder` is configured for messages, but in one pass over the value (a backup of ten
/// years is 2 million values).
public enum JSONWriter {
    /// Compact (a message), or indented by two spaces with `" : "` after keys (`--json`).
    public static func write(_ value: JSONValue, pretty: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out, pretty: pretty, indent: 0)
        return out
    }

    /// Appends `value`'s compact JSON to `out`.
    static func write(_ value: JSONValue, into out: inout [UInt8]) {
        write(value, into: &out, pretty: false, indent: 0)
    }

    private static func write(_ value: JSONValue, into out: inout [UInt8], pretty: Bool, indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): self.number(number, into: &out)
        case .string(let text): string(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(into: &out, pretty: pretty, indent: indent + 1)
                write(element, into: &out, pretty: pretty, indent: indent + 1)
            }
            if !elements.isEmpty { newline(into: &out, pretty: pretty, indent: indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(into: &out, pretty: pretty, indent: indent + 1)
                string(key, into: &out)
                out.append(contentsOf: (pretty ? " : " : ":").utf8)
                write(fields[key]!, into: &out, pretty: pretty, indent: indent + 1)
            }
            if !fields.isEmpty { newline(into: &out, pretty: pretty, indent: indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func number(_ number: Double, into out: inout [UInt8]) {
        if number.rounded() == number, abs(number) < 1e15 {
            digits(Int64(number), into: &out)
        } else {
            out.append(contentsOf: number.description.utf8)
        }
    }

    /// Digits written in place: `String(number)` allocated a string per number.
    static func digits(_ number: Int64, into out: inout [UInt8]) {
        if number < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[start...].reverse()
    }

    private static func newline(into out: inout [UInt8], pretty: Bool, indent: Int) {
        guard pretty else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// Appends `text` quoted: the runs that need no escape are copied whole (a byte at a time, this was a
    /// tenth of writing a page of reminders).
    static func string(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var run = 0
            for index in bytes.indices where bytes[index] < 0x20 || bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                escape(bytes[index], into: &out)
                run = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func escape(_ byte: UInt8, into out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
        case 0x0A: out.append(contentsOf: "\\n".utf8)
        case 0x0D: out.append(contentsOf: "\\r".utf8)
        case 0x09: out.append(contentsOf: "\\t".utf8)
        default:
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: "\\u00".utf8)
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
    }
}

/// A record that is its own JSON value (a reply that carries a whole document): encoded without a text
/// round trip.
public protocol JSONValueConvertible {
    var jsonValue: JSONValue { get }
}

/// A reply sent as the same bytes to many clients (a `Watch` entry): its compact JSON is written once, with
/// the value, and each client's message splices it in instead of writing the value again.
public protocol JSONPreEncoded {
    /// The compact JSON ``JSONWriter`` writes for the value's encoding.
    var encodedJSON: [UInt8] { get }
}

/// Writes a JSON object straight to bytes, a field at a time, as ``JSONWriter`` writes it compact: the fields
/// must come in sorted key order (checked in debug builds), and a nil value is left out (as `encodeIfPresent`).
/// For records written for every client of a burst, without a ``JSONValue`` tree in between.
public struct JSONObjectWriter {
    private var out: [UInt8] = [UInt8(ascii: "{")]
    private var lastKey = ""

    public init() {}

    private mutating func key(_ key: String) {
        assert(out.count == 1 || lastKey < key, "JSONObjectWriter: \(key) after \(lastKey)")
        if out.count > 1 { out.append(UInt8(ascii: ",")) }
        JSONWriter.string(key, into: &out)
        out.append(UInt8(ascii: ":"))
        lastKey = key
    }

    /// Writes `value` under `name` with `write`, or nothing when it is nil.
    private mutating func field<Value>(_ name: String, _ value: Value?, _ write: (Value, inout [UInt8]) -> Void) {
        guard let value else { return }
        key(name)
        write(value, &out)
    }

    public mutating func field(_ name: String, _ text: String?) {
        field(name, text) { JSONWriter.string($0, into: &$1) }
    }

    public mutating func field(_ name: String, _ number: Int64?) {
        field(name, number, JSONWriter.digits)
    }

    public mutating func field(_ name: String, _ number: Int?) {
        field(name, number.map(Int64.init), JSONWriter.digits)
    }

    public mutating func field(_ name: String, _ number: Double?) {
        field(name, number) { JSONWriter.number($0, into: &$1) }
    }

    public mutating func field(_ name: String, _ flag: Bool?) {
        field(name, flag) { $1.append(contentsOf: ($0 ? "true" : "false").utf8) }
    }

    /// A field whose value is JSON already written (a nested object).
    public mutating func field(_ name: String, json: [UInt8]) {
        key(name)
        out.append(contentsOf: json)
    }

    /// The object's bytes.
    public func finished() -> [UInt8] {
        out + [UInt8(ascii: "}")]
    }
}
