import NIOCore
import NIOHTTP1
import NIOPosix

/// remindd-web's HTTP/1.1 listener on 127.0.0.1 and ::1 (no other address), each connection's requests handed to
/// ``WebApp`` one at a time. A body larger than 1 MiB is refused.
public struct WebServer: Sendable {
    let app: WebApp
    let port: Int
    static let maximumBody = 1 << 20

    public init(app: WebApp, port: Int) { (self.app, self.port) = (app, port) }

    private typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    /// Listens until cancelled. `onListening` is told the addresses it listens on (::1 is left out on a machine
    /// without IPv6). - Throws: when 127.0.0.1:port cannot be bound (the port is taken).
    public func run(onListening: @Sendable ([String]) -> Void) async throws {
        var listeners: [(String, NIOAsyncChannel<Connection, Never>)] = []
        for host in ["127.0.0.1", "::1"] {
            do {
                listeners.append((host, try await bind(host)))
            } catch where host == "::1" {
                standardError("remindd-web: not listening on [::1]:\(port): \(error)\n")
            }
        }
        onListening(listeners.map { $0.0 == "::1" ? "http://[::1]:\(port)/" : "http://\($0.0):\(port)/" })
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
        }
    }

    private func bind(_ host: String) async throws -> NIOAsyncChannel<Connection, Never> {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try Connection(wrappingChannelSynchronously: channel)
                }
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
                        let closed = connection.channel.closeFuture
                        return try await withThrowingTaskGroup(of: Void.self) { streaming in
                            streaming.addTask { try await write(response, version: request.version, to: outbound) }
                            streaming.addTask { try await closed.get() }
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
