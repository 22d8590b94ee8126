#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import FoundationEssentials
#endif

/// Encodes a typed record straight into compact JSON text, as the record asks for its fields, without a
/// ``JSONValue`` tree in between (a page of 1,000 reminders was built as a tree, then written: half of a `List`
/// call's time). What it writes means what ``JSONValueEncoder``'s tree written by ``JSONWriter`` means, but an
/// object's fields come in the order the record encodes them (not sorted), and an integer is written exactly
/// (the tree held it as a double).
///
/// Text is written as it comes, so a record must finish a nested container before it writes again to the one
/// around it (every synthesized `encode(to:)` does). One that goes back to a container it left is encoded again
/// through the tree, which takes any order.
public enum JSONBytesEncoder {
    /// The compact JSON of `value`.
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        if let value = value as? any JSONValueConvertible { return JSONWriter.write(value.jsonValue) }
        let writer = Writer()
        let root = Node(writer: writer, parentPath: [], key: nil)
        writer.open.append(root)
        try root.encodeValue(value)
        writer.close(root)
        if writer.outOfOrder { return JSONWriter.write(try JSONValueEncoder.encode(value)) }
        return writer.out
    }

    /// The text written so far and the values still open (innermost last): writing into one closes those
    /// opened inside it.
    final class Writer {
        var out: [UInt8] = []
        var open: [Node] = []
        /// A record wrote into a value it had already left: the text is not the record's.
        var outOfOrder = false

        init() { out.reserveCapacity(512) }

        /// Closes the values opened inside `node`; false (and ``outOfOrder``) when `node` was closed already.
        func makeCurrent(_ node: Node) -> Bool {
            guard node.isOpen else {
                outOfOrder = true
                return false
            }
            while let last = open.last, last !== node { close(last) }
            return true
        }

        /// Closes `node` and whatever is open inside it (an object nothing was written to is `{}`).
        func close(_ node: Node) {
            guard node.isOpen else { return }
            while let last = open.popLast() {
                last.finish(into: &out)
                if last === node { return }
            }
        }
    }

    /// One value being written: unstarted until its record asks for a container or writes a single value.
    final class Node: Encoder {
        private enum State { case unstarted, object(fields: Int), array(elements: Int), single, closed }

        let writer: Writer
        private var state = State.unstarted
        private let parentPath: [any CodingKey]
        private let key: (any CodingKey)?
        /// Made only when asked for (an error, a type's own `encode(to:)`), as ``JSONValueEncoder`` does.
        private(set) lazy var codingPath: [any CodingKey] = key.map { parentPath + [$0] } ?? parentPath
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(writer: Writer, parentPath: [any CodingKey], key: (any CodingKey)?) {
            self.writer = writer
            self.parentPath = parentPath
            self.key = key
        }

        var isOpen: Bool {
            if case .closed = state { return false }
            return true
        }

        func finish(into out: inout [UInt8]) {
            switch state {
            case .unstarted: out.append(contentsOf: "{}".utf8)
            case .object: out.append(UInt8(ascii: "}"))
            case .array: out.append(UInt8(ascii: "]"))
            case .single, .closed: break
            }
            state = .closed
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .unstarted = state, writer.makeCurrent(self) {
                writer.out.append(UInt8(ascii: "{"))
                state = .object(fields: 0)
            }
            return KeyedEncodingContainer(KeyedContainer<Key>(node: self))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .unstarted = state, writer.makeCurrent(self) {
                writer.out.append(UInt8(ascii: "["))
                state = .array(elements: 0)
            }
            return UnkeyedContainer(node: self)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(node: self) }

        /// Starts a field of this object: its key is written; false when the record is out of order.
        func startField(_ key: any CodingKey) -> Bool {
            guard writer.makeCurrent(self), case .object(let fields) = state else { return fail() }
            if fields > 0 { writer.out.append(UInt8(ascii: ",")) }
            JSONWriter.string(key.stringValue, into: &writer.out)
            writer.out.append(UInt8(ascii: ":"))
            state = .object(fields: fields + 1)
            return true
        }

        /// Starts an element of this array; false when the record is out of order.
        func startElement() -> Bool {
            guard writer.makeCurrent(self), case .array(let elements) = state else { return fail() }
            if elements > 0 { writer.out.append(UInt8(ascii: ",")) }
            state = .array(elements: elements + 1)
            return true
        }

        /// Starts this value as a single one; false when something was written to it already.
        func startSingle() -> Bool {
            guard writer.makeCurrent(self), case .unstarted = state else { return fail() }
            state = .single
            return true
        }

        private func fail() -> Bool {
            writer.outOfOrder = true
            return false
        }

        /// A value of its own, opened inside this one after its key or separator was written.
        func child(_ key: any CodingKey) -> Node {
            let child = Node(writer: writer, parentPath: codingPath, key: key)
            writer.open.append(child)
            return child
        }

        /// Writes `value` into this value: a plain one as text, others through their `encode(to:)`.
        func encodeValue(_ value: some Encodable) throws {
            if case .unstarted = state, writer.makeCurrent(self), try appendPlain(value, path: codingPath) {
                state = .single
            } else {
                try value.encode(to: self)
            }
        }

        /// Appends `value`'s text where the writer is, when it needs no container of its own
        /// (``JSONValueEncoder/plainValue(_:)``); false otherwise. Integers are written exactly; `path` is the
        /// coding path of a number JSON cannot hold.
        func appendPlain(_ value: some Encodable, path: @autoclosure () -> [any CodingKey]) throws -> Bool {
            switch value {
            case let number as Int: JSONWriter.digits(Int64(number), into: &writer.out)
            case let number as Int64: JSONWriter.digits(number, into: &writer.out)
            case let number as Double:
                guard number.isFinite else { throw Self.notANumber(number, path: path()) }
                JSONWriter.number(number, into: &writer.out)
            default:
                guard let plain = JSONValueEncoder.plainValue(value) else { return false }
                JSONWriter.write(plain, into: &writer.out)
            }
            return true
        }

        static func notANumber(_ number: Double, path: [any CodingKey]) -> EncodingError {
            EncodingError.invalidValue(number, .init(codingPath: path, debugDescription: "Unable to encode \(number) directly in JSON."))
        }

        /// Writes `value` as this value (a single value container's).
        func writeSingle(_ value: some Encodable) throws {
            guard startSingle() else { return }
            _ = try appendPlain(value, path: codingPath)
        }

        /// Writes `literal` (`null`, `true`, a number's digits) as this value.
        func writeLiteral(_ literal: String) {
            guard startSingle() else { return }
            writer.out.append(contentsOf: literal.utf8)
        }

        /// A field or element whose value is written with its own node, closed when it is done.
        func encodeChild(_ value: some Encodable, key: any CodingKey) throws {
            let child = child(key)
            try value.encode(to: child)
            writer.close(child)
        }

        /// A node that takes nothing: what a container of a record out of order writes to.
        static func refusing(_ writer: Writer) -> Node {
            let node = Node(writer: writer, parentPath: [], key: nil)
            node.state = .closed
            return node
        }
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }

        func encodeNil(forKey key: Key) {
            if node.startField(key) { node.writer.out.append(contentsOf: "null".utf8) }
        }

        func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            guard node.startField(key) else { return }
            if try !node.appendPlain(value, path: node.codingPath + [key]) { try node.encodeChild(value, key: key) }
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            nested(key).container(keyedBy: keyType)
        }
        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { nested(key).unkeyedContainer() }
        func superEncoder() -> any Encoder { nested(JSONValueEncoder.SuperKey.super) }
        func superEncoder(forKey key: Key) -> any Encoder { nested(key) }

        /// A value of its own under `key`, left open until the record writes here again.
        private func nested(_ key: any CodingKey) -> Node {
            node.startField(key) ? node.child(key) : .refusing(node.writer)
        }
    }

    private struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }
        private(set) var count = 0

        init(node: Node) { self.node = node }

        mutating func encodeNil() {
            if start() { node.writer.out.append(contentsOf: "null".utf8) }
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            guard start() else { return }
            let key = JSONValueEncoder.IndexKey(intValue: count - 1)
            if try !node.appendPlain(value, path: node.codingPath + [key]) { try node.encodeChild(value, key: key) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            nested().container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { nested().unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { nested() }

        private mutating func start() -> Bool {
            guard node.startElement() else { return false }
            count += 1
            return true
        }

        private mutating func nested() -> Node {
            start() ? node.child(JSONValueEncoder.IndexKey(intValue: count - 1)) : .refusing(node.writer)
        }
    }

    private struct SingleContainer: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }

        func encodeNil() { node.writeLiteral("null") }
        func encode(_ value: Bool) { node.writeLiteral(value ? "true" : "false") }
        func encode(_ value: String) throws { try node.writeSingle(value) }
        func encode(_ value: Double) throws { try node.writeSingle(value) }
        func encode(_ value: Float) throws { try node.writeSingle(Double(value.description) ?? Double(value)) }
        func encode(_ value: Int) throws { try node.writeSingle(value) }
        func encode(_ value: Int8) throws { try node.writeSingle(Int(value)) }
        func encode(_ value: Int16) throws { try node.writeSingle(Int(value)) }
        func encode(_ value: Int32) throws { try node.writeSingle(Int(value)) }
        func encode(_ value: Int64) throws { try node.writeSingle(value) }
        func encode(_ value: UInt) throws { try encode(UInt64(value)) }
        func encode(_ value: UInt8) throws { try node.writeSingle(Int(value)) }
        func encode(_ value: UInt16) throws { try node.writeSingle(Int(value)) }
        func encode(_ value: UInt32) throws { try node.writeSingle(Int(value)) }
        func encode(_ value: UInt64) throws { node.writeLiteral(String(value)) }
        func encode<T: Encodable>(_ value: T) throws { try node.encodeValue(value) }
    }
}
