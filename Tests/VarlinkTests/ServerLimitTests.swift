import Foundation
import Glibc
import NIOCore
import Synchronization
import Testing
import VarlinkProtocol

@testable import VarlinkServer

/// The server on a real socket: disconnects end `more` calls, and the connection, input and idle limits hold.
@Suite("Varlink server limits", .serialized)
struct ServerLimitTests {
    /// `test.Wait` (a `more` call that waits until cancelled) and counts of how many started and ended.
    final class WaitingHandler: VarlinkHandler {
        let started = Atomic<Int>(0)
        let ended = Atomic<Int>(0)

        func handle(_ call: VarlinkCall, reply: VarlinkReplies) async throws {
            if call.member == "Count" {  // 1, 2, 3 sent together, then 4 alone
                try await reply(contentsOf: (1...3).map { VarlinkReply(parameters: .object(["n": .number(Double($0))]), continues: true) })
                try await reply(VarlinkReply(parameters: .object(["n": 4])))
                return
            }
            started.add(1, ordering: .relaxed)
            defer { ended.add(1, ordering: .relaxed) }
            let (forever, _) = AsyncStream.makeStream(of: Int.self)
            for await _ in forever {}
        }
    }

    /// Runs a server with `limits` on a fresh socket for the length of `body`.
    private func withServer(
        _ limits: VarlinkServerLimits, _ body: @Sendable (String, WaitingHandler) async throws -> Void
    ) async throws {
        let path = NSTemporaryDirectory() + "varlink-\(UUID().uuidString.prefix(8)).sock"
        let handler = WaitingHandler()
        let server = VarlinkServer(
            endpoint: .path(path), info: VarlinkServiceInfo(vendor: "t", product: "t", version: "1", url: "u"),
            interfaces: ["test": "interface test\nmethod Wait() -> ()\nmethod Count() -> (n: int)\n"], handler: handler, limits: limits)
        try await withThrowingTaskGroup(of: Void.self) { group in
            let (bound, isBound) = AsyncStream.makeStream(of: Void.self)
            group.addTask { try await server.run(onBound: { isBound.finish() }) }
            for await _ in bound {}
            defer { group.cancelAll() }
            try await body(path, handler)
        }
        unlink(path)
    }

    /// Whether `condition` holds within 30 s (a loaded two-core machine took over 10 s to serve 20 clients).
    private func eventually(_ condition: () async -> Bool) async -> Bool {
        for _ in 0..<3000 {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }

    /// Replies sent together (a Watch stream's batch) reach the client as the messages they are, in order.
    @Test func repliesSentTogetherArriveAsSeparateMessagesInOrder() async throws {
        try await withServer(VarlinkServerLimits()) { path, _ in
            let client = try RawClient(path)
            client.send(#"{"method":"test.Count","more":true}"#)
            var received: [String] = []
            for _ in 0..<4 { received.append(await client.receive() ?? "(closed)") }
            #expect(received == [
                #"{"continues":true,"parameters":{"n":1}}"#, #"{"continues":true,"parameters":{"n":2}}"#,
                #"{"continues":true,"parameters":{"n":3}}"#, #"{"parameters":{"n":4}}"#,
            ])
        }
    }

