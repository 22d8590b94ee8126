import Synchronization

/// Imports and restores take turns, in the order they came: each decides what to add from what the store holds
/// when its turn comes (a merge skips the rows the store has, a calendar import changes the items it imported
/// before). Two at once each decided before the other had moved its rows in: two merges of one backup (a
/// script run twice, an import run again after Ctrl-C while the daemon still ran the first) both added its logs,
/// every dose logged twice.
///
/// A turn is taken before the file is read and given back when the import has ended, whatever it ended in. A
/// wait is not cancelled: the import ahead ends soon once the daemon stops (its wait for a lull ends then).
final class ImportTurns: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    /// How many imports wait for their turn.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Runs `body` when the imports that came before it have ended.
    func inTurn<Value>(_ body: () async throws(ServiceError) -> Value) async throws(ServiceError) -> Value {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let goesNow = state.withLock { state in
                if state.busy {
                    state.waiting.append(continuation)
                    return false
                }
                state.busy = true
                return true
            }
            if goesNow { continuation.resume() }
        }
        defer { passOn() }
        return try await body()
    }

    /// Gives the turn to the next import waiting, or frees it.
    private func passOn() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
