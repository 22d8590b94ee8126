#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import FoundationEssentials
#endif
import Glibc

/// A blocking Varlink client over a Unix socket, for command-line tools: one call at a time.
public final class VarlinkConnection {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// How much of `buffer` is known to hold no NUL: each read is searched once (a 57 MB reply scanned from
    /// the start at every 64 KiB read took minutes).
    private var scanned = 0

    /// Why a connection or a call failed below the Varlink level.
    public enum ConnectionError: Error, CustomStringConvertible {
        /// Nothing listens at the path (`ENOENT`, `ECONNREFUSED`).
        case notRunning(path: String)
        /// The listener's queue stayed full for the whole connect timeout (a daemon at its open-file limit).
        case notAccepting(path: String, seconds: Int)
        /// No reply within the timeout (a socket-activated service that fails to start, say).
        case timedOut(seconds: Int)
        case system(String)
        case malformedReply
        /// The socket is served by another user's process (a socket swapped into a shared directory).
        case foreignPeer(path: String, uid: UInt32)

        public var description: String {
            switch self {
            case .notRunning(let path): return "nothing listens on \(path)"
            case .notAccepting(let path, let seconds): return "\(path) did not accept the connection within \(seconds) s"
            case .timedOut(let seconds): return "no reply within \(seconds) s"
            case .system(let text): return text
            case .malformedReply: return "the daemon sent a reply that is not Varlink JSON"
            case .foreignPeer(let path, let uid):
                return "\(path) is served by another user's process (uid \(uid)), not by your remindd: not talking to it; remove that socket's directory, or set XDG_RUNTIME_DIR (a systemd session sets it)"
            }
        }
    }

    /// Connects to the socket at `path`, waiting at most `timeoutSeconds` for a daemon whose queue is full, and
    /// only to a process of the same user (`SO_PEERCRED`).
    public init(path: String, timeoutSeconds: Int = 10) throws(ConnectionError) {
        // Every path below that throws leaves the socket to deinit, which runs for a class whose stored
        // properties were all set: closing it here too closed it twice (another thread's file, by then).
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .system("socket: \(String(cString: strerror(errno)))") }
        // A Unix-socket connect waits for room in the listener's queue up to the send timeout.
        var limit = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw .system("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result != 0 {
            let code = errno
            if code == ENOENT || code == ECONNREFUSED { throw .notRunning(path: path) }
            if code == EAGAIN || code == EWOULDBLOCK { throw .notAccepting(path: path, seconds: timeoutSeconds) }
            throw .system("connect \(path): \(String(cString: strerror(code)))")
        }
        var peer = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &peer, &length) == 0 else {
            let code = errno
            throw .system("SO_PEERCRED \(path): \(String(cString: strerror(code)))")
        }
        if peer.uid != getuid() {
            throw .foreignPeer(path: path, uid: peer.uid)
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Calls a method and returns its single reply's parameters.
    /// - Parameter timeout: seconds to wait for the reply.
    /// - Throws: ``VarlinkError`` for an error reply, ``ConnectionError`` for transport failures.
    public func call(_ method: String, _ parameters: JSONValue = .object([:]), timeout: Int = 30) throws -> JSONValue {
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        defer {
            var none = timeval()
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &none, socklen_t(MemoryLayout<timeval>.size))
        }
        try sendOrReadRefusal(VarlinkCall(method: method, parameters: parameters))
        let reply = try receive()
        if let error = reply.error { throw VarlinkError(name: error, parameters: Self.object(reply.parameters)) }
        return reply.parameters ?? .object([:])
    }

    /// Calls a method with `oneway: true`: the server sends no reply.
    public func callOneway(_ method: String, _ parameters: JSONValue = .object([:])) throws {
        try sendOrReadRefusal(VarlinkCall(method: method, parameters: parameters, oneway: true))
    }

    /// Calls a method with `more: true` and hands each reply's parameters to `body` until the last one,
    /// or until `body` returns false.
    public func stream(_ method: String, _ parameters: JSONValue = .object([:]), body: (JSONValue) throws -> Bool) throws {
        try sendOrReadRefusal(VarlinkCall(method: method, parameters: parameters, more: true))
        while true {
            let reply = try receive()
            if let error = reply.error { throw VarlinkError(name: error, parameters: Self.object(reply.parameters)) }
            guard try body(reply.parameters ?? .object([:])), reply.continues == true else { return }
        }
    }

    private static func object(_ value: JSONValue?) -> [String: JSONValue] {
        if case .object(let object) = value { return object }
        return [:]
    }

    /// Sends `call`; when the server already closed the connection, the error it answered with before closing
    /// (too many connections, out of file descriptors) is the reason given, not the broken pipe.
    private func sendOrReadRefusal(_ call: VarlinkCall) throws {
        do {
            try send(call)
        } catch {
            if let reply = try? receive(), let name = reply.error {
                throw VarlinkError(name: name, parameters: Self.object(reply.parameters))
            }
            throw error
        }
    }

    private func send(_ call: VarlinkCall) throws(ConnectionError) {
        var bytes = VarlinkWire.encode(call)
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system("send: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    private func receive() throws(ConnectionError) -> VarlinkReply {
        while true {
            if let end = buffer[scanned...].firstIndex(of: 0) {
                let message = buffer[..<end]
                defer {
                    buffer.removeSubrange(...end)
                    scanned = 0
                }
                guard let reply = try? VarlinkWire.reply(from: message) else { throw .malformedReply }
                return reply
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                var limit = timeval()
                var length = socklen_t(MemoryLayout<timeval>.size)
                getsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, &length)
                throw .timedOut(seconds: limit.tv_sec)
            }
            guard n > 0 else { throw .system("the daemon closed the connection") }
            scanned = buffer.count
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
