import Synchronization

/// The confirmations of announcements whose journal entries are sent, held while more confirmations are queued
/// behind them on the journal's thread, and written together when the queue is through them: a burst of 10,000
/// wrote a confirmation between each chunk's entries and the next (20 transactions, a tenth of the journal
/// thread's time before its last entry), and now writes it after the last. A firing is still confirmed only once
/// its own entry is sent (its ids are handed over in its own ``Announcer/whenSent(_:)``); a crash meanwhile leaves
/// it unconfirmed, and the next start looks it up in the journal, as any unconfirmed one.
final class HeldConfirmations: Sendable {
    /// The ids of records to confirm, by what is confirmed.
    struct Records: Sendable {
        var firings: [Int64] = []
        var missed: [Int64] = []
        var again: [Int64] = []
        var escalations: [Int64] = []

        var count: Int { firings.count + missed.count + again.count + escalations.count }

        mutating func append(_ other: Records) {
            firings += other.firings
            missed += other.missed
            again += other.again
            escalations += other.escalations
        }
    }

    /// At most this many are held: what a crash could leave to look up, and a write's size.
    static let limit = 20_000

    private let state = Mutex<(queued: Int, sent: Records)>((0, Records()))

    /// One more confirmation is queued (before its ``sent(_:)``).
    func queue() { state.withLock { $0.queued += 1 } }

    /// The entries of `records` are sent. - Returns: what to confirm now, nil while more is queued behind.
    func sent(_ records: Records) -> Records? {
        state.withLock { state in
            state.queued -= 1
            state.sent.append(records)
            guard state.queued == 0 || state.sent.count >= Self.limit else { return nil }
            defer { state.sent = Records() }
            return state.sent
        }
    }
}
