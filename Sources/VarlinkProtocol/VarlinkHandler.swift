/// Answers the calls of one or more Varlink interfaces (everything but `org.varlink.service`).
public protocol VarlinkHandler: Sendable {
    /// Handles one call. Send each reply through `reply`: one for a plain call, any number with
    /// `continues: true` and then a last one for a `more` call. Throw a ``VarlinkError`` to reply with an error.
    func handle(_ call: VarlinkCall, reply: VarlinkReplies) async throws
}

/// Where a call's replies go: one at a time (`reply(message)`), or several written together
/// (`reply(contentsOf:)`: a stream's queued entries in one write and one system call instead of one each).
public struct VarlinkReplies: Sendable {
    private let write: @Sendable ([VarlinkReply]) async throws -> Void

    /// Replies that `write` sends, in order, each batch at once.
    public init(_ write: @escaping @Sendable ([VarlinkReply]) async throws -> Void) {
        self.write = write
    }

    /// Sends one reply.
    public func callAsFunction(_ reply: VarlinkReply) async throws {
        try await write([reply])
    }

    /// Sends several replies together, in order (nothing for none).
    public func callAsFunction(contentsOf replies: [VarlinkReply]) async throws {
        guard !replies.isEmpty else { return }
        try await write(replies)
    }
}
