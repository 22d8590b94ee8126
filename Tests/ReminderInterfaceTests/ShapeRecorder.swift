import VarlinkProtocol

/// Records the wire shape of a Decodable type by decoding one value from nothing: every field it asks for,
/// with its type, and whether it is asked for with `decodeIfPresent` (optional). Synthesized conformances
/// ask for exactly their stored properties.
enum ShapeRecorder {
    static func shape<T: Decodable>(of type: T.Type) throws -> TypeShape {
        try record(type).shape
    }

    /// Decodes `type` from a recording decoder: the value made and the shape recorded.
    static func record<T: Decodable>(_ type: T.Type) throws -> (value: T, shape: TypeShape) {
        if let primitive = primitive(type) { return (primitive.value as! T, primitive.shape) }
        let decoder = RecordingDecoder()
        let value = try T(from: decoder)
        return (value, decoder.shape)
    }

    private static func primitive<T>(_ type: T.Type) -> (value: Any, shape: TypeShape)? {
        switch type {
        case is Bool.Type: (false, .bool)
        case is String.Type: ("", .string)
        case is Double.Type: (0.0, .float)
        case is Float.Type: (Float(0), .float)
        case is Int.Type: (0, .int)
        case is Int64.Type: (Int64(0), .int)
        case is Int32.Type: (Int32(0), .int)
        case is UInt32.Type: (UInt32(0), .int)
        case is UInt64.Type: (UInt64(0), .int)
        case is Int8.Type: (Int8(0), .int)
        case is Int16.Type: (Int16(0), .int)
        case is UInt.Type: (UInt(0), .int)
        case is UInt8.Type: (UInt8(0), .int)
        case is UInt16.Type: (UInt16(0), .int)
        case is JSONValue.Type: (JSONValue.object([:]), .object)  // any JSON: `object` in the IDL
        default: nil
        }
    }
}

private final class RecordingDecoder: Decoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    /// What the type asked for; a type that asks for nothing is an empty record.
    var shape: TypeShape = .record([:])

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedRecorder<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { UnkeyedRecorder(decoder: self) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueRecorder(decoder: self) }

    func addField(_ key: String, _ field: TypeShape) {
        guard case .record(var fields) = shape else { return }
        fields[key] = field
        shape = .record(fields)
    }
}

private struct KeyedRecorder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RecordingDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decode(type, as: key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try decodeIfPresent(type, as: key) }

    // The primitive requirements have default implementations that would not record; each goes to the generic one.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, as: key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(type, as: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, as: key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(type, as: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, as: key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(type, as: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, as: key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresent(type, as: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, as: key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(type, as: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, as: key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(type, as: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, as: key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(type, as: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, as: key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(type, as: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, as: key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(type, as: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, as: key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(type, as: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, as: key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(type, as: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, as: key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresent(type, as: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, as: key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresent(type, as: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, as: key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIfPresent(type, as: key) }

    private func decode<T: Decodable>(_ type: T.Type, as key: Key) throws -> T {
        let (value, shape) = try ShapeRecorder.record(type)
        decoder.addField(key.stringValue, shape)
        return value
    }

    private func decodeIfPresent<T: Decodable>(_ type: T.Type, as key: Key) throws -> T? {
        decoder.addField(key.stringValue, .optional(try ShapeRecorder.shape(of: type)))
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.dataCorrupted(.init(codingPath: [key], debugDescription: "nested containers are not recorded"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.dataCorrupted(.init(codingPath: [key], debugDescription: "nested containers are not recorded"))
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}

/// An array: one element is decoded, and its shape is the element's.
private struct UnkeyedRecorder: UnkeyedDecodingContainer {
    let decoder: RecordingDecoder
    var codingPath: [any CodingKey] { [] }
    var count: Int? { nil }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex > 0 }

    init(decoder: RecordingDecoder) {
        self.decoder = decoder
        decoder.shape = .array(.object)
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, shape) = try ShapeRecorder.record(type)
        decoder.shape = .array(shape)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "nested containers are not recorded"))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "nested containers are not recorded"))
    }

    mutating func superDecoder() throws -> any Decoder { decoder }
}

/// A value decoded as one primitive (a wrapper type, or an enum with a raw value).
private struct SingleValueRecorder: SingleValueDecodingContainer {
    let decoder: RecordingDecoder
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, shape) = try ShapeRecorder.record(type)
        decoder.shape = shape
        return value
    }
}
