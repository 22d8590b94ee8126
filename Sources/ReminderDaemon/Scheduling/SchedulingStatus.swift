import ReminderCore
import ReminderScheduling
import ReminderStore

/// What the schedule answers: the next firings and the one-line status.
extension SchedulingService {
    // MARK: Reading

    /// One of the next announcements: an occurrence at its time, or a pending snooze.
    struct Upcoming {
        var reminder: SchedulableReminder
        var occurrence: Occurrence
        /// When it is announced: the occurrence's instant, or the snooze's.
        var at: Instant
        var snoozed: Bool
    }

    /// The next `count` announcements across all reminders, in time order: occurrences and pending snoozes (an
    /// occurrence snoozed before its time is listed at the snooze's).
    func upcoming(count: Int) -> [Upcoming] {
        let snoozes = lifecycle.snoozes
        let planned = scheduler.upcoming(count: count + snoozes.count + skippedAhead.count)
            .filter {
                let key = OccurrenceKey(reminderID: $0.0.id, scheduledAt: $0.1.instant)
                return snoozes[key] == nil && !skippedAhead.contains(key) && $0.0.delivery.pause.span(covering: $0.1.instant) == nil
            }
            .map { Upcoming(reminder: $0.0, occurrence: $0.1, at: $0.1.instant, snoozed: false) }
        let snoozed = snoozes.values.map { Upcoming(reminder: $0.firing.reminder, occurrence: $0.firing.occurrence, at: $0.due, snoozed: true) }
        return Array((planned + snoozed).sorted { ($0.at, $0.reminder.id) < ($1.at, $1.reminder.id) }.prefix(count))
    }

    /// The one-line state for STATUS= and Status(): `3 reminders, next: Vitamin D at Sun 09:00`.
    func statusLine() -> String {
        Self.statusLine(planned: plannedLine(), waiting: waitingLine(), storeProblem: context.storeFileProblem)
    }

    /// What the `Status` method reports, as of the last re-plan, read without waiting for this actor: a status
    /// call answers at once during a burst of thousands of firings (the next firing is then the burst's).
    nonisolated func publishedStatus() -> (next: (SchedulableReminder, Occurrence)?, line: String) {
        let published = self.published.withLock { $0 }
        return (published.next, Self.statusLine(planned: published.planned, waiting: published.waiting, storeProblem: context.storeFileProblem))
    }

    static func statusLine(planned: String, waiting: String?, storeProblem: StoreError?) -> String {
        if let waiting { return "\(waiting); \(planned)" }
        if let problem = storeProblem { return "Cannot write: \(problem); \(planned)" }
        return planned
    }

    func waitingLine() -> String? {
        waitingForStore.statusLine
    }

    func plannedLine() -> String {
        let count = scheduler.count
        let noun = count == 1 ? "reminder" : "reminders"
        let next = scheduler.nextFiring()
        // A snooze due first is what comes next (the line named the reminder after it).
        if let snooze = lifecycle.snoozes.values.min(by: { $0.due < $1.due }), next.map({ snooze.due <= $0.1.instant }) ?? true {
            let reminder = snooze.firing.reminder
            return "\(count) \(noun), next: \(reminder.name) (snoozed) at \(FiringWording.english.when(reminder.zone, snooze.due))"
        }
        guard let (reminder, occurrence) = next else { return "\(count) \(noun), none scheduled" }
        return "\(count) \(noun), next: \(reminder.name) at \(FiringWording.english.when(occurrence))"
    }

    /// The earliest pending snooze of a reminder, as of the last re-plan, read without waiting for this actor.
    nonisolated func pendingSnooze(of reminderID: Int64) -> OccurrenceLifecycle.Snooze? {
        published.withLock { $0.snoozes[reminderID] }
    }

    /// The occurrences announced and still due now by the store (not taken, skipped or missed, and not
    /// snoozed), as firings to show again (a notification server that appeared, a desktop logged in), marked
    /// quiet as their announcement would be now; the latest of each reminder. Each is read from the store
    /// before it is listed: one found settled meanwhile settles here too; one whose state cannot be read is not
    /// shown on a guess (the dose may have been taken), as a repeat is not.
    func stillDue() -> [FiringEvent] {
        let now = context.clock.now()
        var latest: [Int64: OpenOccurrence] = [:]
        for (key, entry) in lifecycle.open where !entry.settled && entry.windowEnd > now && pendingSnooze(of: key.reminderID) == nil {
            if let kept = latest[key.reminderID], kept.firing.occurrence.instant >= entry.firing.occurrence.instant { continue }
            latest[key.reminderID] = entry
        }
        let due = latest.values.filter { entry in
            guard let state = readState(of: entry.firing, now: now)?.state else { return false }
            if state != .due { _ = lifecycle.reconsidered(OccurrenceKey(entry.firing), state: state, now: now) }
            return state == .due
        }
        return due.sorted { $0.firing.occurrence.instant < $1.firing.occurrence.instant }.map {
            context.settings.quieted(FiringEvent(kind: .fired, firing: $0.firing, handledAt: now))
        }
    }
}
