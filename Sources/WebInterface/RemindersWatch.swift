import Glibc
import NIOCore
import NIOPosix
import ReminderInterface
import VarlinkProtocol

/// remindd's Watch stream over SwiftNIO (the blocking client would hold a thread per open page and could not be
/// cancelled): each entry's kind (`fired`, `taken`, `missed`...) is handed on as it comes, until the task is
/// cancelled (the page closed) or remindd ends the stream (it stopped). `subscribed` runs once the call is sent:
/// a change between the page's rendering and then is in no entry, so the page is fetched again at that point.
struct RemindersWatch: Sendable {
    let socketPath: String

    struct NotOurs: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is served by another user's process: not talking to it" }
    }

    func entries(subscribed: @Sendable () async throws -> Void, _ body: @Sendable (String) async throws -> Void) async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(unixDomainSocketPath: socketPath) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        // Only remindd of this user is told anything or believed, as remindctl's client checks (SO_PEERCRED).
        var peer: PeerCredentials?
        if let options = channel.channel as? any SocketOptionProvider {
            let credentials: EventLoopFuture<PeerCredentials> = options.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
            peer = try await credentials.get()
        }
        guard let peer, peer.uid == getuid() else {
            try await channel.channel.close()
            throw NotOurs(path: socketPath)
        }
        try await channel.executeThenClose { inbound, outbound in
            var call = VarlinkWire.encode(VarlinkCall(method: Reminders.Watch.qualifiedName, more: true))
            call.append(0)
            try await outbound.write(ByteBuffer(bytes: call))
            try await subscribed()
            var pending: [UInt8] = []
            for try await var chunk in inbound {
                pending += chunk.readBytes(length: chunk.readableBytes) ?? []
                guard pending.count <= VarlinkWire.maximumMessageSize else { throw VarlinkConnection.ConnectionError.malformedReply }
                while let end = pending.firstIndex(of: 0) {
                    let reply = try VarlinkWire.reply(from: pending[..<end])
                    pending.removeFirst(end + 1)
                    if let error = reply.error { throw VarlinkError(name: error) }
                    try await body(try (reply.parameters ?? .object([:])).decode(Reminders.Watch.Reply.self).entry.kind)
                }
            }
        }
    }
}
