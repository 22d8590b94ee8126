import Glibc
import NIOCore
import NIOPosix
import Synchronization
import VarlinkProtocol

// The pieces of a connection the server builds on: its reply writer, the framing of NUL-terminated messages,
// the registry and idle timers of live connections, and the refusal of connections when descriptors run out.

/// Serialises replies onto one connection (a streaming call and its writer share it).
actor ReplyWriter {
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    init(outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.outbound = outbound
    }

    func send(_ reply: VarlinkReply) async throws {
        try await send([reply])
    }

    /// Sends `replies` in one write (one flush, one system call while the socket takes them).
    func send(_ replies: [VarlinkReply]) async throws {
        var buffer = ByteBuffer()
        for reply in replies {
            buffer.writeBytes(VarlinkWire.encode(reply))
            buffer.writeInteger(UInt8(0))
        }
        try await outbound.write(buffer)
    }
}

/// One framed inbound message, or the signal that the peer exceeded the size limit (which it was).
enum VarlinkFrame: Sendable {
    case message(ByteBuffer)
    case tooLarge(limit: Int)
}

/// Refuses the waiting connections when accepting one fails for want of file descriptors (EMFILE, ENFILE).
///
/// While connections wait, the listening socket stays readable; NIO's accept back-off does not stop the
/// level-triggered poll from reporting it again at once, so the event loop would retry `accept` at a full core
/// for as long as the shortage lasts. Instead this handler frees the descriptor it keeps in reserve, accepts
/// every waiting connection, answers it with `refusal` (a Varlink error) and closes it, then takes the reserve
/// again: the poll goes quiet and each client learns at once why, instead of waiting.
final class DescriptorShortageShedder: ChannelInboundHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel
    private let listening: Int32
    private let refusal: [UInt8]
    private let onRefused: @Sendable (Int) -> Void
    private var reserve: Int32

    init(listening: Int32, refusal: [UInt8], onRefused: @escaping @Sendable (Int) -> Void) {
        self.listening = listening
        self.refusal = refusal
        self.onRefused = onRefused
        reserve = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    deinit {
        if reserve >= 0 { close(reserve) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE {
            refuseWaitingConnections()
        }
        context.fireErrorCaught(error)
    }

    private func refuseWaitingConnections() {
        if reserve >= 0 { close(reserve) }
        var refused = 0
        while true {
            let client = accept(listening, nil, nil)  // non-blocking: EAGAIN once none waits
            guard client >= 0 else { break }
            _ = refusal.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            close(client)
            refused += 1
        }
        reserve = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if refused > 0 { onRefused(refused) }
    }
}

/// The open connections: how many (every connection's decoder reads it for its share of the input budget), and
/// which has been idle longest, to make room when the table is full.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let channel: any Channel
        let activity: ConnectionActivity
    }
    private let open = Mutex<(entries: [UInt64: Entry], nextID: UInt64)>(([:], 0))
    private let count = Atomic<Int>(0)
    /// `more` calls (Watch streams) in progress.
    private let streams = Atomic<Int>(0)

    /// Takes a place for a stream when fewer than `limit` run. - Returns: whether one was free.
    func startStream(limit: Int) -> Bool {
        var current = streams.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = streams.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// A stream ended: its place is free.
    func endStream() {
        streams.subtract(1, ordering: .relaxed)
    }

    /// How many connections are open.
    var value: Int { count.load(ordering: .relaxed) }

    /// Adds a connection. - Returns: its id, and how many are open with it.
    func add(_ channel: any Channel, _ activity: ConnectionActivity) -> (id: UInt64, open: Int) {
        let id = open.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = Entry(channel: channel, activity: activity)
            return state.nextID
        }
        return (id, count.add(1, ordering: .relaxed).newValue)
    }

    func remove(_ id: UInt64) {
        let removed = open.withLock { $0.entries.removeValue(forKey: id) } != nil
        if removed { count.subtract(1, ordering: .relaxed) }
    }

    /// Closes the connection with no call in progress that has been idle longest (not `sparing`), and forgets
    /// it. - Returns: whether one was closed.
    func closeLongestIdle(sparing: UInt64) -> Bool {
        let victim = open.withLock { state -> (any Channel)? in
            let idle = state.entries.filter { $0.key != sparing && $0.value.activity.isIdle }
            // Claimed before it is closed: a call read meanwhile is then dropped with the connection, and a call
            // read before the claim keeps the connection (no stream starts on a connection being closed).
            for (id, entry) in idle.sorted(by: { $0.value.activity.lastActive < $1.value.activity.lastActive })
            where entry.activity.claimForClosing() {
                state.entries[id] = nil
                return entry.channel
            }
            return nil
        }
        guard let victim else { return false }
        count.subtract(1, ordering: .relaxed)
        victim.close(promise: nil)
        return true
    }
}

