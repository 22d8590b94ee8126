import Glibc
import NIOCore
import NIOPosix
import Synchronization
import VarlinkProtocol

/// What `org.varlink.service.GetInfo` reports.
public struct VarlinkServiceInfo: Sendable {
    public var vendor: String
    public var product: String
    public var version: String
    public var url: String

    public init(vendor: String, product: String, version: String, url: String) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
    }
}

/// What keeps one client, or many, from exhausting the server: file descriptors, memory, or its attention.
public struct VarlinkServerLimits: Sendable {
    /// Connections served at once; one more is answered with a `ProtocolError` and closed (so the daemon never
    /// runs into its open-file limit).
    public var maximumConnections: Int
    /// Bytes of input buffered over all connections: each connection may hold an unfinished message of its
    /// share of this, at least 64 KiB and at most ``VarlinkWire/maximumMessageSize``.
    public var inputBudget: Int
    /// A connection with no call in progress that sends nothing for this long is closed.
    public var idleTimeout: TimeAmount
    /// Places of ``maximumConnections`` that streams (`more` calls: Watch) never take, so that calls that do not
    /// stream (`remindctl status`) always get in, whatever number of streams clients hold open; also let in
    /// beyond it when every connection is busy.
    public var reservedForCalls: Int

    public init(maximumConnections: Int = 256, inputBudget: Int = 32 << 20, idleTimeout: TimeAmount = .minutes(5), reservedForCalls: Int = 8) {
        self.maximumConnections = maximumConnections
        self.inputBudget = inputBudget
        self.idleTimeout = idleTimeout
        self.reservedForCalls = reservedForCalls
    }
}

/// A Varlink server on a Unix stream socket, built on SwiftNIO.
///
/// Implements `org.varlink.service` itself (GetInfo, GetInterfaceDescription) from the IDL texts it is
/// given; frames messages by their terminating NUL; refuses peers whose uid (SO_PEERCRED) is not the
/// server's; answers malformed JSON, unknown interfaces and methods with the matching Varlink errors, and a
/// message over the size limit with an error and a disconnect. One child task per connection, in a
/// discarding task group: cancelling ``run(onBound:)`` closes everything. A `more` call ends (its task is
/// cancelled) as soon as its client disconnects. ``VarlinkServerLimits`` bounds connections, input and idleness.
public struct VarlinkServer: Sendable {
    /// Where to listen.
    public enum Endpoint: Sendable {
        /// Bind a new socket at this path (mode 0600; a stale socket file is replaced).
        case path(String)
        /// Use a listening socket passed by systemd socket activation.
        case descriptor(Int32)
    }

    public let endpoint: Endpoint
    public let info: VarlinkServiceInfo
    /// IDL text of each served interface, by interface name.
    public let interfaces: [String: String]
    /// The interface whose `ProtocolError` reports a message that is not a call, or one refused for lack of
    /// resources (default: the first served interface by name).
    public let protocolErrorInterface: String
    public let handler: any VarlinkHandler
    public let limits: VarlinkServerLimits
    let group: any EventLoopGroup
    /// Told how many waiting connections were refused at once because the process ran out of file descriptors.
    let onRefusedForDescriptors: @Sendable (Int) -> Void
    /// Connections open now, shared with every connection's frame decoder (its input share).
    private let connections = ConnectionRegistry()

    public init(
        endpoint: Endpoint, info: VarlinkServiceInfo, interfaces: [String: String], protocolErrorInterface: String? = nil, handler: any VarlinkHandler,
        limits: VarlinkServerLimits = VarlinkServerLimits(), group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        onRefusedForDescriptors: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.onRefusedForDescriptors = onRefusedForDescriptors
        self.endpoint = endpoint
        self.info = info
        self.interfaces = interfaces
        self.protocolErrorInterface = protocolErrorInterface ?? interfaces.keys.sorted().first ?? "org.varlink.service"
        self.handler = handler
        self.limits = limits
        self.group = group
    }

    /// An accepted connection, not yet read from: it is wrapped in a `NIOAsyncChannel` only when served (see
    /// ``serve(_:)``), because NIO traps on a wrapped channel that is dropped unserved, and a stop drops what the
    /// accept loop had not taken yet.
    private typealias Connection = (channel: any Channel, peerUID: uid_t?, activity: ConnectionActivity)

