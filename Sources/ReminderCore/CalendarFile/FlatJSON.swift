/// The JSON of a flat object of strings and booleans (a ``RuleSpec`` in a synced item's `X-REMINDD-RULE`), without
/// Foundation. Written with its keys sorted, byte for byte as `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` wrote it (an item's text must not change with the encoder); read strictly, since an
/// item's text is untrusted: one object, string, boolean or null values, nothing nested; a key not known is
/// passed over, as `JSONDecoder` does.
public enum FlatJSON {
    /// A value of the object (null: the key is absent).
    enum Value: Hashable {
        case string(String)
        case bool(Bool)
    }

    /// Not a flat object of strings and booleans.
    struct Failure: Error {}

    /// `value` as JSON text. - Throws: ``Failure`` for a value that is not a flat object of strings and booleans.
    static func text(of value: some Encodable) throws -> String {
        let encoder = Writer()
        try value.encode(to: encoder)
        guard !encoder.refused else { throw Failure() }
        var out = "{"
        for (index, key) in encoder.fields.keys.sorted().enumerated() {
            out += (index == 0 ? "" : ",") + quoted(key) + ":"
            switch encoder.fields[key]! {
            case .string(let text): out += quoted(text)
            case .bool(let flag): out += flag ? "true" : "false"
            }
        }
        return out + "}"
    }

    /// The value `text` holds. - Throws: ``Failure`` when it is not a flat object of strings and booleans, or
    /// the type refuses it.
    static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        var parser = Parser(bytes: Array(text.utf8))
        return try T(from: Reader(fields: try parser.object()))
    }

    /// A string as JSON writes it: `"` and `\` escaped, control characters as `\n`, `\t` ... or `\u001f`.
    public static func quoted(_ text: String) -> String {
        var out = ""
        appendQuoted(text, to: &out)
        return out
    }

    /// Appends `text` as ``quoted(_:)`` writes it (without a string made for it: a rule's column is written
    /// for each of a calendar's alarms).
    public static func appendQuoted(_ text: String, to out: inout String) {
        out.append("\"")
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            out.append(text)
            return out.append("\"")
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.append("\"")
    }

    // MARK: Reading

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func object() throws -> [String: Value] {
            var fields: [String: Value] = [:]
            try expect(UInt8(ascii: "{"))
            if try peek() == UInt8(ascii: "}") {
                index += 1
                return try end(fields)
            }
            while true {
                let key = try string()
                try expect(UInt8(ascii: ":"))
                switch try peek() {
                case UInt8(ascii: "\""): fields[key] = .string(try string())
                case UInt8(ascii: "t"): try word("true"); fields[key] = .bool(true)
                case UInt8(ascii: "f"): try word("false"); fields[key] = .bool(false)
                case UInt8(ascii: "n"): try word("null"); fields[key] = nil
                default: throw Failure()
                }
                switch try next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"): return try end(fields)
                default: throw Failure()
                }
            }
        }

        /// Nothing but white space may follow the object.
        private mutating func end(_ fields: [String: Value]) throws -> [String: Value] {
            skipSpace()
            guard index == bytes.count else { throw Failure() }
            return fields
        }

        private mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        private mutating func peek() throws -> UInt8 {
            skipSpace()
            guard index < bytes.count else { throw Failure() }
            return bytes[index]
        }

        private mutating func next() throws -> UInt8 {
            let byte = try peek()
            index += 1
            return byte
        }

        private mutating func expect(_ byte: UInt8) throws {
            guard try next() == byte else { throw Failure() }
        }

        private mutating func word(_ text: String) throws {
            let utf8 = Array(text.utf8)
            guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else { throw Failure() }
            index += utf8.count
        }

        private mutating func string() throws -> String {
            try expect(UInt8(ascii: "\""))
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() throws {
                guard !run.isEmpty else { return }
                guard let text = String(validating: run, as: UTF8.self) else { throw Failure() }
                scalars.append(contentsOf: text.unicodeScalars)
                run = []
            }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    try flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    try flush()
                    scalars.append(try escaped())
                case 0..<0x20:
                    throw Failure()
                default:
                    run.append(byte)
                }
            }
            throw Failure()
        }

        private mutating func escaped() throws -> Unicode.Scalar {
            guard index < bytes.count else { throw Failure() }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{8}"
            case UInt8(ascii: "f"): return "\u{C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let high = try hex4()
                guard (0xD800...0xDBFF).contains(high) else { return try scalar(high) }
                try word("\\u")
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw Failure() }
                return try scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            default: throw Failure()
            }
        }

        private func scalar(_ value: UInt32) throws -> Unicode.Scalar {
            guard let scalar = Unicode.Scalar(value) else { throw Failure() }
            return scalar
        }

        private mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw Failure()
            }
            index += 4
            return value
        }
    }

    /// A decoder over the fields read: a keyed container of strings and booleans, nothing else.
    private struct Reader: Decoder {
        let fields: [String: Value]
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Fields<Key>(fields: fields))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Failure() }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Failure() }
    }

    private struct Fields<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let fields: [String: Value]
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool { fields[key.stringValue] == nil }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            guard case .bool(let flag) = fields[key.stringValue] else { throw Failure() }
            return flag
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            guard case .string(let text) = fields[key.stringValue] else { throw Failure() }
            return text
        }

        // Nothing but strings and booleans: every other kind of value is refused.
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw Failure() }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw Failure()
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw Failure() }
        func superDecoder() throws -> any Decoder { throw Failure() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw Failure() }
    }

    // MARK: Writing

    /// An encoder that keeps a keyed container's strings and booleans; anything nested is refused (its
    /// containers cannot throw, so it is noted and the whole value refused).
    private final class Writer: Encoder {
        var fields: [String: Value] = [:]
        var refused = false
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Keeping<Key>(writer: self))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            refused = true
            return Refusing()
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            refused = true
            return Refusing()
        }
    }

    private struct Keeping<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let writer: Writer
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode(_ value: Bool, forKey key: Key) throws { writer.fields[key.stringValue] = .bool(value) }
        mutating func encode(_ value: String, forKey key: Key) throws { writer.fields[key.stringValue] = .string(value) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw Failure() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            writer.refused = true
            return KeyedEncodingContainer(Keeping<NestedKey>(writer: Writer()))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            writer.refused = true
            return Refusing()
        }
        mutating func superEncoder() -> any Encoder { refusedEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { refusedEncoder() }

        private func refusedEncoder() -> any Encoder {
            writer.refused = true
            return Writer()
        }
    }

    /// What a value other than a flat object asks for: every write is refused.
    private struct Refusing: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }

        mutating func encodeNil() throws { throw Failure() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw Failure() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keeping<NestedKey>(writer: Writer()))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Refusing() }
        mutating func superEncoder() -> any Encoder { Writer() }
    }
}
