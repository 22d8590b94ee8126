/// A Varlink method as a type: the interface it belongs to, its name, and the Codable types of its parameters
/// and its reply. Declared once and used by both ends: the server registers a handler for it, a client calls
/// it, and a test compares it with the interface's IDL.
public protocol VarlinkMethod: Sendable {
    associatedtype Parameters: Codable & Sendable
    associatedtype Reply: Codable & Sendable
    /// `io.remindd.Reminders`.
    static var interface: String { get }
    /// `Add` (by default the type's own name).
    static var name: String { get }
}

extension VarlinkMethod {
    /// The type's own name, as `String(describing:)` gives it, without asking the run time first whether the type
    /// describes itself (a scan of every protocol conformance in the binary: 1% of the daemon's start, which
    /// names every method, and a part of every `remindctl` call's).
    public static var name: String { _typeName(self, qualified: false) }
    /// `io.remindd.Reminders.Add`.
    public static var qualifiedName: String { interface + "." + name }
}

/// The parameters, or the reply, of a method that has none: `{}` (`-> ()` in the IDL).
public struct NoFields: Codable, Sendable, Hashable {
    public init() {}
}

/// A Varlink client: a connection to a server (``VarlinkConnection``), or a stand-in for one in tests.
public protocol VarlinkClient {
    /// Calls a method and returns its single reply's parameters.
    func call(_ method: String, _ parameters: JSONValue, timeout: Int) throws -> JSONValue
    /// Calls a method with `more: true` and hands each reply's parameters to `body` until the last one, or
    /// until `body` returns false.
    func stream(_ method: String, _ parameters: JSONValue, body: (JSONValue) throws -> Bool) throws
    /// Calls a method with `oneway: true`.
    func callOneway(_ method: String, _ parameters: JSONValue) throws
}

extension VarlinkConnection: VarlinkClient {}

extension VarlinkClient {
    /// Calls `method` and decodes its single reply.
    /// - Throws: ``VarlinkError`` for an error reply, ``ConnectionError`` for transport failures.
    public func call<Method: VarlinkMethod>(_ method: Method.Type, _ parameters: Method.Parameters, timeout: Int = 30) throws -> Method.Reply {
        try call(method.qualifiedName, JSONValue(encoding: parameters), timeout: timeout).decode(Method.Reply.self)
    }

    /// Calls `method` with `more: true` and hands each reply to `body` until the last one, or until `body`
    /// returns false.
    public func stream<Method: VarlinkMethod>(_ method: Method.Type, _ parameters: Method.Parameters, body: (Method.Reply) throws -> Bool) throws {
        try stream(method.qualifiedName, JSONValue(encoding: parameters)) { try body(try $0.decode(Method.Reply.self)) }
    }
}

extension VarlinkClient {
    /// Calls `method` with `oneway: true`: no reply comes.
    public func oneway<Method: VarlinkMethod>(_ method: Method.Type, _ parameters: Method.Parameters) throws {
        try callOneway(method.qualifiedName, JSONValue(encoding: parameters))
    }

    /// Calls a method without parameters.
    public func call<Method: VarlinkMethod>(_ method: Method.Type, timeout: Int = 30) throws -> Method.Reply where Method.Parameters == NoFields {
        try call(method, NoFields(), timeout: timeout)
    }
}

/// The parameters of a Varlink error, as a type: its name (by default the type's own) and its fields.
public protocol VarlinkErrorParameters: Codable, Sendable {
    static var errorName: String { get }
}

extension VarlinkErrorParameters {
    /// (The type's own name, as ``VarlinkMethod/name`` finds it.)
    public static var errorName: String { _typeName(self, qualified: false) }

    /// This error as raised by a method of `interface`.
    public func error(in interface: String) -> VarlinkError {
        let fields: [String: JSONValue]
        // An error's fields are strings and numbers, which always encode; the name alone is still the error.
        if case .object(let object)? = try? JSONValue(encoding: self) { fields = object } else { fields = [:] }
        return VarlinkError(name: interface + "." + Self.errorName, parameters: fields)
    }
}
