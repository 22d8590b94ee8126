import GRDB
import Synchronization

/// The number of reminders and of enabled ones, counted once and kept until a commit adds or removes a reminder
/// or writes its `enabled`: a `Status` call (a status bar asks every few seconds; a burst's watcher every 20 ms)
/// counted 10,000 rows twice each time, while a firing only moves `handledThrough`.
///
/// A count read while a commit lands may be the older one: it is kept only when no such commit was seen between
/// asking and storing (the generation did not move), so the next call counts again.
final class ReminderCountCache: Sendable {
    private struct State {
        var generation = 0
        var counts: (total: Int, enabled: Int)?
    }

    private let state = Mutex(State())

    /// The kept counts, or those `count` reads (kept when no commit changed them meanwhile).
    func counts<Failure: Error>(count: () throws(Failure) -> (total: Int, enabled: Int)) throws(Failure) -> (total: Int, enabled: Int) {
        let (generation, kept) = state.withLock { ($0.generation, $0.counts) }
        if let kept { return kept }
        let counted = try count()
        state.withLock { if $0.generation == generation { $0.counts = counted } }
        return counted
    }

    /// A commit added, removed, enabled or disabled a reminder.
    func invalidate() {
        state.withLock {
            $0.generation += 1
            $0.counts = nil
        }
    }
}

extension ReminderCountCache {
    /// Whether a change of this kind changes the counts: a reminder added, removed, or its `enabled` written
    /// (GRDB's transaction observer names the columns an `UPDATE` sets).
    static func changes(_ eventKind: DatabaseEventKind) -> Bool {
        switch eventKind {
        case .insert("reminder"), .delete("reminder"): true
        case .update("reminder", let columns): columns.contains("enabled")
        default: false
        }
    }
}
