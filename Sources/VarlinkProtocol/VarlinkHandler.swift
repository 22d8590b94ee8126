/// Answers the calls of one or more Varlink interfaces (everything but `org.varlink.service`).
public protocol VarlinkHandler: Sendable {
    /// Handles one call. Send each reply through `reply`: one for a plain call, any number with
    /// `continues: true` and then a last one for a `more` call. Throw a ``VarlinkError`` to reply with an error.
    func handle(_ call: VarlinkCall, reply: @Sendable (VarlinkReply) async throws -> Void) async throws
}
