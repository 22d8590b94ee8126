import NIOCore
import NIOHTTP1
import NIOPosix

/// remindd-web's HTTP/1.1 listener on 127.0.0.1 and ::1 (no other address), or on the sockets systemd passed it,
/// each connection's requests handed to ``WebApp`` one at a time. A body larger than 1 MiB is refused.
public struct WebServer: Sendable {
    /// Where it listens.
    public enum Listening: Sendable {
        /// 127.0.0.1 and ::1 on the port (::1 left out on a machine without IPv6).
        case port(Int)
        /// The sockets of a socket unit (`LISTEN_FDS`).
        case descriptors([Int32])
    }

    let app: WebApp
    let listening: Listening
    /// Stops after this long with no request and no page open (socket-activated: the next request starts it).
    let idleExit: Duration?
    static let maximumBody = 1 << 20

    public init(app: WebApp, listening: Listening, idleExit: Duration? = nil) {
        (self.app, self.listening, self.idleExit) = (app, listening, idleExit)
    }

    private typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    /// Listens until cancelled, or until idle for ``idleExit``. `onListening` is told where it listens.
    /// - Throws: when 127.0.0.1:port cannot be bound (the port is taken).
    public func run(onListening: @Sendable ([String]) -> Void) async throws {
        var listeners: [(String, NIOAsyncChannel<Connection, Never>)] = []
        switch listening {
        case .port(let port):
            for host in ["127.0.0.1", "::1"] {
                do {
                    listeners.append((host == "::1" ? "http://[::1]:\(port)/" : "http://\(host):\(port)/", try await bind(host: host, port: port)))
                } catch where host == "::1" {
                    standardError("remindd-web: not listening on [::1]:\(port): \(error)\n")
                }
            }
        case .descriptors(let descriptors):
            for descriptor in descriptors { listeners.append(("socket \(descriptor)", try await bind(descriptor: descriptor))) }
        }
        onListening(listeners.map(\.0))
        try await withThrowingDiscardingTaskGroup { group in
            for (_, listener) in listeners {
                group.addTask {
                    try await withThrowingDiscardingTaskGroup { connections in
                        try await listener.executeThenClose { inbound in
                            for try await connection in inbound {
                                connections.addTask { await serve(connection) }
                            }
                        }
                    }
                }
            }
            if let idleExit {
                group.addTask {
                    await app.waitUntilIdle(for: idleExit)
                    throw IdleExit()
                }
            }
        }
    }

    /// Ends ``run(onListening:)`` when idle (caught there: it is how it stops).
    public struct IdleExit: Error {}

    private func bind(host: String, port: Int) async throws -> NIOAsyncChannel<Connection, Never> {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port, childChannelInitializer: Self.httpConnection)
    }

    private func bind(descriptor: Int32) async throws -> NIOAsyncChannel<Connection, Never> {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(descriptor, childChannelInitializer: Self.httpConnection)
    }

    @Sendable private static func httpConnection(_ channel: any Channel) -> EventLoopFuture<Connection> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline()
            return try Connection(wrappingChannelSynchronously: channel)
        }
    }

    private func serve(_ connection: Connection) async {
        // A client that goes away mid-answer ends its connection: there is nobody to tell.
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body: [UInt8] = []
            for try await part in inbound {
                switch part {
                case .head(let started):
                    (head, body) = (started, [])
                case .body(var buffer):
                    guard body.count + buffer.readableBytes <= Self.maximumBody else {
                        return try await write(.refused(413, "the request is larger than 1 MiB"), version: head?.version ?? .http1_1, to: outbound)
                    }
                    body += buffer.readBytes(length: buffer.readableBytes) ?? []
                case .end:
                    guard let request = head else { continue }
                    let response = await app.respond(Self.request(request, body: body))
                    if response.stream != nil {
                        // Runs until the page goes (its connection closes) or the stream ends, whichever is first.
                        // The close is awaited through a stream, which a cancelled task stops reading: awaiting the
                        // close future itself held the connection open after the stream had ended or failed (remindd
                        // gone), and the page, never told, waited for events forever.
                        let (closing, closed) = AsyncStream.makeStream(of: Never.self)
                        connection.channel.closeFuture.whenComplete { _ in closed.finish() }
                        return try await withThrowingTaskGroup(of: Void.self) { streaming in
                            streaming.addTask { try await write(response, version: request.version, to: outbound) }
                            streaming.addTask { for await _ in closing {} }
                            defer { streaming.cancelAll() }
                            try await streaming.next()
                        }
                    }
                    try await write(response, version: request.version, to: outbound)
                    if !request.isKeepAlive { return }
                    head = nil
                }
            }
        }
    }

    /// The request as the pages see it; a header given twice (two `Host`s) counts as not given.
    static func request(_ head: HTTPRequestHead, body: [UInt8]) -> WebRequest {
        var headers: [String: String] = [:]
        var repeated: Set<String> = []
        for (name, value) in head.headers {
            let key = name.lowercased()
            if headers[key] != nil { repeated.insert(key) }
            headers[key] = value
        }
        for key in repeated where key != "cookie" && key != "accept" { headers[key] = nil }
        return WebRequest(method: head.method.rawValue, target: head.uri, headers: headers, body: body)
    }

    private func write(_ response: WebResponse, version: HTTPVersion, to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws {
        var head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: response.status))
        for (name, value) in response.headers { head.headers.add(name: name, value: value) }
        if let stream = response.stream {
            // No length: HTTP/1.1's chunks carry it, for as long as the stream runs.
            try await outbound.write(.head(head))
            try await stream { text in try await outbound.write(.body(.byteBuffer(ByteBuffer(string: text)))) }
            return try await outbound.write(.end(nil))
        }
        head.headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        try await outbound.write(.head(head))
        try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
        try await outbound.write(.end(nil))
    }
}
