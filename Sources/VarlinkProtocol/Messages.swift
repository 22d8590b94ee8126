#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import FoundationEssentials
#endif

/// A Varlink method call: `{"method": "io.remindd.Reminders.Add", "parameters": {...}, "more": true}`.
public struct VarlinkCall: Codable, Hashable, Sendable {
    public var method: String
    public var parameters: JSONValue?
    /// The caller wants no reply.
    public var oneway: Bool?
    /// The caller accepts several replies (`continues: true` on all but the last).
    public var more: Bool?
    public var upgrade: Bool?

    public init(method: String, parameters: JSONValue? = nil, oneway: Bool? = nil, more: Bool? = nil) {
        self.method = method
        self.parameters = parameters
        self.oneway = oneway
        self.more = more
    }

    /// `io.remindd.Reminders` of `io.remindd.Reminders.Add`.
    public var interface: String {
        guard let dot = method.lastIndex(of: ".") else { return "" }
        return String(method[..<dot])
    }

    /// `Add` of `io.remindd.Reminders.Add`.
    public var member: String {
        guard let dot = method.lastIndex(of: ".") else { return method }
        return String(method[method.index(after: dot)...])
    }

    /// Decodes the parameters into a typed record; a missing or mistyped field becomes
    /// `org.varlink.service.InvalidParameter` naming that field.
    public func decodeParameters<T: Decodable>(_ type: T.Type) throws(VarlinkError) -> T {
        do {
            return try (parameters ?? .object([:])).decode(type)
        } catch let error as DecodingError {
            throw .invalidParameter(Self.parameterName(of: error))
        } catch {
            throw .invalidParameter("parameters")
        }
    }

    private static func parameterName(of error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "parameters" : path
        @unknown default:
            return "parameters"
        }
    }
}

/// A Varlink reply: parameters, or an error name with parameters; `continues` while a `more` call streams.
public struct VarlinkReply: Codable, Hashable, Sendable {
    public var parameters: JSONValue?
    public var continues: Bool?
    public var error: String?
    /// `parameters` already written as JSON (``JSONPreEncoded``), sent as they are; not part of the message's
    /// own coding.
    public var encodedParameters: [UInt8]?

    private enum CodingKeys: String, CodingKey { case parameters, continues, error }

    public init(parameters: JSONValue? = nil, continues: Bool? = nil, error: String? = nil) {
        self.parameters = parameters
        self.continues = continues
        self.error = error
    }

    /// A reply whose parameters are sent as the bytes written once for every client (``parameters`` stays nil:
    /// ``readingParameters()`` reads them back, as a client would).
    public init(preEncoded value: some JSONPreEncoded, continues: Bool?) {
        self.init(encodedParameters: value.encodedJSON, continues: continues)
    }

    /// A reply whose parameters are sent as `encodedParameters`, compact JSON written already
    /// (``JSONBytesEncoder``).
    public init(encodedParameters: [UInt8], continues: Bool?) {
        self.init(continues: continues)
        self.encodedParameters = encodedParameters
    }

    /// The reply with ``parameters`` read from its pre-encoded bytes, when it has them.
    public func readingParameters() throws -> VarlinkReply {
        guard parameters == nil, let encodedParameters else { return self }
        var reply = VarlinkReply(parameters: try JSONParser.parse(encodedParameters), continues: continues, error: error)
        reply.encodedParameters = encodedParameters
        return reply
    }
}

/// A Varlink error reply: a fully qualified name and its parameters.
public struct VarlinkError: Error, Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public let parameters: JSONValue

    public init(name: String, parameters: [String: JSONValue] = [:]) {
        self.name = name
        self.parameters = .object(parameters)
    }

    public static func interfaceNotFound(_ interface: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.InterfaceNotFound", parameters: ["interface": .string(interface)])
    }

    public static func methodNotFound(_ method: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.MethodNotFound", parameters: ["method": .string(method)])
    }

    public static func invalidParameter(_ parameter: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.InvalidParameter", parameters: ["parameter": .string(parameter)])
    }

    public static func expectedMore() -> VarlinkError {
        VarlinkError(name: "org.varlink.service.ExpectedMore")
    }

    public static func permissionDenied() -> VarlinkError {
        VarlinkError(name: "org.varlink.service.PermissionDenied")
    }

    /// A string parameter of the error, if present (`message`, `parameter`, ...).
    public func string(_ key: String) -> String? {
        if case .object(let object) = parameters, case .string(let value) = object[key] { return value }
        return nil
    }

    public var description: String {
        if let message = string("message") { return message }
        if case .object(let object) = parameters, !object.isEmpty {
            let details = object.sorted { $0.key < $1.key }.map { key, value -> String in
                if case .string(let text) = value { return "\(key)=\(text)" }
                return "\(key)=\(value)"
            }
            return "\(name) (\(details.joined(separator: ", ")))"
        }
        return name
    }
}

