#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import FoundationEssentials
#endif

/// Encodes a typed record straight into a ``JSONValue`` tree, as `JSONEncoder` would write it and ``JSONParser``
/// read it back (a reply was written out as JSON text and parsed again before being written to the socket:
/// a third of a large report's time). Numbers become doubles as the parser makes them; a nil optional field is
/// left out; `Data` is Base64 text, `Date` its seconds since 2001 and `URL` its absolute string, as
/// `JSONEncoder`'s defaults have them; a number JSON cannot hold (NaN, infinity) throws as `JSONEncoder` does.
struct JSONValueEncoder {
    /// The value of `value`.
    static func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Node(parentPath: [], key: nil)
        try root.encodeValue(value)
        return root.value
    }

    /// One value being written: its result, filled by whichever container the value asked for. Containers
    /// nested in it write into their own nodes, read back when this one's value is asked for; a plain value
    /// (text, number, flag) is kept as it is, without a node.
    ///
    /// A node's coding path is made only when asked for (an error, a type's own `encode(to:)`): made for every
    /// value, it took a 20-year report's 700,000 states to 300 MB.
    final class Node: Encoder {
        private let parentPath: [any CodingKey]
        private let key: (any CodingKey)?
        private(set) lazy var codingPath: [any CodingKey] = key.map { parentPath + [$0] } ?? parentPath
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        private enum Slot {
            case plain(JSONValue)
            case node(Node)

            var value: JSONValue {
                switch self {
                case .plain(let value): value
                case .node(let node): node.value
                }
            }
        }
        private enum Content {
            case empty
            case single(JSONValue)
            case object([String: Slot])
            case array([Slot])
        }
        private var content = Content.empty

        init(parentPath: [any CodingKey], key: (any CodingKey)?) {
            self.parentPath = parentPath
            self.key = key
        }

        var value: JSONValue {
            switch content {
            case .empty: .object([:])
            case .single(let value): value
            case .object(let fields): .object(fields.mapValues(\.value))
            case .array(let elements): .array(elements.map(\.value))
            }
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .object = content {} else { content = .object([:]) }
            return KeyedEncodingContainer(KeyedContainer<Key>(node: self))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array = content {} else { content = .array([]) }
            return UnkeyedContainer(node: self)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(node: self) }

        /// A new node for a field of this object.
        func field(_ key: any CodingKey) -> Node {
            let child = Node(parentPath: codingPath, key: key)
            put(.node(child), at: key)
            return child
        }

        /// Sets a field of this object to a plain value.
        func field(_ key: any CodingKey, _ value: JSONValue) { put(.plain(value), at: key) }

        private func put(_ slot: Slot, at key: any CodingKey) {
            guard case .object(var fields) = content else { return }
            content = .empty  // keep the dictionary uniquely referenced while it changes
            fields[key.stringValue] = slot
            content = .object(fields)
        }

        /// A new node for the next element of this array.
        func element() -> Node {
            let child = Node(parentPath: codingPath, key: IndexKey(intValue: count))
            append(.node(child))
            return child
        }

        /// Appends a plain value to this array.
        func element(_ value: JSONValue) { append(.plain(value)) }

        private func append(_ slot: Slot) {
            guard case .array(var elements) = content else { return }
            content = .empty
            elements.append(slot)
            content = .array(elements)
        }

        var count: Int {
            if case .array(let elements) = content { return elements.count }
            return 0
        }

        func set(_ value: JSONValue) { content = .single(value) }

        func encodeValue(_ value: some Encodable) throws {
            if let plain = JSONValueEncoder.plainValue(value) { set(plain) } else { try value.encode(to: self) }
        }

        func number(_ value: Double) throws -> JSONValue {
            guard value.isFinite else {
                throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "Unable to encode \(value) directly in JSON."))
            }
            return .number(value)
        }
    }

    /// The JSON of a value that needs no container of its own (text, a number, a flag, and the types
    /// `JSONEncoder` writes as such), or nil: then it is encoded through its `encode(to:)`, which also throws for
    /// a number JSON cannot hold, with its coding path.
    static func plainValue(_ value: some Encodable) -> JSONValue? {
        switch value {
        case let json as JSONValue: json
        case let text as String: .string(text)
        case let flag as Bool: .bool(flag)
        case let number as Int: .number(Double(number))
        case let number as Int64: .number(Double(number))
        case let number as Double where number.isFinite: .number(number)
        case let data as Data: .string(data.base64EncodedString())
        case let date as Date where date.timeIntervalSinceReferenceDate.isFinite: .number(date.timeIntervalSinceReferenceDate)
        case let url as URL: .string(url.absoluteString)
        default: nil
        }
    }

    /// The key of an array's element in a coding path.
    struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }

        func encodeNil(forKey key: Key) { node.field(key, .null) }
        func encode(_ value: Bool, forKey key: Key) { node.field(key, .bool(value)) }
        func encode(_ value: String, forKey key: Key) { node.field(key, .string(value)) }
        func encode(_ value: Double, forKey key: Key) throws { try node.field(key).encodeValue(value) }
        func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            if let plain = JSONValueEncoder.plainValue(value) { node.field(key, plain) } else { try node.field(key).encodeValue(value) }
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            node.field(key).container(keyedBy: keyType)
        }
        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { node.field(key).unkeyedContainer() }
        func superEncoder() -> any Encoder { node.field(SuperKey.super) }
        func superEncoder(forKey key: Key) -> any Encoder { node.field(key) }
    }

    enum SuperKey: String, CodingKey { case `super` }

    private struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }
        var count: Int { node.count }

        func encodeNil() { node.element(.null) }
        func encode(_ value: Bool) { node.element(.bool(value)) }
        func encode(_ value: String) { node.element(.string(value)) }
        func encode(_ value: Double) throws { try node.element().encodeValue(value) }
        func encode<T: Encodable>(_ value: T) throws {
            if let plain = JSONValueEncoder.plainValue(value) { node.element(plain) } else { try node.element().encodeValue(value) }
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            node.element().container(keyedBy: keyType)
        }
        func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { node.element().unkeyedContainer() }
        func superEncoder() -> any Encoder { node.element() }
    }

    private struct SingleContainer: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }

        func encodeNil() { node.set(.null) }
        func encode(_ value: Bool) { node.set(.bool(value)) }
        func encode(_ value: String) { node.set(.string(value)) }
        func encode(_ value: Double) throws { node.set(try node.number(value)) }
        func encode(_ value: Float) throws { node.set(try node.number(Double(value.description) ?? Double(value))) }
        func encode(_ value: Int) { node.set(.number(Double(value))) }
        func encode(_ value: Int8) { node.set(.number(Double(value))) }
        func encode(_ value: Int16) { node.set(.number(Double(value))) }
        func encode(_ value: Int32) { node.set(.number(Double(value))) }
        func encode(_ value: Int64) { node.set(.number(Double(value))) }
        func encode(_ value: UInt) { node.set(.number(Double(value))) }
        func encode(_ value: UInt8) { node.set(.number(Double(value))) }
        func encode(_ value: UInt16) { node.set(.number(Double(value))) }
        func encode(_ value: UInt32) { node.set(.number(Double(value))) }
        func encode(_ value: UInt64) { node.set(.number(Double(value))) }
        func encode<T: Encodable>(_ value: T) throws { try node.encodeValue(value) }
    }
}
