import VarlinkProtocol
import VarlinkServer

/// The daemon's Varlink methods by name: each feature registers its handlers (its routes), and the server
/// hands every call of `io.remindd.Reminders` to ``handle(_:reply:)``. Tests call the same table without a socket.
public struct MethodRouter: VarlinkHandler {
    /// Sends one reply of a call.
    public typealias Reply = @Sendable (VarlinkReply) async throws -> Void
    typealias Handler = @Sendable (VarlinkCall, Reply) async throws -> Void

    private var handlers: [String: Handler] = [:]
    /// Told of every call that failed because the store could not be used (the daemon says so in the journal:
    /// the caller alone seeing it is not enough).
    var storeFailed: @Sendable (String) -> Void = { _ in }

    init() {}

    /// Registers a method that takes parameters and sends one reply.
    mutating func method<Parameters: Decodable, Result: Encodable>(
        _ name: String, _ parameters: Parameters.Type, _ body: @escaping @Sendable (Parameters) async throws -> Result
    ) {
        register(name) { call, reply in
            let result = try await body(try call.decodeParameters(Parameters.self))
            try await reply(VarlinkReply(parameters: try JSONValue(encoding: result)))
        }
    }

    /// Registers a method without parameters that sends one reply.
    mutating func method<Result: Encodable>(_ name: String, _ body: @escaping @Sendable () async throws -> Result) {
        register(name) { _, reply in
            try await reply(VarlinkReply(parameters: try JSONValue(encoding: try await body())))
        }
    }

    /// Registers a method that answers by itself (a `more` stream).
    mutating func register(_ name: String, _ handler: @escaping Handler) {
        precondition(handlers[name] == nil, "\(name) is registered twice")
        handlers[name] = handler
    }

    public func handle(_ call: VarlinkCall, reply: @Sendable (VarlinkReply) async throws -> Void) async throws {
        guard let handler = handlers[call.member] else { throw VarlinkError.methodNotFound(call.method) }
        do {
            try await withoutActuallyEscaping(reply) { reply in try await handler(call, reply) }
        } catch let error as ServiceError {
            if case .store(let message) = error { storeFailed("\(call.member): \(message)") }
            throw error.varlinkError
        }
    }
}

/// The reply of a method that returns nothing: `{}`.
struct EmptyReply: Encodable {}
