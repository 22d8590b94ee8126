import ReminderCore
import ReminderScheduling
import ReminderStore

/// What becomes of an announced occurrence: announced again, escalated, decided (taken, skipped, missed) when
/// its window closes; and the firings that wait while the store cannot be read.
extension SchedulingService {
    /// Performs what the lifecycle decided.
    func perform(_ action: OccurrenceLifecycle.Action, now: Instant) {
        switch action {
        case .decide(let firing, let windowEnd, let escalated): decide(firing, windowEnd: windowEnd, escalated: escalated, now: now)
        case .escalate(let firing): escalate(firing, now: now)
        case .forgetSnooze(let key): forgetStoredSnooze(key)
        case .announceAgain(let firing, let again): announceAgain(firing, again, now: now)
        }
    }

    /// Announces a due occurrence again (its snooze, or a repeat), unless a log or a skip settled it meanwhile;
    /// when its state cannot be read, the lifecycle decides what waits (nothing is announced on a guess). The
    /// announcement is noted (with the snooze forgotten), announced, then confirmed, like a firing.
    func announceAgain(_ firing: DueFiring, _ again: OccurrenceLifecycle.Again, now: Instant) {
        let state = readState(of: firing, now: now)?.state
        let key = OccurrenceKey(firing)
        guard lifecycle.stateRead(state, for: firing, again: again, now: now, retrySeconds: Self.storeRetrySeconds) else {
            // Settled: its stored snooze is done with. Unread: it stays, and is tried again.
            if again == .snoozed, state != nil { forgetStoredSnooze(key) }
            return
        }
        if waitsApart(firing, now: now) { return }
        let repeatNumber: Int? = if case .repeated(let number) = again { number } else { nil }
        var event = FiringEvent(kind: repeatNumber == nil ? .snoozed : .repeated, firing: firing, handledAt: now, repeatNumber: repeatNumber)
        event.keptApart = keptApart.removeValue(forKey: key)
        let noted: Int64?
        do {
            noted = try stores.firings.noteAnnouncedAgain(
                reminderID: key.reminderID, scheduledAt: key.scheduledAt, at: now, repeats: lifecycle.open[key]?.repeatsSent ?? 0,
                repeatNumber: repeatNumber)
        } catch {
            // The note is for a crash's sake: the announcement goes out without it (a restart then repeats the
            // snooze still stored, or the repeat counted from the last note).
            context.say(.warning, "Could not note that \(firing.slotID) is announced again: \(error)")
            noted = nil
        }
        event.record = noted.map { FiringsStore.announcementKey(instance: storeInstance, firingID: $0, again: now) }
        context.announce(firing: event)
        if let noted { confirm(again: [noted]) }
    }

    /// Escalates an occurrence still due at its reminder's `--escalate-after` delay (the lifecycle has marked it
    /// done), once across kills and restarts, as a firing is announced: noted in its firing record first (neither
    /// a restart nor its window's end escalates it again), announced with its key (the escalation command runs),
    /// then confirmed; a crash between is looked up in the journal at the next start. Taken or skipped meanwhile,
    /// or unread (not on a guess), it is left to the window's end: escalated then if missed.
    func escalate(_ firing: DueFiring, now: Instant) {
        let key = OccurrenceKey(firing)
        guard readState(of: firing, now: now)?.state == .due else { return lifecycle.escalationPassedOver(key) }
        var event = EscalationEvent(firing: firing, at: now)
        let noted: Int64?
        do {
            noted = try stores.firings.noteEscalated(reminderID: key.reminderID, scheduledAt: key.scheduledAt, at: now)
        } catch {
            noted = nil
            context.say(.warning, "Could not note that \(firing.slotID) was escalated: \(error); a restart before its window ends escalates it again")
        }
        event.record = noted.map { FiringsStore.announcementKey(instance: storeInstance, escalationOf: $0) }
        context.announcer.announce(.escalation(event))
        if let noted { confirm(escalations: [noted]) }
    }

    /// Forgets a snooze in the store (the lifecycle has forgotten it already).
    func forgetStoredSnooze(_ key: OccurrenceKey) {
        // A stored snooze that could not be removed is harmless: after a restart it announces the occurrence
        // only if it is still due then.
        try? stores.firings.removeSnooze(reminderID: key.reminderID, scheduledAt: key.scheduledAt)
    }