/// Whether a connection is busy with a call (for ``IdleConnectionCloser``), and when it was last active (for
/// ``ConnectionRegistry/closeLongestIdle(sparing:)``).
final class ConnectionActivity: Sendable {
    /// Calls read and not answered yet: from the frame decoder (on the event loop, as the bytes arrive) to
    /// the end of their dispatch; ``closing`` once the connection was claimed to be closed.
    private let callsInProgress = Atomic<Int>(0)
    private let lastActiveNanoseconds = Atomic<UInt64>(NIODeadline.now().uptimeNanoseconds)
    private static let closing = Int.min / 2

    /// When a call last began or ended (monotonic).
    var lastActive: UInt64 { lastActiveNanoseconds.load(ordering: .relaxed) }

    /// Whether no call is in progress and the connection is not being closed.
    var isIdle: Bool { callsInProgress.load(ordering: .relaxed) == 0 }

    /// Marks an idle connection as being closed, so that no call begins on it any more.
    /// - Returns: whether it was idle (false: a call began first, and the connection must stay).
    func claimForClosing() -> Bool {
        callsInProgress.compareExchange(expected: 0, desired: Self.closing, ordering: .relaxed).exchanged
    }

    /// A call was read. - Returns: false when the connection is being closed (the call is dropped with it).
    func callBegan() -> Bool {
        var current = callsInProgress.load(ordering: .relaxed)
        while current >= 0 {
            let (exchanged, original) = callsInProgress.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged {
                lastActiveNanoseconds.store(NIODeadline.now().uptimeNanoseconds, ordering: .relaxed)
                return true
            }
            current = original
        }
        return false
    }

    /// A call was answered.
    func callEnded() {
        callsInProgress.subtract(1, ordering: .relaxed)
        lastActiveNanoseconds.store(NIODeadline.now().uptimeNanoseconds, ordering: .relaxed)
    }
}

/// Closes a connection that sent nothing for the idle timeout while no call of it was in progress (a Watch
/// stream that waits for hours is busy, not idle).
final class IdleConnectionCloser: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let activity: ConnectionActivity

    init(activity: ConnectionActivity) { self.activity = activity }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent, activity.claimForClosing() {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Splits the inbound byte stream at NUL bytes; past the size limit without a NUL, reports `.tooLarge` once
/// and discards the rest (the connection is then closed). The limit is asked for at each read: it shrinks
/// as connections are added (the overall input budget).
struct VarlinkFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = VarlinkFrame
    private var overflowed = false
    private let limit: @Sendable () -> Int
    /// Told of each call read, so that the connection counts as busy from then on.
    private let activity: ConnectionActivity?

    init(activity: ConnectionActivity? = nil, limit: @escaping @Sendable () -> Int = { VarlinkWire.maximumMessageSize }) {
        self.activity = activity
        self.limit = limit
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if overflowed {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            return .needMoreData
        }
        let limit = limit()
        if let end = buffer.readableBytesView.firstIndex(of: 0) {
            let length = end - buffer.readerIndex
            let message = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            // A call read on a connection claimed for closing is dropped with it (its client sees the close).
            if length <= limit, activity?.callBegan() == false { return .continue }
            context.fireChannelRead(wrapInboundOut(length > limit ? .tooLarge(limit: limit) : .message(message)))
            return .continue
        }
        if buffer.readableBytes > limit {
            overflowed = true
            buffer.moveReaderIndex(to: buffer.writerIndex)
            context.fireChannelRead(wrapInboundOut(.tooLarge(limit: limit)))
        }
        return .needMoreData
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
