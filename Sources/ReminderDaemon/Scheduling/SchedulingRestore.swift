import ReminderCore
import ReminderScheduling
import ReminderStore

/// What a start restores from the store: skips made ahead, pending snoozes, the windows still open, and the
/// announcements recorded but not confirmed before a crash.
extension SchedulingService {
    /// Loads the skips of occurrences not handled yet, of one reminder or all: what `next` passes over. (A
    /// firing reads its own skips when it comes due, so a failed read here changes only what `next` lists.)
    func restoreSkippedAhead(reminderID: Int64?, now: Instant) {
        let ids = reminderID.map { [$0] }
        let skips: [Int64: Set<Instant>]
        do {
            skips = try stores.firings.skips(from: now.adding(seconds: -2 * 86400), through: .endOfTime, reminderIDs: ids)
        } catch {
            skipsKnown = false
            return context.say(.error, "Cannot read the skipped occurrences, so 'next' may list them: \(error)")
        }
        if reminderID == nil { skipsKnown = true }
        skippedAhead = skippedAhead.filter { reminderID != nil && $0.reminderID != reminderID }
        for (id, instants) in skips {
            for instant in instants { skippedAhead.insert(OccurrenceKey(reminderID: id, scheduledAt: instant)) }
        }
    }

    /// Loads the snoozes recorded before a restart (their reminders' rules and zones as they are now).
    func restoreSnoozes() {
        let stored: [SnoozeRecord]
        do {
            stored = try stores.firings.snoozes()
        } catch {
            return context.say(.error, "The snoozes pending before the restart cannot be read, so they do not fire: \(error)")
        }
        var reminders = ReminderLookup()
        lifecycle.restore(snoozes: stored.compactMap { snooze in
            let scheduledAt = Instant(secondsSinceEpoch: snooze.scheduledAt)
            guard let firing = restoredFiring(snooze.reminderId, at: scheduledAt, slotsDue: 1, &reminders) else { return nil }
            return OccurrenceLifecycle.Snooze(due: Instant(secondsSinceEpoch: snooze.dueAt), firing: firing)
        })
    }

    /// The windows of the occurrences announced in the last two days, as they were before a restart, but for
    /// those closed and settled meanwhile.
    func restoreOpenWindows(now: Instant) {
        let since = now.adding(seconds: -2 * 86400)
        let announced: [FiringRecord]
        do {
            announced = try stores.firings.announcedFirings(since: since)
        } catch {
            return context.say(.error, "The occurrences announced before the restart cannot be read, so they are not repeated or decided: \(error)")
        }
        var reminders = ReminderLookup()
        lifecycle.restore(open: withoutClosedAndSettled(announced.compactMap { record in
            let scheduled = Instant(secondsSinceEpoch: record.scheduledAt)
            guard let firing = restoredFiring(record.reminderId, at: scheduled, slotsDue: 1, &reminders) else { return nil }
            return OpenOccurrence(
                firing: firing, windowEnd: firing.reminder.windowEnd(of: firing.occurrence),
                lastAnnounced: Instant(secondsSinceEpoch: record.lastAnnouncedAt ?? record.handledAt), repeatsSent: record.repeats,
                escalation: record.escalatedAt == nil ? .pending : .done)
        }, since: since, now: now))
    }

    /// Restored windows as they stand now, found in one read of the logs and one of the outcomes (deciding each
    /// again, one at a time, was most of a start-up with a long history: 12 of 108 ms with 30 occurrences a
    /// day): a window that closed with its occurrence taken or decided (missed, skipped) is gone, one still open
    /// whose occurrence was taken or skipped is settled (not shown again, not repeated). What cannot be read is
    /// kept as recorded, to be decided on its own (a closed window nothing settled is decided, recorded and
    /// announced as missed; an open one is read again before it is repeated or shown again).
    func withoutClosedAndSettled(_ open: [OpenOccurrence], since: Instant, now: Instant) -> [OpenOccurrence] {
        let ids = Array(Set(open.map(\.firing.reminder.id)))
        guard !ids.isEmpty else { return open }
        let logs: [Int64: [Instant]]
        let decided: [Int64: Set<Instant>]
        do {
            logs = try stores.intake.instants(reminderIDs: ids, from: since.adding(seconds: -2 * 86400), through: now)
            decided = try stores.firings.decided(from: since, through: now, reminderIDs: ids)
        } catch {
            // Each is read again before it is repeated or shown again (``stillDue()``), or decided.
            return open
        }
        return OpenOccurrence.stillToRestore(open, logs: logs, decided: decided, now: now)
    }

    /// The enabled reminders read so far by a restore, by id (nil: gone, disabled, or not schedulable now).
    typealias ReminderLookup = [Int64: SchedulableReminder?]