    /// Listens and serves until the task is cancelled.
    /// - Parameter onBound: called once the socket accepts connections.
    public func run(onBound: @Sendable () async -> Void = {}) async throws {
        let bootstrap = ServerBootstrap(group: group)
        let initializer: @Sendable (any Channel) -> EventLoopFuture<Connection> = { channel in
            let credentials: EventLoopFuture<PeerCredentials?> =
                (channel as? any SocketOptionProvider)?.unsafeGetSocketOption(
                    level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
                ).map { Optional($0) } ?? channel.eventLoop.makeSucceededFuture(nil)
            return credentials.flatMapThrowing { [connections, limits] peer in
                let activity = ConnectionActivity()
                let decoder = VarlinkFrameDecoder(activity: activity, limit: {
                    min(VarlinkWire.maximumMessageSize, max(64 << 10, limits.inputBudget / max(1, connections.value)))
                })
                try channel.pipeline.syncOperations.addHandlers([
                    IdleStateHandler(readTimeout: limits.idleTimeout), IdleConnectionCloser(activity: activity), ByteToMessageHandler(decoder),
                ])
                // Nothing is read until the connection is served (and wrapped): no message can be lost meanwhile.
                try channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
                return (channel, peer?.uid, activity)
            }
        }
        let listening: Int32
        switch endpoint {
        case .path(let path): listening = try Self.listen(at: path)
        case .descriptor(let descriptor): listening = descriptor
        }
        var refusal = VarlinkWire.encode(Self.errorReply(protocolError("out of file descriptors: try again later")))
        refusal.append(0)
        let server = try await bootstrap
            // A small kernel buffer per connection: a client that does not read (a Watch left open) takes a
            // few dozen replies before its writes wait, not hundreds, each encoded for nothing while other
            // connections' calls wait behind them. A large reply is written in more pieces, as fast.
            .childChannelOption(.socketOption(.so_sndbuf), value: 16 << 10)
            .serverChannelInitializer { [refusal, onRefusedForDescriptors] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        DescriptorShortageShedder(listening: listening, refusal: refusal, onRefused: onRefusedForDescriptors))
                }
            }
            .bind(listening, childChannelInitializer: initializer)
        await onBound()
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { inbound in
                for try await connection in inbound {
                    group.addTask {
                        await serve(connection)
                    }
                }
            }
        }
    }

    /// A listening socket at `path` (mode 0600, queue of 128), replacing a file left there.
    private static func listen(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw IOError(errnoCode: errno, reason: "socket") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw IOError(errnoCode: ENAMETOOLONG, reason: "socket path \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(descriptor, 128) == 0 else {
            let code = errno
            close(descriptor)
            throw IOError(errnoCode: code, reason: "listen on \(path)")
        }
        return descriptor
    }

    private func serve(_ connection: Connection) async {
        let channel = connection.channel
        let (id, open) = connections.add(channel, connection.activity)
        defer { connections.remove(id) }
        // A full table makes room by closing its longest-idle connection (one with no call in progress), so that
        // idle clients held open by any process cannot lock remindctl out. Streams never take the places reserved
        // for calls (``startStream``), so a table full of streams always has an idle connection to close or a
        // reserved place; beyond that the new one is let in on a reserved place all the same.
        let admitted = open <= limits.maximumConnections || connections.closeLongestIdle(sparing: id)
            || open <= limits.maximumConnections + limits.reservedForCalls
        let closed = channel.closeFuture
        let wrapped: NIOAsyncChannel<VarlinkFrame, ByteBuffer>
        do {
            wrapped = try await channel.eventLoop.submit {
                let wrapped = try NIOAsyncChannel<VarlinkFrame, ByteBuffer>(wrappingChannelSynchronously: channel)
                try channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
                return wrapped
            }.get()
        } catch {
            // The connection closed before it was served: there is nobody to answer.
            channel.close(promise: nil)
            return
        }
        // Errors end the connection (a client that went away, a write that failed): there is nobody to tell.
        try? await wrapped.executeThenClose { inbound, outbound in
            let writer = ReplyWriter(outbound: outbound)
            guard connection.peerUID == getuid() else {
                try await writer.send(VarlinkReply(parameters: .object([:]), error: VarlinkError.permissionDenied().name))
                return
            }
            guard admitted else {
                try await writer.send(Self.errorReply(protocolError("too many connections (\(limits.maximumConnections)): try again later")))
                return
            }
            for try await frame in inbound {
                switch frame {
                case .tooLarge(let limit):
                    try await writer.send(Self.errorReply(protocolError("message larger than \(limit) bytes")))
                    return
                case .message(let bytes):
                    // Counted in progress since the decoder read it (a slow consumer is not an idle client).
                    defer { connection.activity.callEnded() }
                    try await dispatch(bytes, writer: writer, closed: closed)
                }
            }
        }
    }

    private func dispatch(_ bytes: ByteBuffer, writer: ReplyWriter, closed: EventLoopFuture<Void>) async throws {
        // Why it does not parse is not the client's business beyond this: the reply says what was expected.
        guard let call = try? VarlinkWire.call(from: bytes.readableBytesView) else {
            try await writer.send(Self.errorReply(protocolError("the message is not a JSON Varlink call object")))
            return
        }
        let reply = VarlinkReplies { messages in
            if call.oneway == true { return }
            try await writer.send(messages)
        }
        do {
            if call.interface == "org.varlink.service" {
                try await reply(try serviceReply(call))
            } else if interfaces[call.interface] == nil {
                throw VarlinkError.interfaceNotFound(call.interface)
            } else if call.more == true {
                let places = limits.maximumConnections - limits.reservedForCalls
                guard connections.startStream(limit: places) else {
                    throw protocolError("too many streams (\(places)): a stream waits for a free place, other calls get in")
                }
                defer { connections.endStream() }
                try await Self.untilClosed(closed) { try await handler.handle(call, reply: reply) }
            } else {
                try await handler.handle(call, reply: reply)
            }
        } catch let error as VarlinkError {
            try await reply(Self.errorReply(error))
        }
    }

    /// Runs `body` until it ends or the connection closes, whichever is first: a `more` call whose client went
    /// away (a Watch waiting for the next firing) is cancelled at once, not at its next reply.
    private static func untilClosed(_ closed: EventLoopFuture<Void>, _ body: @escaping @Sendable () async throws -> Void) async throws {
        let (signal, ended) = AsyncStream.makeStream(of: Never.self)
        closed.whenComplete { _ in ended.finish() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body() }
            group.addTask { for await _ in signal {} }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    private func serviceReply(_ call: VarlinkCall) throws -> VarlinkReply {
        switch call.member {
        case "GetInfo":
            let names = (["org.varlink.service"] + interfaces.keys.sorted()).map(JSONValue.string)
            return VarlinkReply(parameters: .object([
                "vendor": .string(info.vendor), "product": .string(info.product), "version": .string(info.version),
                "url": .string(info.url), "interfaces": .array(names),
            ]))
        case "GetInterfaceDescription":
            struct Parameters: Decodable { let interface: String }
            let name = try call.decodeParameters(Parameters.self).interface
            guard let description = name == "org.varlink.service" ? Self.serviceInterface : interfaces[name] else {
                throw VarlinkError.interfaceNotFound(name)
            }
            return VarlinkReply(parameters: .object(["description": .string(description)]))
        default:
            throw VarlinkError.methodNotFound(call.method)
        }
    }

    /// The error for protocol violations.
    private func protocolError(_ reason: String) -> VarlinkError {
        VarlinkError(name: "\(protocolErrorInterface).ProtocolError", parameters: ["reason": .string(reason)])
    }

    private static func errorReply(_ error: VarlinkError) -> VarlinkReply {
        VarlinkReply(parameters: error.parameters, error: error.name)
    }

    /// The IDL of `org.varlink.service`, as the specification gives it.
    static let serviceInterface = """
        # The Varlink Service Interface is provided by every varlink service. It
        # describes the service and the interfaces it implements.
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information
        # about the implementation.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not
        # implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # Client is denied access
        error PermissionDenied ()

        # Method is expected to be called with 'more' set to true, but wasn't
        error ExpectedMore ()

        """
}
