import ReminderCore
import ReminderScheduling
import ReminderStore

// MARK: Changes from the store

extension SchedulingService {
    /// More reminders than this changed at once (an import, a calendar read): they are read together, off the
    /// scheduling actor and the event loops.
    static let batchThreshold = 16

    /// What was committed, from any writer (the change feed hands it): a reminder whose definition changed is
    /// planned again (a restore: everything is loaded again, as at start), and one whose logs or skips changed
    /// is reconsidered.
    func apply(_ changes: StoreChanges, now: Instant) async {
        let replanned = changes.reminders(changing: .definition)
        do throws(StoreError) {
            if changes.restored {
                try await load()
            } else if replanned.count > Self.batchThreshold {
                try await refresh(reminderIDs: replanned)
            } else {
                for id in replanned.sorted() { refresh(reminderID: id) }
            }
        } catch {
            context.say(.error, "Cannot read the \(replanned.count) reminders that changed to plan them again: \(error); they keep their plans until the next change or restart")
        }
        // Also those planned again: a restored reminder's skips ahead hold only once reconsidered.
        for id in changes.reminders(changing: [.logs, .skips]).sorted() { reconsider(reminderID: id, now: now) }
    }

    /// How many occurrences of a reminder are snoozed (a log cancels the snooze of an occurrence it settles).
    func snoozeCount(reminderID: Int64) -> Int {
        lifecycle.snoozes.keys.count { $0.reminderID == reminderID }
    }

    var scheduleLoader: ScheduleLoader { ScheduleLoader(context: context, reminders: stores.reminders) }

    /// Re-reads one reminder from the store and plans it as it is there now (removed or disabled: unplanned).
    /// The store is the truth: whatever order concurrent changes commit in, the last refresh sees the last one.
    func refresh(reminderID: Int64) {
        let reminder: StoredReminder?
        do {
            let found = try stores.reminders.find(String(reminderID))
            reminder = found.id == reminderID ? found : nil
        } catch .notFound {
            reminder = nil
        } catch {
            // Unplanning it on a failed read would silence it: it keeps the plan it has until it can be read.
            changedWhileLoading?.insert(reminderID)
            context.say(.error, "Cannot read reminder \(reminderID) to plan it again: \(error); it keeps its plan until the next change or restart")
            return replan()
        }
        plan(reminderID, as: reminder.flatMap { scheduleLoader.ready([$0]).first })
        replan()
    }

    /// Re-reads many reminders (thousands changed at once) and plans each as ``refresh(reminderID:)`` does; a
    /// failed read changes no plan.
    func refresh(reminderIDs: Set<Int64>) async throws(StoreError) {
        let ids = reminderIDs.sorted()
        let loaded = try await scheduleLoader.read(ids: ids)
        // Out of the scheduler together (each plan below then finds its reminder gone, and no old plan fires
        // meanwhile); planned one by one, in chunks with a firing due meanwhile handled between them (106,504
        // planned at once held this actor for about 250 ms, and a dose's record waited).
        scheduler.remove(ids: reminderIDs)
        for start in stride(from: 0, to: ids.count, by: Self.planningChunk) {
            if start > 0 { await yieldToQueuedWork() }
            for id in ids[start..<min(start + Self.planningChunk, ids.count)] { plan(id, as: loaded[id]) }
        }
        replan()
    }

    /// How many reminders are planned between two chances for a firing to be handled.
    static let planningChunk = 5_000

    /// Plans a reminder as it was read: usable, left out (said), or gone or disabled (unplanned, and withdrawn
    /// from a notification listing it).
    private func plan(_ reminderID: Int64, as loaded: ScheduleLoader.Loaded?) {
        changedWhileLoading?.insert(reminderID)
        scheduler.remove(id: reminderID)
        headsUps.remove(id: reminderID)
        timedFromLastDose.remove(reminderID)
        switch loaded {
        case .usable(let schedulable, let handledThrough, let fromLastDose):
            if fromLastDose { timedFromLastDose.insert(reminderID) }
            scheduler.schedule(schedulable, handledThrough: handledThrough)
            headsUps.plan(schedulable, after: context.clock.now())
        case .unusable(let name, _, let reason):
            context.say(.warning, DaemonMessages.cannotSchedule, name, reminderID, reason)
        case nil:
            lifecycle.removeReminder(reminderID)
            context.announcer.announce(.withdrawn(reminderID: reminderID))
        }
    }

    /// Announces an occurrence (due, or upcoming: then it is postponed) again at `due`; it replaces an earlier
    /// snooze of the occurrence and survives a restart.
    /// - Returns: when the snooze it replaced was due.
    func snooze(_ firing: DueFiring, until due: Instant) throws(StoreError) -> Instant? {
        try stores.firings.setSnooze(reminderID: firing.reminder.id, scheduledAt: firing.occurrence.instant, dueAt: due)
        let replaced = lifecycle.snoozed(firing, until: due)
        replan()
        return replaced
    }

    /// A log, a skip, or a deleted log changed the states of a reminder's occurrences. An open occurrence that
    /// is no longer due stops repeating (a deleted log makes it due again), and one just taken or skipped is
    /// announced as such (a desktop notification closes); the snooze of an occurrence that is no longer due or
    /// upcoming is cancelled.
    /// - Returns: how many snoozes were cancelled.
    @discardableResult
    func reconsider(reminderID: Int64, now: Instant) -> Int {
        // Timed from its last dose: a log (or a deleted one) moves its next occurrence.
        if timedFromLastDose.contains(reminderID) { refresh(reminderID: reminderID) }
        restoreSkippedAhead(reminderID: reminderID, now: now)
        // An occurrence whose state cannot be read now is left as it is: its next repeat, snooze or window end
        // reads it again (and waits while the store does not answer).
        for (key, entry) in lifecycle.open where key.reminderID == reminderID {
            guard let status = readState(of: entry.firing, now: now) else { continue }
            let settledNow = lifecycle.reconsidered(key, state: status.state, now: now)
            // A log dated before an occurrence already announced (`log --at` earlier) suppresses it: it was
            // announced all the same, so it is taken, and its notification closes (a Taken left on screen would
            // record the dose twice).
            let state: OccurrenceState = status.state == .suppressed ? .taken : status.state
            if settledNow, state == .taken || state == .skipped {
                context.announcer.announce(.occurrence(OccurrenceEvent(
                    state: state, firing: entry.firing, windowEnd: entry.windowEnd, decidedAt: now, loggedAt: status.coveredBy,
                    reason: status.skipReason)))
            }
        }
        var cancelled = 0
        for (key, snooze) in lifecycle.snoozes where key.reminderID == reminderID {
            guard let state = readState(of: snooze.firing, now: now)?.state else { continue }
            if lifecycle.cancelSnoozeIfSettled(key, state: state) {
                forgetStoredSnooze(key)
                cancelled += 1
            }
        }
        replan()
        return cancelled
    }
}
