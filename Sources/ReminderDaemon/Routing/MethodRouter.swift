import ReminderInterface
import VarlinkProtocol

/// The daemon's Varlink methods: each feature registers a handler per method of the ``Catalogue`` (its
/// routes), and the server hands every call of remindd's interfaces to ``handle(_:reply:)``. Tests call the
/// same table without a socket.
public struct MethodRouter: VarlinkHandler {
    typealias Handler = @Sendable (VarlinkCall, VarlinkReplies) async throws -> Void

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
    /// deliveries of their batches). `largeReply`: its reply is written off the event loops (106,504 imported
    /// reminders took 0.6 s to write, and a Watch client served by that loop waited as long for a firing).
    mutating func on<Method: VarlinkMethod>(
        _ method: Method.Type, readsOnly: Bool = false, largeReply: Bool = false,
        _ body: @escaping @Sendable (Method.Parameters) async throws -> Method.Reply
    ) {
        let beforeReply: @Sendable () async -> Void = readsOnly ? { @Sendable in } : beforeReply
        stream(method) { call, parameters, reply in
            let value: Method.Reply
            do { value = try await body(parameters) } catch {
                await beforeReply()  // a call that failed may have written part of its work (a relink)
                throw error
            }
            await beforeReply()
            try await largeReply ? reply.last(writtenOffTheEventLoops: value) : reply(value, nil)
        }
    }

    /// Registers a method that answers by itself: any number of replies with `continues: true` (a `more`
    /// call), then a last one.
    mutating func stream<Method: VarlinkMethod>(
        _ method: Method.Type,
        _ body: @escaping @Sendable (VarlinkCall, Method.Parameters, _ reply: MethodReplies<Method>) async throws -> Void
    ) {
        let name = method.qualifiedName
        precondition(handlers[name] == nil, "\(name) is registered twice")
        handlers[name] = { call, replies in
            try await body(call, try call.decodeParameters(Method.Parameters.self), MethodReplies(replies: replies))
        }
    }

    public func handle(_ call: VarlinkCall, reply: VarlinkReplies) async throws {
        guard let handler = handlers[call.method] else { throw VarlinkError.methodNotFound(call.method) }
        do {
            try await handler(call, reply)
        } catch let error as ServiceError {
            if case .store(let message) = error { storeFailed("\(call.member): \(message)") }
            throw error.varlinkError(calledIn: call.interface)
        }
    }

    /// Handles one call whose replies `reply` is given one by one, with their parameters as values (as tests
    /// read them).
    public func handle(_ call: VarlinkCall, reply: @Sendable (VarlinkReply) async throws -> Void) async throws {
        try await withoutActuallyEscaping(reply) { reply in
            try await handle(call, reply: VarlinkReplies { messages in
                for message in messages { try await reply(try message.readingParameters()) }
            })
        }
    }
}

/// A method's replies as its values: each written straight to JSON text (``JSONBytesEncoder``; or its JSON
/// written once, ``JSONPreEncoded``) and sent.
struct MethodReplies<Method: VarlinkMethod>: Sendable {
    let replies: VarlinkReplies

    /// Sends one reply; `continues: true` for all but the last of a `more` call.
    func callAsFunction(_ value: Method.Reply, _ continues: Bool?) async throws {
        try await replies(try Self.message(value, continues: continues))
    }

    /// Sends several replies of a `more` call that continues after them, in one write.
    func callAsFunction(continuing values: [Method.Reply]) async throws {
        try await replies(contentsOf: try values.map { try Self.message($0, continues: true) })
    }

    /// Sends the last reply, its JSON written on the thread pool.
    func last(writtenOffTheEventLoops value: Method.Reply) async throws {
        try await replies(try await offTheEventLoops { () throws(any Error) in try Self.message(value, continues: nil) })
    }

    private static func message(_ value: Method.Reply, continues: Bool?) throws -> VarlinkReply {
        if let value = value as? any JSONPreEncoded { return VarlinkReply(preEncoded: value, continues: continues) }
        return VarlinkReply(encodedParameters: try JSONBytesEncoder.encode(value), continues: continues)
    }
}