    /// A stored occurrence as a firing, with its reminder as it is now; nil when the reminder is gone or
    /// disabled, or its rule no longer has an occurrence at that instant.
    func restoredFiring(
        _ reminderID: Int64, at scheduled: Instant, slotsDue: Int, lateSeconds: Int64 = 0, _ reminders: inout ReminderLookup
    ) -> DueFiring? {
        let reminder: SchedulableReminder?
        if let known = reminders[reminderID] {
            reminder = known
        } else {
            do {
                let stored = try stores.reminders.find(String(reminderID))
                reminder = stored.id == reminderID && stored.enabled ? try schedulable(stored) : nil
            } catch {
                // Gone (deleted), or a rule or zone that cannot be used now: nothing of it is restored.
                reminder = nil
            }
            reminders[reminderID] = .some(reminder)
        }
        guard let reminder, let occurrence = reminder.rule.nextOccurrence(after: scheduled.adding(seconds: -1), in: reminder.zone),
            occurrence.instant == scheduled
        else { return nil }
        return DueFiring(reminder: reminder, occurrence: occurrence, slotsDue: slotsDue, lateSeconds: lateSeconds)
    }

    /// Announces what a crash left recorded but not confirmed as announced (firings, missed notes, repeats and
    /// snoozes), unless the journal shows that it was: each once, a firing marked late (and, where the journal
    /// cannot be read back, each marked as announced again). Runs at start, before anything else is announced.
    func announceUnconfirmed(now: Instant) {
        let pending: FiringsStore.Unconfirmed
        do {
            pending = try stores.firings.unconfirmed()
        } catch {
            return context.say(.error, "Cannot read what was announced before the restart: \(error); it is looked up at the next start")
        }
        guard !pending.isEmpty else { return }
        let plan = UnconfirmedAnnouncements(pending, instance: storeInstance)
        let found = context.ledger.announced(among: plan.keys)
        var reminders = ReminderLookup()
        var announced = 0
        func restored(_ record: (reminderID: Int64, scheduledAt: Int64, slot: String), slotsDue: Int = 1) -> DueFiring? {
            let scheduled = Instant(secondsSinceEpoch: record.scheduledAt)
            let late = now.secondsSinceEpoch - record.scheduledAt
            guard let firing = restoredFiring(record.reminderID, at: scheduled, slotsDue: slotsDue, lateSeconds: late, &reminders) else {
                context.say(.notice, DaemonMessages.goneSinceRestart, record.slot)
                return nil
            }
            announced += 1
            return firing
        }
        for announcement in plan.announcements(found: found) {
            switch announcement {
            case .firing(let key, let record, let kind):
                guard let firing = restored((record.reminderId, record.scheduledAt, record.slot), slotsDue: record.slotsDue) else { continue }
                let event = FiringEvent(
                    kind: kind, firing: firing, handledAt: now, detail: record.detail, replanned: record.replanned > 0, record: key,
                    reannounced: found == nil)
                context.announce(firing: event)
                openWindow(of: event)
            case .missed(let key, let record):
                guard let firing = restored((record.reminderId, record.scheduledAt, record.slot)) else { continue }
                var event = OccurrenceEvent(
                    state: .missed, firing: firing, windowEnd: firing.reminder.windowEnd(of: firing.occurrence),
                    decidedAt: Instant(secondsSinceEpoch: record.decidedAt), record: key)
                event.reannounced = found == nil
                context.announcer.announce(.occurrence(event))
            case .again(let key, let record, let number):
                guard let firing = restored((record.reminderId, record.scheduledAt, record.slot)) else { continue }
                let event = FiringEvent(
                    kind: number == 0 ? .snoozed : .repeated, firing: firing, handledAt: now, repeatNumber: number == 0 ? nil : number, record: key,
                    reannounced: found == nil)
                context.announce(firing: event)
                lifecycle.announcedAfterRestart(OccurrenceKey(firing), at: now)
            case .escalation(let key, let record, let at):
                guard let firing = restored((record.reminderId, record.scheduledAt, record.slot)) else { continue }
                var event = EscalationEvent(firing: firing, at: at)
                event.record = key
                context.announcer.announce(.escalation(event))
            }
        }
        confirm(firings: plan.confirm.firings, missed: plan.confirm.missed, again: plan.confirm.again, escalations: plan.confirm.escalations)
        context.say(plan.notice(announced: announced, journalReadable: found != nil))
    }

    /// Confirms that recorded announcements went out, once the journal has been sent their entries (it is sent
    /// them on its own queue: ``Announcer/whenSent(_:)``). A crash before that leaves them unconfirmed, and the
    /// next start looks them up in the journal. When the store refuses, so they are looked up too, which costs
    /// nothing but that look-up.
    /// Confirmations queued behind others are held and written with the last (``HeldConfirmations``).
    func confirm(firings: [Int64] = [], missed: [Int64] = [], again: [Int64] = [], escalations: [Int64] = []) {
        let records = HeldConfirmations.Records(firings: firings, missed: missed, again: again, escalations: escalations)
        guard records.count > 0 else { return }
        let (store, context, held) = (stores.firings, context, heldConfirmations)
        held.queue()
        context.announcer.whenSent {
            guard let due = held.sent(records) else { return }
            do {
                try store.confirmAnnounced(firings: due.firings, missed: due.missed, again: due.again, escalations: due.escalations)
            } catch {
                context.say(.warning, "Could not confirm \(due.count) \(due.count == 1 ? "announcement" : "announcements") in the store: \(error); the next start looks them up in the journal")
            }
        }
    }
}