    /// The state of an occurrence now, from the store's logs and skips, with the reason of a skip, and the
    /// reminder's pauses as they are now (one set after the occurrence was announced settles it).
    func currentState(of firing: DueFiring, now: Instant) throws(StoreError) -> (status: OccurrenceStatus, skipReason: String?) {
        let reminder = firing.reminder
        let pauses = scheduler.reminder(id: reminder.id)?.delivery.pause ?? reminder.delivery.pause
        let scheduled = firing.occurrence.instant
        let windowEnd = reminder.windowEnd(of: firing.occurrence)
        let logs = try stores.intake.instants(reminderID: reminder.id, from: scheduled.adding(seconds: -2 * 86400), through: windowEnd)
        let reason = try skipReason(of: firing)
        let status = reminder.rule.state(
            of: firing.occurrence, in: reminder.zone, logs: logs, skips: reason != nil ? [scheduled] : [], windowSeconds: reminder.windowSeconds, now: now,
            pauses: pauses)
        return (status, reason)
    }

    /// ``currentState(of:now:)``, or nil (said in the journal) when the store cannot be read.
    func readState(of firing: DueFiring, now: Instant) -> (state: OccurrenceState, coveredBy: Instant?, skipReason: String?)? {
        do {
            let (status, reason) = try currentState(of: firing, now: now)
            return (status.state, status.coveredBy, reason)
        } catch {
            context.say(.error, "Cannot read whether \(firing.slotID) was taken or skipped: \(error); it is not announced until that can be read")
            return nil
        }
    }

    /// The user's reason for skipping an occurrence ("" when none was given), or nil when it was not skipped.
    func skipReason(of firing: DueFiring) throws(StoreError) -> String? {
        let instant = firing.occurrence.instant
        let outcomes = try stores.firings.outcomes(reminderID: firing.reminder.id, from: instant, through: instant)
        return outcomes.first { $0.state == .skipped }.map { $0.reason ?? "" }
    }

    /// Decides an occurrence whose window closed: unless a log took it or the user skipped it, it is missed,
    /// recorded, then announced; once, across restarts (the record is unique). A store that refuses the write
    /// is tried again later.
    func decide(_ firing: DueFiring, windowEnd: Instant, escalated: Bool, now: Instant) {
        // A calendar's alarm is a heads-up, not a dose: nothing is missed when it is not dismissed.
        guard firing.reminder.delivery.calendar == nil else { return }
        var event = OccurrenceEvent(state: .missed, firing: firing, windowEnd: windowEnd, decidedAt: now)
        event.escalated = escalated
        let id: Int64
        do {
            // Neither missed nor recorded on a guess: a read that fails is tried again like a failed write.
            guard try currentState(of: firing, now: max(now, windowEnd)).status.state == .missed else { return }
            var record = OutcomeRecord(event)
            record.confirmed = false
            guard let recorded = try stores.firings.recordOutcome(record) else { return }
            id = recorded
        } catch {
            lifecycle.decideFailed(firing, escalated: escalated, now: now, retrySeconds: Self.storeRetrySeconds)
            context.say(.error, "Could not decide or record whether \(firing.slotID) was missed: \(error); trying again in \(Self.storeRetrySeconds) s")
            return
        }
        event.record = FiringsStore.announcementKey(instance: storeInstance, outcomeID: id)
        context.announcer.announce(.occurrence(event))
        confirm(missed: [id])
    }

    /// Tries again to decide the firings whose logs could not be read, and to record those the store refused;
    /// each one recorded is announced, marked late when it now is.
    func recordWaiting(now: Instant) {
        while let event = waitingForStore.nextUnrecorded {
            var retried = FiringEvent(kind: event.kind, firing: waited(event.firing, now: now), handledAt: now, detail: event.detail)
            if retried.kind == .fired && retried.firing.lateSeconds > scheduler.onTimeToleranceSeconds { retried.kind = .late }
            do {
                let recorded = try stores.firings.recordFiring(FiringRecord(retried), handledThrough: max(retried.firing.occurrence.instant, now))
                waitingForStore.recordedNext()
                let ids = announce([retried], [recorded])
                if !ids.isEmpty { confirm(firings: ids) }
            } catch {
                waitingForStore.retryFailed(now: now, reason: error.description)
                return
            }
        }
        // In runs of the same kind (due at start, or while running), in their order.
        for run in waitingForStore.takeUndecided() {
            handle(run.firings.map { waited($0, now: now) }, now: now, afterDowntime: run.afterDowntime)
        }
        guard waitingForStore.retry == nil else { return }
        context.say(.notice, DaemonMessages.storeAnswersAgain)
    }

    /// A firing that waited for the store, with its lateness as of now.
    func waited(_ firing: DueFiring, now: Instant) -> DueFiring {
        DueFiring(
            reminder: firing.reminder, occurrence: firing.occurrence, slotsDue: firing.slotsDue,
            lateSeconds: now.secondsSinceEpoch - firing.occurrence.instant.secondsSinceEpoch)
    }
}
