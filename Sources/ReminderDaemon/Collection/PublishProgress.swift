import Synchronization

/// What a running publish wrote, and whether a scan of something else waits for it, shared between the
/// collection service and the publish running on the thread pool. A publish stopped for a scan starts again
/// after it and may stop again only past the page where it stopped: a folder changed every second (another
/// device syncing thousands of items) delays it, never starves it.
final class PublishProgress: Sendable {
    private struct State {
        var written: Set<String> = []
        var scanWaits = false
        /// The pages read by the run that stopped last.
        var stoppedAfter = 0
    }
    private let state = Mutex(State())

    /// The publish is writing `fileName` (the folder watcher reports it soon).
    func wrote(_ fileName: String) { state.withLock { _ = $0.written.insert(fileName) } }

    /// The files among `names` that the publish wrote (what the folder watcher reports of its own writes).
    func written(among names: Set<String>) -> Set<String> { state.withLock { names.intersection($0.written) } }

    /// A scan of something else waits for the publish: it stops after its page.
    func scanArrives() { state.withLock { $0.scanWaits = true } }

    /// Whether the publish stops, having read `pages` pages (its reminders', logs' and skips' in that order).
    func stops(afterPage pages: Int) -> Bool {
        state.withLock { state in
            guard state.scanWaits, pages > state.stoppedAfter else { return false }
            state.stoppedAfter = pages
            return true
        }
    }

    /// The scans that waited have had their turn.
    func noScanWaits() { state.withLock { $0.scanWaits = false } }

    /// A publish ended: nothing written, no scan waits for it.
    func reset() { state.withLock { $0 = State() } }
}
