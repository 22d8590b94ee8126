import ReminderCore

/// A dose's limits checked on every device's doses: before `log` or `done` of a medication with limits, the
/// collection runs its sync command at once, waits for a run that started after the call (``DaemonConfiguration/syncWait``
/// at most), and reads the folder, so that an as-needed dose taken on the laptop a minute ago is counted on the
/// desktop (it came only at the next sync before: 533 s once).
extension CollectionService: DoseFreshness {
    func freshen() async -> String? {
        guard folder != nil, context.settings.configuration.syncCommand != nil, commands != nil else { return nil }
        if let why = heldBecause { return "the collection is not used now (\(why))" }
        // The run to wait for: the next one to start (one running now may have started before the other
        // device's dose reached the server).
        let run = sync.started + 1
        if sync.running { sync.again = true } else { syncDue(now: context.clock.now()) }
        let bound = context.settings.configuration.syncWait
        let problem: String?? = await withTaskGroup(of: String??.self) { group in
            group.addTask { .some(await self.end(of: run)) }
            group.addTask {
                do { try await Task.sleep(for: bound) } catch { return nil }  // cancelled: the run ended first
                return .some("the sync did not end within \(bound.components.seconds) s (is the server reachable?)")
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        switch problem {
        case .some(.some(let why)): return why
        case .some(nil):
            await scan()
            return nil
        case nil: return "the sync was interrupted"
        }
    }

    /// Waits for the end of sync run number `run`: what it said (nil: it succeeded). Cancelled (the time allowed
    /// ran out first), it returns at once, with a text nobody reads.
    private func end(of run: Int) async -> String? {
        guard sync.ended < run else { return nil }
        let id = sync.nextWaiter
        sync.nextWaiter += 1
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { return continuation.resume(returning: "cancelled") }
                sync.waiting[id] = (run, continuation)
            }
        } onCancel: {
            // Back onto the service to let the waiter go (the handler cannot wait for the actor).
            Task { await self.stopWaiting(id) }
        }
    }

    private func stopWaiting(_ id: Int) {
        sync.waiting.removeValue(forKey: id)?.continuation.resume(returning: "cancelled")
    }
}