    @Test func aMoreCallEndsAsSoonAsItsClientDisconnects() async throws {
        try await withServer(VarlinkServerLimits()) { path, handler in
            let client = try RawClient(path)
            client.send(#"{"method":"test.Wait","more":true}"#)
            #expect(await eventually { handler.started.load(ordering: .relaxed) == 1 })
            client.close()
            #expect(await eventually { handler.ended.load(ordering: .relaxed) == 1 })
        }
    }

    /// A full table of busy connections (Watch streams), its reserved places taken too, refuses one more, and says why.
    @Test func aConnectionOverACapOfBusyOnesIsToldAndClosed() async throws {
        try await withServer(VarlinkServerLimits(maximumConnections: 2, reservedForCalls: 0)) { path, handler in
            let first = try RawClient(path), second = try RawClient(path)
            for client in [first, second] { client.send(#"{"method":"test.Wait","more":true}"#) }
            #expect(await eventually { handler.started.load(ordering: .relaxed) == 2 })
            let third = try RawClient(path)
            #expect(await third.receive()?.contains("too many connections (2): try again later") == true)
            #expect(await third.receive() == nil)  // closed
            first.close()
            // A place is free again.
            #expect(await eventually {
                guard let again = try? RawClient(path) else { return false }
                again.send(#"{"method":"org.varlink.service.GetInfo"}"#)
                return await again.receive()?.contains("\"vendor\"") == true
            })
        }
    }

    /// 500 Watch clients that never read made `remindctl status` refused ("too many connections"), and 300 still
    /// did after a round that let calls in on reserved places (streams took the places of the idle connections
    /// closed for them): streams never take the places reserved for calls, so with 20 clients asking for streams
    /// on a table of 4 (1 reserved), 3 stream, the rest are refused theirs, and a call always gets in.
    @Test func aCallGetsInPastAnyNumberOfStreamsAndStreamsNeverTakeTheReservedPlaces() async throws {
        try await withServer(VarlinkServerLimits(maximumConnections: 4, reservedForCalls: 1)) { path, handler in
            var watchers: [RawClient] = []
            for _ in 0..<20 {
                guard let watcher = try? RawClient(path) else { continue }
                watcher.send(#"{"method":"test.Wait","more":true}"#)
                watchers.append(watcher)
            }
            func streaming() -> Int { handler.started.load(ordering: .relaxed) - handler.ended.load(ordering: .relaxed) }
            // Every watcher served before the calls below: one the server reaches only later would close the
            // longest-idle connection, the call's, as a full table does (each is refused, closed or streaming).
            var settled = Set<Int>()
            #expect(await eventually {
                for (index, watcher) in watchers.enumerated() where watcher.poll() != .nothing { settled.insert(index) }
                return streaming() == 3 && settled.count + 3 == watchers.count
            })
            for _ in 0..<5 {
                let status = try RawClient(path)
                status.send(#"{"method":"org.varlink.service.GetInfo"}"#)
                #expect(await status.receive()?.contains("\"vendor\"") == true)
                status.send(#"{"method":"test.Wait","more":true}"#)
                #expect(await status.receive()?.contains("too many streams (3)") == true)
            }
            #expect(streaming() == 3)
            _ = watchers
        }
    }

    /// CI saw only 2 of 3 streams at once after 20 watchers: a watcher's connection closed to make room just as
    /// its call was read started a stream that ended with the close, after the others were refused theirs. A
    /// connection claimed for closing now begins no call, and one with a call begun cannot be claimed.
    @Test func aConnectionClaimedForClosingBeginsNoCallAndABusyOneIsNotClaimed() {
        let claimed = ConnectionActivity()
        #expect(claimed.claimForClosing())
        #expect(!claimed.callBegan())
        #expect(!claimed.isIdle)
        let busy = ConnectionActivity()
        #expect(busy.callBegan())
        #expect(!busy.claimForClosing())
        busy.callEnded()
        #expect(busy.isIdle && busy.claimForClosing())
    }

    /// Idle connections held open by any process of the user locked remindctl out for up to 5 minutes: a
    /// full table now closes its longest-idle connection to let the new one in.
    @Test func aFullTableClosesItsLongestIdleConnectionForANewOne() async throws {
        try await withServer(VarlinkServerLimits(maximumConnections: 3, reservedForCalls: 1)) { path, handler in
            let busy = try RawClient(path)
            busy.send(#"{"method":"test.Wait","more":true}"#)
            #expect(await eventually { handler.started.load(ordering: .relaxed) == 1 })
            let older = try RawClient(path), newer = try RawClient(path)
            for client in [older, newer] {
                client.send(#"{"method":"org.varlink.service.GetInfo"}"#)
                #expect(await client.receive()?.contains("\"vendor\"") == true)
            }
            newer.send(#"{"method":"org.varlink.service.GetInfo"}"#)  // newer was active last
            #expect(await newer.receive()?.contains("\"vendor\"") == true)
            let remindctl = try RawClient(path)
            remindctl.send(#"{"method":"org.varlink.service.GetInfo"}"#)
            #expect(await remindctl.receive()?.contains("\"vendor\"") == true)
            #expect(await older.receive() == nil)  // closed to make room
            newer.send(#"{"method":"org.varlink.service.GetInfo"}"#)
            #expect(await newer.receive()?.contains("\"vendor\"") == true)
            #expect(handler.ended.load(ordering: .relaxed) == 0)  // the busy one was spared
        }
    }

    @Test func anIdleConnectionIsClosedAndABusyOneIsNot() async throws {
        try await withServer(VarlinkServerLimits(idleTimeout: .milliseconds(200))) { path, handler in
            let busy = try RawClient(path)
            busy.send(#"{"method":"test.Wait","more":true}"#)
            #expect(await eventually { handler.started.load(ordering: .relaxed) == 1 })
            let idle = try RawClient(path)
            #expect(await idle.receive() == nil)  // closed by the server (not "(nothing)")
            #expect(handler.ended.load(ordering: .relaxed) == 0)
            busy.close()
        }
    }

    @Test func eachConnectionsInputShareShrinksAsConnectionsAreAdded() async throws {
        try await withServer(VarlinkServerLimits(maximumConnections: 1000, inputBudget: 4 << 20)) { path, _ in
            // Alone, a connection may send a 1 MiB message; with 63 others open its share is 64 KiB.
            let others = try (0..<63).map { _ in try RawClient(path) }
            let client = try RawClient(path)
            for other in others {
                other.send(#"{"method":"org.varlink.service.GetInfo"}"#)
                _ = await other.receive()
            }
            client.send(String(repeating: "x", count: 100_000))
            #expect(await client.receive()?.contains("message larger than 65536 bytes") == true)
        }
    }
}

/// A blocking Unix-socket client that sends NUL-terminated messages and reads one reply at a time.
final class RawClient: Sendable {
    private let descriptor: Int32
    private let pending = Mutex<[UInt8]>([])

    init(_ path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }  // deinit closes the socket
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(descriptor) }

    func send(_ message: String) {
        let bytes = Array(message.utf8) + [0]
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What ``receive()`` got.
    enum Received: Equatable {
        case reply(String)
        case closed
        case nothing
    }

    /// The next reply, nil when the server closed the connection, `"(nothing)"` when nothing came within 10 s.
    /// Polls without blocking: a blocked cooperative thread would starve the server's own tasks.
    func receive() async -> String? {
        switch await next() {
        case .reply(let text): return text
        case .closed: return nil
        case .nothing: return "(nothing)"
        }
    }

    private func next() async -> Received {
        for _ in 0..<1000 {
            let received = poll()
            if received != .nothing { return received }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return .nothing
    }

    /// One look without waiting: the next reply, `.closed`, or `.nothing` yet.
    func poll() -> Received {
        pending.withLock { pending -> Received in
            for _ in 0..<2 {
                if let end = pending.firstIndex(of: 0) {
                    defer { pending.removeFirst(end + 1) }
                    return .reply(String(decoding: pending[..<end], as: UTF8.self))
                }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if count == 0 || (count < 0 && errno != EAGAIN) { return .closed }
                guard count > 0 else { return .nothing }
                pending.append(contentsOf: chunk[..<count])
            }
            return .nothing
        }
    }

    /// Shuts the connection down (the server sees the client go).
    func close() { shutdown(descriptor, Int32(SHUT_RDWR)) }
}