/// Encoding of messages on the wire: UTF-8 JSON, each message terminated by a NUL byte.
public enum VarlinkWire {
    /// The largest message accepted (1 MiB); a peer that sends more is answered with an error and disconnected.
    public static let maximumMessageSize = 1 << 20

    /// The JSON bytes of a reply, without the terminating NUL, in one pass over its parameters.
    public static func encode(_ reply: VarlinkReply) -> [UInt8] {
        // The keys in JSONWriter's (sorted) order: continues, error, parameters.
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(64 + (reply.encodedParameters?.count ?? 192))
        func key(_ name: String) {
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            JSONWriter.string(name, into: &out)
            out.append(UInt8(ascii: ":"))
        }
        if let continues = reply.continues {
            key("continues")
            out.append(contentsOf: (continues ? "true" : "false").utf8)
        }
        if let error = reply.error {
            key("error")
            JSONWriter.string(error, into: &out)
        }
        if let encoded = reply.encodedParameters {
            key("parameters")
            out.append(contentsOf: encoded)
        } else if let parameters = reply.parameters {
            key("parameters")
            JSONWriter.write(parameters, into: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The JSON bytes of a call, without the terminating NUL: `JSONEncoder`'s text (sorted keys), written in one
    /// pass (a client's `JSONEncoder`, made and used once, was 4% of `remindctl next`).
    public static func encode(_ call: VarlinkCall) -> [UInt8] {
        // The keys in JSONWriter's (sorted) order: method, more, oneway, parameters, upgrade.
        var out: [UInt8] = Array(#"{"method":"#.utf8)
        JSONWriter.string(call.method, into: &out)
        for (name, flag) in [("more", call.more), ("oneway", call.oneway)] {
            guard let flag else { continue }
            out.append(contentsOf: ",\"\(name)\":\(flag)".utf8)
        }
        if let parameters = call.parameters {
            out.append(contentsOf: #","parameters":"#.utf8)
            JSONWriter.write(parameters, into: &out)
        }
        if let upgrade = call.upgrade { out.append(contentsOf: ",\"upgrade\":\(upgrade)".utf8) }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The JSON bytes of a message, without the terminating NUL.
    public static func encode(_ message: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The messages are this module's own Codable types, whose encoding cannot fail (no non-finite numbers:
        // JSONValue refuses them when parsed).
        return Array((try? encoder.encode(message)) ?? Data("{}".utf8))
    }

    /// Decodes one message's JSON bytes.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws -> T {
        try JSONDecoder().decode(type, from: Data(bytes))
    }

    /// A call from its JSON bytes, read with ``JSONParser``.
    public static func call(from bytes: some Collection<UInt8>) throws -> VarlinkCall {
        let fields = try message(bytes)
        guard case .string(let method)? = fields["method"] else { throw JSONParser.Failure(offset: 0, reason: "no method") }
        var call = VarlinkCall(method: method, parameters: fields["parameters"].flatMap { $0 == .null ? nil : $0 })
        call.oneway = try flag(fields["oneway"])
        call.more = try flag(fields["more"])
        call.upgrade = try flag(fields["upgrade"])
        return call
    }

    /// A reply from its JSON bytes, read with ``JSONParser``.
    public static func reply(from bytes: some Collection<UInt8>) throws -> VarlinkReply {
        let fields = try message(bytes)
        var error: String?
        switch fields["error"] {
        case .string(let name)?: error = name
        case nil, .null?: error = nil
        default: throw JSONParser.Failure(offset: 0, reason: "an error name that is not a string")
        }
        return VarlinkReply(parameters: fields["parameters"].flatMap { $0 == .null ? nil : $0 }, continues: try flag(fields["continues"]), error: error)
    }

    private static func message(_ bytes: some Collection<UInt8>) throws -> [String: JSONValue] {
        guard case .object(let fields) = try JSONParser.parse(bytes) else { throw JSONParser.Failure(offset: 0, reason: "not an object") }
        return fields
    }

    private static func flag(_ value: JSONValue?) throws -> Bool? {
        switch value {
        case .bool(let flag)?: return flag
        case nil, .null?: return nil
        default: throw JSONParser.Failure(offset: 0, reason: "a flag that is not true or false")
        }
    }
}
