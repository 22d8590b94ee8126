import ReminderInterface
import VarlinkProtocol

/// The daemon's Varlink methods: each feature registers a handler per method of the ``Catalogue`` (its
/// routes), and the server hands every call of remindd's interfaces to ``handle(_:reply:)``. Tests call the
/// same table without a socket.
public struct MethodRouter: VarlinkHandler {
    /// Sends one reply of a call.
    public typealias Reply = @Sendable (VarlinkReply) async throws -> Void
    typealias Handler = @Sendable (VarlinkCall, Reply) async throws -> Void

    private var handlers: [String: Handler] = [:]
    /// Told of every call that failed because the store could not be used (the daemon says so in the journal:
    /// the caller alone seeing it is not enough).
    var storeFailed: @Sendable (String) -> Void = { _ in }
    /// Runs after a one-reply method's work and before its reply, whether it worked or not: the change feed's
    /// delivery, so that every call replies after what it wrote was handed to the features. Set before the
    /// methods are registered.
    var beforeReply: @Sendable () async -> Void = {}

    init() {}

    /// The methods registered, by qualified name (`io.remindd.Reminders.Add`).
    public var methods: Set<String> { Set(handlers.keys) }

    /// Registers a method that sends one reply. `readsOnly`: it writes nothing, and replies without waiting for
    /// the change feed (a `Status` polled while another device's 30,000 logs were applied waited 45 s for the
    /// deliveries of their batches).
    mutating func on<Method: VarlinkMethod>(
        _ method: Method.Type, readsOnly: Bool = false, _ body: @escaping @Sendable (Method.Parameters) async throws -> Method.Reply
    ) {
        let beforeReply: @Sendable () async -> Void = readsOnly ? { @Sendable in } : beforeReply
        stream(method) { call, parameters, reply in
            let value: Method.Reply
            do { value = try await body(parameters) } catch {
                await beforeReply()  // a call that failed may have written part of its work (a relink)
                throw error
            }
            await beforeReply()
            try await reply(value, nil)
        }
    }

    /// Registers a method that answers by itself: any number of replies with `continues: true` (a `more`
    /// call), then a last one.
    mutating func stream<Method: VarlinkMethod>(
        _ method: Method.Type,
        _ body: @escaping @Sendable (VarlinkCall, Method.Parameters, _ reply: (Method.Reply, _ continues: Bool?) async throws -> Void) async throws -> Void
    ) {
        let name = method.qualifiedName
        precondition(handlers[name] == nil, "\(name) is registered twice")
        handlers[name] = { call, reply in
            try await body(call, try call.decodeParameters(Method.Parameters.self)) { value, continues in
                if let value = value as? any JSONPreEncoded {
                    try await reply(VarlinkReply(preEncoded: value, continues: continues))
                } else {
                    try await reply(VarlinkReply(parameters: try JSONValue(encoding: value), continues: continues))
                }
            }
        }
    }

    public func handle(_ call: VarlinkCall, reply: @Sendable (VarlinkReply) async throws -> Void) async throws {
        guard let handler = handlers[call.method] else { throw VarlinkError.methodNotFound(call.method) }
        do {
            try await withoutActuallyEscaping(reply) { reply in try await handler(call, reply) }
        } catch let error as ServiceError {
            if case .store(let message) = error { storeFailed("\(call.member): \(message)") }
            throw error.varlinkError(calledIn: call.interface)
        }
    }
}
