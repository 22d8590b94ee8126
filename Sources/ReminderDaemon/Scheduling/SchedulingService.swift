import Foundation
import Synchronization
import ReminderCore
import ReminderScheduling
import ReminderStore

/// The one owner of the wake-up: keeps every enabled reminder's next firing in the ``Scheduler``, handles what
/// is due when the clock says so (fire, catch up, suppress, skip; snoozes and repeats of due occurrences;
/// occurrences whose window closed), and arms the next wake-up.
///
/// An actor: the clock's events and the services' changes arrive concurrently and are applied one at a time.
/// The decisions come from the pure `Scheduler`; this type reads the store, records, and announces. It runs on
/// a ``DedicatedThread``, so that the control socket answers while a burst is handled.
actor SchedulingService {
    nonisolated var unownedExecutor: UnownedSerialExecutor { DedicatedThread.executor }

    /// Other reasons to wake than reminders; the service that asked handles them (see ``Daemon``).
    enum WakeUp: Hashable, Sendable, CaseIterable {
        /// The habit service's next look at the rest suggestion.
        case restSuggestion
        /// The linked collection's next run of its sync command.
        case collectionSync
    }

    /// The next instant an announced occurrence is announced again or decided (a repeat, a snooze, the end of
    /// its window), if any.
    var nextDecision: Instant? { lifecycle.nextDeadline }

    /// When a wake-up is set for.
    func wakeUp(_ wakeUp: WakeUp) -> Instant? { wakeUps[wakeUp] }

    /// Reminder ids read at a time by a load, between chances for other work to run.
    static let loadChunk = 2_000
    /// Firings due together that are recorded in one transaction and announced before other work may run.
    static let burstChunk = 500

    /// How long to wait before trying again to record firings the store refused.
    static let storeRetrySeconds: Int64 = 30

    let context: DaemonContext
    private let statusReporter: any StatusReporter
    private var scheduler = Scheduler()
    /// The status as of the last re-plan (see ``publishedStatus()``).
    private struct Published: Sendable {
        var next: (SchedulableReminder, Occurrence)?
        var planned = "starting"
        var waiting: String?
        /// The earliest pending snooze of each reminder that has one, by reminder id.
        var snoozes: [Int64: OccurrenceLifecycle.Snooze] = [:]
    }
    private nonisolated let published = Mutex(Published())
    /// Announced (or postponed) occurrences whose window is open, and pending snoozes: while due they are
    /// announced again by their snooze or repeats; when the window closes each is decided, and a missed one
    /// recorded and announced once. The decisions are the pure ``OccurrenceLifecycle``'s; this actor reads
    /// the store for them and performs them.
    private var lifecycle = OccurrenceLifecycle()
    /// How many alarms each calendar announced in the last minute (a calendar's alarms together are bounded).
    private var calendarFloodGate = CalendarFloodGate()
    private var wakeUps: [WakeUp: Instant] = [:]
    /// Occurrences the user skipped before they came due (they are recorded skipped, not announced, and `next`
    /// passes over them); kept here so that a firing asks the store for its skip only when there is one.
    private var skippedAhead: Set<OccurrenceKey> = []
    /// Whether ``skippedAhead`` holds every skip (its last load worked): a firing then needs no read of its own
    /// (a query per chunk of a burst of 10,000 cost 20 reads), else it reads its skips with its logs.
    private var skipsKnown = false
    /// While a load reads the store (other calls run meanwhile): the reminders changed since it began, planned
    /// again once the loaded schedule is in place, so that the load does not undo them.
    private var changedWhileLoading: Set<Int64>?
    /// The reminders timed from their last dose (`--from-last-dose`): a log re-plans them.
    private var timedFromLastDose: Set<Int64> = []
    /// Firings decided but not yet recorded because the store refused the write, oldest first; each is
    /// announced once its record is durable, so that no slot is announced and then forgotten.
    private var unrecorded: [FiringEvent] = []
    /// Firings that came due while their logs could not be read (with whether the daemon was starting), oldest
    /// first: decided and recorded once the store answers, before anything that came due after them.
    private var undecided: [(firing: DueFiring, afterDowntime: Bool)] = []
    /// When to try ``undecided`` and ``unrecorded`` again, and why the last try failed.
    private var storeRetry: (at: Instant, reason: String)?
    /// The last status reported: it is reported only when it changes (sd_notify blocks when the manager lags).
    private var lastStatus: String?
    /// The store's instance id (read at load): with a firing's row id, the key the journal keeps it under.
    private var storeInstance = ""

    init(context: DaemonContext, statusReporter: any StatusReporter) {
        self.context = context
        self.statusReporter = statusReporter
    }

    // MARK: Loading

    /// Loads every enabled reminder and its snoozes and plans each next firing; missed firings become due.
    ///
    /// A large store is read and its rules parsed in parallel parts (one per core, each on its own SQLite
    /// reader); only the cheap queue inserts run on the actor.
    /// - Returns: the number of enabled reminders loaded.
    @discardableResult
    func load() async throws(StoreError) -> Int {
        let (store, loadContext) = (context.store, context)
        storeInstance = try store.firings.instanceID()
        clockChanged(now: context.clock.now())
        changedWhileLoading = []
        defer { changedWhileLoading = nil }
        guard let bounds = try store.reminders.idBounds() else { return 0 }
        let parts = bounds.count > 10_000 ? max(1, ProcessInfo.processInfo.activeProcessorCount) : 1
        let step = (bounds.upperBound - bounds.lowerBound) / Int64(parts) + 1
        let loaded: [[(StoredReminder, ReminderRule?)]]
        do {
            loaded = try await withThrowingTaskGroup(of: (Int, [(StoredReminder, ReminderRule?)]).self) { group in
                for part in 0..<parts {
                    let low = bounds.lowerBound + Int64(part) * step
                    let ids = low...min(low + step - 1, bounds.upperBound)
                    group.addTask {
                        // In chunks, letting queued work run between them: the parts take every thread, and a
                        // firing during a reload must not wait for a whole part.
                        var rows: [(StoredReminder, ReminderRule?)] = []
                        for low in stride(from: ids.lowerBound, through: ids.upperBound, by: Self.loadChunk) {
                            let chunk = try store.reminders.all(ids: low...min(low + Int64(Self.loadChunk) - 1, ids.upperBound))
                            // A rule that cannot be made is nil here and reported by buildScheduler.
                            rows += chunk.filter(\.enabled).map { ($0, try? loadContext.firingRule(of: $0)) }
                            await yieldToQueuedWork()
                        }
                        return (part, rows)
                    }
                }
                var results = Array(repeating: [(StoredReminder, ReminderRule?)](), count: parts)
                for try await (part, rows) in group { results[part] = rows }
                return results
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .unavailable(path: store.path, detail: "\(error)")
        }
        // Replaced only once everything was read: a load that fails keeps the schedule there was. Built off
        // the actor, so that a firing during a reload is handled on time by the schedule there was (and the
        // store's handledThrough keeps the new schedule from announcing it again).
        let (scheduler, count) = await Self.buildScheduler(loaded, context: context)
        self.scheduler = scheduler
        timedFromLastDose = Set(loaded.joined().filter { $0.0.rule.fromLastDose == true }.compactMap(\.0.id))
        for row in store.reminders.takeUnusableRows() {
            context.say(.warning, "A stored reminder cannot be used and is left out (it does not fire): \(row); restore a backup, or remove the row by hand while remindd is stopped")
        }
        for id in changedWhileLoading ?? [] { refresh(reminderID: id) }
        restoreSnoozes()
        restoreOpenWindows(now: context.clock.now())
        restoreSkippedAhead(reminderID: nil, now: context.clock.now())
        // Armed for the schedule just read: after an import (of Loop's data, of a calendar) the first new firing
        // would otherwise wait for whatever wake-up the old schedule had, and come late.
        replan()
        return count
    }

    /// The schedule of the loaded reminders, and how many there were.
    @concurrent
    private static func buildScheduler(_ loaded: [[(StoredReminder, ReminderRule?)]], context: DaemonContext) async -> (Scheduler, Int) {
        var scheduler = Scheduler()
        var count = 0
        scheduler.reserveCapacity(loaded.map(\.count).reduce(0, +))
        for (reminder, rule) in loaded.joined() {
            count += 1
            if count % loadChunk == 0 { await yieldToQueuedWork() }
            // The error itself is not needed: the warning says which reminder and that it is left out.
            guard let rule, let zone = try? context.zone(named: reminder.timeZone) else {
                context.say(.warning, "Reminder \(reminder.name) (id \(reminder.id!)) cannot be scheduled: its rule or zone is invalid now")
                continue
            }
            scheduler.schedule(
                SchedulableReminder(
                    id: reminder.id!, name: reminder.name, rule: rule, zone: zone, windowSeconds: reminder.windowSeconds, delivery: reminder.delivery),
                handledThrough: Instant(secondsSinceEpoch: reminder.handledThrough))
        }
        return (scheduler, count)
    }

    /// Loads the skips of occurrences not handled yet, of one reminder or all: what `next` passes over. (A
    /// firing reads its own skips when it comes due, so a failed read here changes only what `next` lists.)
    private func restoreSkippedAhead(reminderID: Int64?, now: Instant) {
        let ids = reminderID.map { [$0] }
        let skips: [Int64: Set<Instant>]
        do {
            skips = try context.store.firings.skips(from: now.adding(seconds: -2 * 86400), through: .endOfTime, reminderIDs: ids)
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
    private func restoreSnoozes() {
        let stored: [SnoozeRecord]
        do {
            stored = try context.store.firings.snoozes()
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
    private func restoreOpenWindows(now: Instant) {
        let since = now.adding(seconds: -2 * 86400)
        let announced: [FiringRecord]
        do {
            announced = try context.store.firings.announcedFirings(since: since)
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

    /// Restored windows without those that closed with the occurrence taken or decided (missed, skipped), found
    /// in one read of the logs and one of the outcomes: deciding each again, one at a time, was most of a
    /// start-up with a long history (12 of 108 ms with 30 occurrences a day). What cannot be read is kept, to
    /// be decided on its own (a closed window nothing settled is decided, recorded and announced as missed).
    private func withoutClosedAndSettled(_ open: [OpenOccurrence], since: Instant, now: Instant) -> [OpenOccurrence] {
        let ids = Array(Set(open.filter { $0.windowEnd <= now }.map(\.firing.reminder.id)))
        guard !ids.isEmpty else { return open }
        let logs: [Int64: [Instant]]
        let decided: [Int64: Set<Instant>]
        do {
            logs = try context.store.intake.instants(reminderIDs: ids, from: since.adding(seconds: -2 * 86400), through: now)
            decided = try context.store.firings.decided(from: since, through: now, reminderIDs: ids)
        } catch {
            return open
        }
        return open.filter { entry in
            let (reminder, occurrence) = (entry.firing.reminder, entry.firing.occurrence)
            guard entry.windowEnd <= now else { return true }
            if decided[reminder.id]?.contains(occurrence.instant) == true { return false }
            let status = reminder.rule.state(
                of: occurrence, in: reminder.zone, logs: logs[reminder.id] ?? [], skips: [], windowSeconds: reminder.windowSeconds, now: now)
            return status.state != .taken
        }
    }

    /// The enabled reminders read so far by a restore, by id (nil: gone, disabled, or not schedulable now).
    private typealias ReminderLookup = [Int64: SchedulableReminder?]

    /// A stored occurrence as a firing, with its reminder as it is now; nil when the reminder is gone or
    /// disabled, or its rule no longer has an occurrence at that instant.
    private func restoredFiring(
        _ reminderID: Int64, at scheduled: Instant, slotsDue: Int, lateSeconds: Int64 = 0, _ reminders: inout ReminderLookup
    ) -> DueFiring? {
        let reminder: SchedulableReminder?
        if let known = reminders[reminderID] {
            reminder = known
        } else {
            do {
                let stored = try context.store.reminders.find(String(reminderID))
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
            pending = try context.store.firings.unconfirmed()
        } catch {
            return context.say(.error, "Cannot read what was announced before the restart: \(error); it is looked up at the next start")
        }
        guard !pending.isEmpty else { return }
        let instance = storeInstance
        let firings = pending.firings.compactMap { record in record.id.map { (FiringsStore.announcementKey(instance: instance, firingID: $0), $0, record) } }
        let missed = pending.missed.compactMap { record in record.id.map { (FiringsStore.announcementKey(instance: instance, outcomeID: $0), $0, record) } }
        let again = pending.again.compactMap { record in
            record.id.map { (FiringsStore.announcementKey(instance: instance, firingID: $0, again: Instant(secondsSinceEpoch: record.lastAnnouncedAt ?? record.handledAt)), $0, record) }
        }
        let escalations = pending.escalations.compactMap { record in record.id.map { (FiringsStore.announcementKey(instance: instance, escalationOf: $0), $0, record) } }
        let found = context.ledger.announced(among: Set(firings.map(\.0) + missed.map(\.0) + again.map(\.0) + escalations.map(\.0)))
        var reminders = ReminderLookup()
        var announced = 0
        func restored(_ reminderID: Int64, _ scheduledAt: Int64, _ slot: String, slotsDue: Int = 1) -> DueFiring? {
            let scheduled = Instant(secondsSinceEpoch: scheduledAt)
            let late = now.secondsSinceEpoch - scheduledAt
            guard let firing = restoredFiring(reminderID, at: scheduled, slotsDue: slotsDue, lateSeconds: late, &reminders) else {
                context.say(.notice, "\(slot) was recorded before a restart but its reminder is gone or disabled now: not announced")
                return nil
            }
            announced += 1
            return firing
        }
        for (key, _, record) in firings where found?.contains(key) != true {
            guard let firing = restored(record.reminderId, record.scheduledAt, record.slot, slotsDue: record.slotsDue) else { continue }
            let kind: FiringEvent.Kind = switch record.kind {
            case .fired, .late: .late
            case .suppressed: .suppressed
            case .skipped: .skipped
            case .postponed: .postponed
            }
            let event = FiringEvent(
                kind: kind, firing: firing, handledAt: now, detail: record.detail, replanned: record.replanned > 0, record: key,
                reannounced: found == nil)
            context.announcer.announce(.firing(event))
            openWindow(of: event)
        }
        for (key, _, record) in missed where found?.contains(key) != true {
            guard let firing = restored(record.reminderId, record.scheduledAt, record.slot) else { continue }
            var event = OccurrenceEvent(
                state: .missed, firing: firing, windowEnd: firing.reminder.windowEnd(of: firing.occurrence),
                decidedAt: Instant(secondsSinceEpoch: record.decidedAt), record: key)
            event.reannounced = found == nil
            context.announcer.announce(.occurrence(event))
        }
        for (key, _, record) in again where found?.contains(key) != true {
            guard let firing = restored(record.reminderId, record.scheduledAt, record.slot), let number = record.againPending else { continue }
            let event = FiringEvent(
                kind: number == 0 ? .snoozed : .repeated, firing: firing, handledAt: now, repeatNumber: number == 0 ? nil : number, record: key,
                reannounced: found == nil)
            context.announcer.announce(.firing(event))
            lifecycle.announcedAfterRestart(OccurrenceKey(firing), at: now)
        }
        for (key, _, record) in escalations where found?.contains(key) != true {
            guard let firing = restored(record.reminderId, record.scheduledAt, record.slot), let at = record.escalatedAt else { continue }
            var event = EscalationEvent(firing: firing, at: Instant(secondsSinceEpoch: at))
            event.record = key
            context.announcer.announce(.escalation(event))
        }
        confirm(firings: firings.map(\.1), missed: missed.map(\.1), again: again.map(\.1), escalations: escalations.map(\.1))
        let count = firings.count + missed.count + again.count + escalations.count
        let how = found == nil ? "the journal cannot be read back, so all were announced again" : "\(announced) of them had not reached the journal and were announced now"
        context.say(.notice, "\(count) \(count == 1 ? "announcement was" : "announcements were") recorded before a restart but not confirmed: \(how)")
    }

    /// Confirms that recorded announcements went out. When the store refuses, they are looked up in the
    /// journal at the next start (and found there), so a refusal costs nothing but that look-up.
    private func confirm(firings: [Int64] = [], missed: [Int64] = [], again: [Int64] = [], escalations: [Int64] = []) {
        do {
            try context.store.firings.confirmAnnounced(firings: firings, missed: missed, again: again, escalations: escalations)
        } catch {
            let count = firings.count + missed.count + again.count + escalations.count
            context.say(.warning, "Could not confirm \(count) \(count == 1 ? "announcement" : "announcements") in the store: \(error); the next start looks them up in the journal")
        }
    }

    // MARK: Changes from the services

    /// Re-reads one reminder from the store and plans it as it is there now (removed or disabled: unplanned).
    /// The store is the truth: whatever order concurrent changes commit in, the last refresh sees the last one.
    func refresh(reminderID: Int64) {
        changedWhileLoading?.insert(reminderID)
        let reminder: StoredReminder?
        do {
            let found = try context.store.reminders.find(String(reminderID))
            reminder = found.id == reminderID && found.enabled ? found : nil
        } catch .notFound {
            reminder = nil
        } catch {
            // Unplanning it on a failed read would silence it: it keeps the plan it has until it can be read.
            context.say(.error, "Cannot read reminder \(reminderID) to plan it again: \(error); it keeps its plan until the next change or restart")
            return replan()
        }
        scheduler.remove(id: reminderID)
        timedFromLastDose.remove(reminderID)
        if reminder?.rule.fromLastDose == true { timedFromLastDose.insert(reminderID) }
        if let reminder {
            do {
                scheduler.schedule(try schedulable(reminder), handledThrough: Instant(secondsSinceEpoch: reminder.handledThrough))
            } catch {
                context.say(.warning, "Reminder \(reminder.name) (id \(reminderID)) cannot be scheduled: \(error.message)")
            }
        } else {
            lifecycle.removeReminder(reminderID)
        }
        replan()
    }

    /// Announces an occurrence (due, or upcoming: then it is postponed) again at `due`; it replaces an earlier
    /// snooze of the occurrence and survives a restart.
    /// - Returns: when the snooze it replaced was due.
    func snooze(_ firing: DueFiring, until due: Instant) throws(StoreError) -> Instant? {
        try context.store.firings.setSnooze(reminderID: firing.reminder.id, scheduledAt: firing.occurrence.instant, dueAt: due)
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
            if settledNow, status.state == .taken || status.state == .skipped {
                context.announcer.announce(.occurrence(OccurrenceEvent(
                    state: status.state, firing: entry.firing, windowEnd: entry.windowEnd, decidedAt: now, loggedAt: status.coveredBy,
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

    /// Sets or clears another service's wake-up.
    func setWakeUp(_ wakeUp: WakeUp, at instant: Instant?) {
        wakeUps[wakeUp] = instant
        replan()
    }

    /// The wall clock was set, or the daemon is starting: when the clock is now behind the last slot handled
    /// (it was ahead, and was corrected), every slot that is in the future again is planned again, in the
    /// store first (a restart must not silence them) and then here. Nothing is silenced for good by a clock
    /// that was once wrong; a slot handled twice this way is recorded twice, the second marked re-planned.
    func clockChanged(now: Instant) {
        let rewound: Int
        do {
            rewound = try context.store.firings.rewindHandled(to: now)
        } catch {
            return context.say(.error, "The clock may have gone back, but the store cannot re-plan the reminders handled past now: \(error); they are re-planned at the next restart")
        }
        guard rewound > 0 else { return }
        scheduler.rewind(to: now)
        context.say(.notice, "The clock is now before the last firing handled: \(rewound) \(rewound == 1 ? "reminder" : "reminders") planned again from \(now); their slots after now fire again")
        replan()
    }

    /// The system zone changed: reminders that follow it are re-planned from now (nothing fires twice).
    func systemZoneChanged(now: Instant) {
        replanFromNow(now: now) { $0.timeZone == nil }
    }

    /// The zone files changed (a tzdata update): every reminder is re-planned from now with its zone's new
    /// rules (nothing fires twice). Returns how many were re-planned.
    func zoneRulesChanged(now: Instant) -> Int {
        replanFromNow(now: now) { _ in true }
    }

    /// Re-plans the enabled reminders that `affected` picks from `now` (or from what was handled, if later).
    @discardableResult
    private func replanFromNow(now: Instant, _ affected: (StoredReminder) -> Bool) -> Int {
        let stored: [StoredReminder]
        do {
            stored = try context.store.reminders.all()
        } catch {
            context.say(.error, "Cannot read the reminders to plan them again: \(error); they keep their plans until the next change or restart")
            return 0
        }
        var replanned = 0
        for reminder in stored where reminder.enabled && affected(reminder) {
            // One whose rule or zone cannot be used now keeps its plan (load and refresh say why).
            guard let id = reminder.id, let schedulable = try? schedulable(reminder) else { continue }
            scheduler.remove(id: id)
            scheduler.schedule(schedulable, handledThrough: max(now, Instant(secondsSinceEpoch: reminder.handledThrough)))
            replanned += 1
        }
        replan()
        return replanned
    }

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
                return snoozes[key] == nil && !skippedAhead.contains(key)
            }
            .map { Upcoming(reminder: $0.0, occurrence: $0.1, at: $0.1.instant, snoozed: false) }
        let snoozed = snoozes.values.map { Upcoming(reminder: $0.firing.reminder, occurrence: $0.firing.occurrence, at: $0.due, snoozed: true) }
        return Array((planned + snoozed).sorted { ($0.at, $0.reminder.id) < ($1.at, $1.reminder.id) }.prefix(count))
    }

    /// The one-line state for STATUS= and Status(): `3 reminders, next: Vitamin D at Sun 09:00`.
    func statusLine() -> String {
        Self.statusLine(planned: plannedLine(), waiting: waitingLine(), store: context.store)
    }

    /// What the `Status` method reports, as of the last re-plan, read without waiting for this actor: a status
    /// call answers at once during a burst of thousands of firings (the next firing is then the burst's).
    nonisolated func publishedStatus() -> (next: (SchedulableReminder, Occurrence)?, line: String) {
        let published = published.withLock { $0 }
        return (published.next, Self.statusLine(planned: published.planned, waiting: published.waiting, store: context.store))
    }

    private static func statusLine(planned: String, waiting: String?, store: ReminderStore) -> String {
        if let waiting { return "\(waiting); \(planned)" }
        if let problem = store.fileProblem { return "Cannot write: \(problem); \(planned)" }
        return planned
    }

    private func waitingLine() -> String? {
        storeRetry.map { "Cannot record firings (\(unrecorded.count + undecided.count) waiting, retrying): \($0.reason)" }
    }

    private func plannedLine() -> String {
        let count = scheduler.count
        let noun = count == 1 ? "reminder" : "reminders"
        let next = scheduler.nextFiring()
        // A snooze due first is what comes next (the line named the reminder after it).
        if let snooze = lifecycle.snoozes.values.min(by: { $0.due < $1.due }), next.map({ snooze.due <= $0.1.instant }) ?? true {
            let reminder = snooze.firing.reminder
            return "\(count) \(noun), next: \(reminder.name) (snoozed) at \(FiringWording.when(reminder.zone, snooze.due))"
        }
        guard let (reminder, occurrence) = next else { return "\(count) \(noun), none scheduled" }
        return "\(count) \(noun), next: \(reminder.name) at \(FiringWording.when(occurrence))"
    }

    /// The earliest pending snooze of a reminder, as of the last re-plan, read without waiting for this actor.
    nonisolated func pendingSnooze(of reminderID: Int64) -> OccurrenceLifecycle.Snooze? {
        published.withLock { $0.snoozes[reminderID] }
    }

    // MARK: Time

    /// Handles everything due at `now`, re-arms the wake-up and reports the status.
    /// - Parameter afterDowntime: the daemon is starting: what is due was missed while it was not running.
    /// - Returns: the other services' wake-ups that came due (they are cleared; their owners set the next).
    func tick(now: Instant, afterDowntime: Bool = false) async -> [WakeUp] {
        if let retry = storeRetry, retry.at <= now { recordWaiting(now: now) }
        // Windows first: at 20:00 the morning's occurrence is missed (and stops repeating), then the evening's
        // fires.
        for action in lifecycle.windowsClosed(at: now) { perform(action, now: now) }
        // A burst (thousands due at one instant) is taken and handled in chunks, letting other work (a call, a
        // Watch stream) run between them. A reload meanwhile may plan a slot of the burst again: the store
        // records a slot once, and only what it recorded is announced.
        while true {
            let due = scheduler.takeDue(now: now, limit: Self.burstChunk)
            handle(due, now: now, afterDowntime: afterDowntime)
            guard due.count == Self.burstChunk else { break }
            await yieldToQueuedWork()
        }
        for action in lifecycle.againDue(at: now) { perform(action, now: now) }
        for action in lifecycle.escalationsDue(at: now) { perform(action, now: now) }
        let dueWakeUps = WakeUp.allCases.filter { wakeUps[$0].map { $0 <= now } ?? false }
        for wakeUp in dueWakeUps { wakeUps[wakeUp] = nil }
        replan()
        return dueWakeUps
    }

    private func replan() {
        let deadlines = [scheduler.nextDeadline(), lifecycle.nextDeadline, storeRetry?.at] + wakeUps.values.map { Optional($0) }
        context.clock.wake(at: deadlines.compactMap { $0 }.min())
        let snoozes = Dictionary(lifecycle.snoozes.values.map { ($0.firing.reminder.id, $0) }) { $0.due <= $1.due ? $0 : $1 }
        published.withLock { $0 = Published(next: scheduler.nextFiring(), planned: plannedLine(), waiting: waitingLine(), snoozes: snoozes) }
        let status = statusLine()
        if status != lastStatus {
            statusReporter.status(status)
            lastStatus = status
        }
    }

    /// Handles firings due together: one read of their logs, one write for their records, then each announced.
    /// When the logs cannot be read, nothing is decided on a guess (a logged dose would be announced): the
    /// firings wait, undecided, with those the store refused to record, and are tried again.
    private func handle(_ firings: [DueFiring], now: Instant, afterDowntime: Bool) {
        guard let earliest = firings.map(\.occurrence.instant).min(), let latest = firings.map(\.occurrence.instant).max() else { return }
        guard undecided.isEmpty && unrecorded.isEmpty else { return undecided += firings.map { ($0, afterDowntime) } }  // keep the order
        let ids = Array(Set(firings.map(\.reminder.id)))
        let logs: [Int64: [Instant]]
        let skips: [Int64: Set<Instant>]
        do {
            logs = try context.store.intake.instants(reminderIDs: ids, from: earliest.adding(seconds: -2 * 86400), through: latest)
            skips = skipsKnown ? [:] : try context.store.firings.skips(from: earliest, through: latest, reminderIDs: ids)
        } catch {
            undecided += firings.map { ($0, afterDowntime) }
            storeRetry = (now.adding(seconds: Self.storeRetrySeconds), error.description)
            let which = firings[0].slotID + (firings.count > 1 ? " and \(firings.count - 1) more" : "")
            context.say(.error, "Could not read the intake logged for \(which), so it is not announced yet (it may have been taken): \(error); trying again every \(Self.storeRetrySeconds) s")
            return
        }
        record(firings.map { firing in
            let from = firing.occurrence.instant.adding(seconds: -2 * 86400)
            let own = (logs[firing.reminder.id] ?? []).filter { $0 >= from && $0 <= firing.occurrence.instant }
            let skipped = skippedAhead.contains(OccurrenceKey(firing)) || skips[firing.reminder.id]?.contains(firing.occurrence.instant) == true
            return event(for: firing, logs: own, skipped: skipped, now: now, afterDowntime: afterDowntime)
        })
    }

    /// What becomes of a due firing: announced (on time or late), suppressed by a log, skipped, or postponed.
    private func event(for firing: DueFiring, logs: [Instant], skipped: Bool, now: Instant, afterDowntime: Bool) -> FiringEvent {
        let action = scheduler.action(for: firing, logs: logs, catchUpEnabled: context.configuration.catchUp, afterDowntime: afterDowntime)
        switch action {
        case .fire, .catchUp:
            skippedAhead.remove(OccurrenceKey(firing))
            if skipped {
                // The reason only words the record: when it cannot be read, the skip is recorded without it.
                let reason = (try? skipReason(of: firing)) ?? nil
                return FiringEvent(kind: .skipped, firing: firing, handledAt: now, detail: "skipped by the user" + (reason.map { $0.isEmpty ? "" : ": \($0)" } ?? ""))
            }
            if let snooze = lifecycle.snoozes[OccurrenceKey(firing)] {
                let until = FiringWording.when(firing.reminder.zone, snooze.due)
                return FiringEvent(kind: .postponed, firing: firing, handledAt: now, detail: "snoozed until \(until)")
            }
            if let calendar = firing.reminder.delivery.calendar,
                case .heldBack(let first) = calendarFloodGate.admit(calendar: calendar, at: firing.occurrence.instant) {
                let bound = "more than \(CalendarFloodGate.perMinute) alarms in a minute"
                if first {
                    context.say(.warning, """
                        Calendar '\(calendar)': its alarms come \(bound); those beyond are recorded, not announced, until it calms \
                        (an item or a subscription floods: 'remindctl next' shows its alarms)
                        """)
                }
                return FiringEvent(kind: .suppressed, firing: firing, handledAt: now, detail: "held back: calendar '\(calendar)' has \(bound)")
            }
        case .suppress, .skipMissed: break
        }
        switch action {
        case .fire: return FiringEvent(kind: .fired, firing: firing, handledAt: now)
        case .catchUp: return FiringEvent(kind: .late, firing: firing, handledAt: now)
        case .suppress(_, let reason): return FiringEvent(kind: .suppressed, firing: firing, handledAt: now, detail: reason)
        case .skipMissed: return FiringEvent(kind: .skipped, firing: firing, handledAt: now, detail: "catch-up is off")
        }
    }

    /// Records the firings durably (in one transaction, unconfirmed), announces them, then confirms them: a
    /// crash before the record loses nothing (the slot is still due at the next start), one after it leaves
    /// them unconfirmed, and the next start announces each one the journal does not have
    /// (``announceUnconfirmed(now:)``). When the store refuses the write the firings wait, unannounced, and
    /// are tried again (announcing a slot the store does not know would announce it again after a restart).
    private func record(_ events: [FiringEvent]) {
        guard let first = events.first else { return }
        guard unrecorded.isEmpty else { return unrecorded += events }  // keep the order
        let recorded: [FiringsStore.FiringRecorded]
        do {
            recorded = try context.store.firings.recordFirings(events.map { (FiringRecord($0), max($0.firing.occurrence.instant, $0.handledAt)) })
        } catch {
            unrecorded += events
            storeRetry = (first.handledAt.adding(seconds: Self.storeRetrySeconds), error.description)
            let which = first.firing.slotID + (events.count > 1 ? " and \(events.count - 1) more" : "")
            context.say(.error, "Could not record firing \(which), so it is not announced yet: \(error); trying again every \(Self.storeRetrySeconds) s")
            return
        }
        confirm(firings: zip(events, recorded).compactMap { announce($0, $1) })
    }

    /// Announces a recorded firing (a re-planned one says so); a slot the store had already handled is not.
    /// An announced occurrence's window opens.
    /// - Returns: the record's id when it was announced (to be confirmed).
    private func announce(_ event: FiringEvent, _ recorded: FiringsStore.FiringRecorded) -> Int64? {
        guard case .recorded(let id, let replanned) = recorded else { return nil }
        var event = event
        event.replanned = replanned
        event.record = FiringsStore.announcementKey(instance: storeInstance, firingID: id)
        context.announcer.announce(.firing(event))
        openWindow(of: event)
        return id
    }

    /// An announced (or postponed) occurrence's window opens: it repeats, and is decided when it closes.
    private func openWindow(of event: FiringEvent) {
        guard [.fired, .late, .postponed].contains(event.kind) else { return }
        lifecycle.opened(event.firing, at: event.handledAt)
    }

    /// Performs what the lifecycle decided.
    private func perform(_ action: OccurrenceLifecycle.Action, now: Instant) {
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
    private func announceAgain(_ firing: DueFiring, _ again: OccurrenceLifecycle.Again, now: Instant) {
        let state = readState(of: firing, now: now)?.state
        let key = OccurrenceKey(firing)
        guard lifecycle.stateRead(state, for: firing, again: again, now: now, retrySeconds: Self.storeRetrySeconds) else {
            // Settled: its stored snooze is done with. Unread: it stays, and is tried again.
            if again == .snoozed, state != nil { forgetStoredSnooze(key) }
            return
        }
        let repeatNumber: Int? = if case .repeated(let number) = again { number } else { nil }
        var event = FiringEvent(kind: repeatNumber == nil ? .snoozed : .repeated, firing: firing, handledAt: now, repeatNumber: repeatNumber)
        let noted: Int64?
        do {
            noted = try context.store.firings.noteAnnouncedAgain(
                reminderID: key.reminderID, scheduledAt: key.scheduledAt, at: now, repeats: lifecycle.open[key]?.repeatsSent ?? 0,
                repeatNumber: repeatNumber)
        } catch {
            // The note is for a crash's sake: the announcement goes out without it (a restart then repeats the
            // snooze still stored, or the repeat counted from the last note).
            context.say(.warning, "Could not note that \(firing.slotID) is announced again: \(error)")
            noted = nil
        }
        event.record = noted.map { FiringsStore.announcementKey(instance: storeInstance, firingID: $0, again: now) }
        context.announcer.announce(.firing(event))
        if let noted { confirm(again: [noted]) }
    }

    /// Escalates an occurrence still due at its reminder's `--escalate-after` delay (the lifecycle has marked it
    /// done), once across kills and restarts, as a firing is announced: noted in its firing record first (neither
    /// a restart nor its window's end escalates it again), announced with its key (the escalation command runs),
    /// then confirmed; a crash between is looked up in the journal at the next start. Taken or skipped meanwhile,
    /// or unread (not on a guess), it is left to the window's end: escalated then if missed.
    private func escalate(_ firing: DueFiring, now: Instant) {
        let key = OccurrenceKey(firing)
        guard readState(of: firing, now: now)?.state == .due else { return lifecycle.escalationPassedOver(key) }
        var event = EscalationEvent(firing: firing, at: now)
        let noted: Int64?
        do {
            noted = try context.store.firings.noteEscalated(reminderID: key.reminderID, scheduledAt: key.scheduledAt, at: now)
        } catch {
            noted = nil
            context.say(.warning, "Could not note that \(firing.slotID) was escalated: \(error); a restart before its window ends escalates it again")
        }
        event.record = noted.map { FiringsStore.announcementKey(instance: storeInstance, escalationOf: $0) }
        context.announcer.announce(.escalation(event))
        if let noted { confirm(escalations: [noted]) }
    }

    /// Forgets a snooze in the store (the lifecycle has forgotten it already).
    private func forgetStoredSnooze(_ key: OccurrenceKey) {
        // A stored snooze that could not be removed is harmless: after a restart it announces the occurrence
        // only if it is still due then.
        try? context.store.firings.removeSnooze(reminderID: key.reminderID, scheduledAt: key.scheduledAt)
    }

    /// The state of an occurrence now, from the store's logs and skips, with the reason of a skip.
    private func currentState(of firing: DueFiring, now: Instant) throws(StoreError) -> (status: OccurrenceStatus, skipReason: String?) {
        let reminder = firing.reminder
        let scheduled = firing.occurrence.instant
        let windowEnd = reminder.windowEnd(of: firing.occurrence)
        let logs = try context.store.intake.instants(reminderID: reminder.id, from: scheduled.adding(seconds: -2 * 86400), through: windowEnd)
        let reason = try skipReason(of: firing)
        let status = reminder.rule.state(
            of: firing.occurrence, in: reminder.zone, logs: logs, skips: reason != nil ? [scheduled] : [], windowSeconds: reminder.windowSeconds, now: now)
        return (status, reason)
    }

    /// ``currentState(of:now:)``, or nil (said in the journal) when the store cannot be read.
    private func readState(of firing: DueFiring, now: Instant) -> (state: OccurrenceState, coveredBy: Instant?, skipReason: String?)? {
        do {
            let (status, reason) = try currentState(of: firing, now: now)
            return (status.state, status.coveredBy, reason)
        } catch {
            context.say(.error, "Cannot read whether \(firing.slotID) was taken or skipped: \(error); it is not announced until that can be read")
            return nil
        }
    }

    /// The user's reason for skipping an occurrence ("" when none was given), or nil when it was not skipped.
    private func skipReason(of firing: DueFiring) throws(StoreError) -> String? {
        let instant = firing.occurrence.instant
        let outcomes = try context.store.firings.outcomes(reminderID: firing.reminder.id, from: instant, through: instant)
        return outcomes.first { $0.state == .skipped }.map { $0.reason ?? "" }
    }

    /// Decides an occurrence whose window closed: unless a log took it or the user skipped it, it is missed,
    /// recorded, then announced; once, across restarts (the record is unique). A store that refuses the write
    /// is tried again later.
    private func decide(_ firing: DueFiring, windowEnd: Instant, escalated: Bool, now: Instant) {
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
            guard let recorded = try context.store.firings.recordOutcome(record) else { return }
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
    private func recordWaiting(now: Instant) {
        while let event = unrecorded.first {
            var retried = FiringEvent(kind: event.kind, firing: waited(event.firing, now: now), handledAt: now, detail: event.detail)
            if retried.kind == .fired && retried.firing.lateSeconds > scheduler.onTimeToleranceSeconds { retried.kind = .late }
            do {
                let recorded = try context.store.firings.recordFiring(FiringRecord(retried), handledThrough: max(retried.firing.occurrence.instant, now))
                unrecorded.removeFirst()
                if let id = announce(retried, recorded) { confirm(firings: [id]) }
            } catch {
                storeRetry = (now.adding(seconds: Self.storeRetrySeconds), error.description)
                return
            }
        }
        let waiting = undecided
        undecided = []
        storeRetry = nil
        // In runs of the same kind (due at start, or while running), in their order.
        var start = waiting.startIndex
        while start < waiting.endIndex {
            let afterDowntime = waiting[start].afterDowntime
            let end = waiting[start...].firstIndex { $0.afterDowntime != afterDowntime } ?? waiting.endIndex
            handle(waiting[start..<end].map { waited($0.firing, now: now) }, now: now, afterDowntime: afterDowntime)
            start = end
        }
        guard storeRetry == nil else { return }
        context.say(.notice, "The store answers again; every waiting firing was handled")
    }

    /// A firing that waited for the store, with its lateness as of now.
    private func waited(_ firing: DueFiring, now: Instant) -> DueFiring {
        DueFiring(
            reminder: firing.reminder, occurrence: firing.occurrence, slotsDue: firing.slotsDue,
            lateSeconds: now.secondsSinceEpoch - firing.occurrence.instant.secondsSinceEpoch)
    }

    func schedulable(_ reminder: StoredReminder) throws(ServiceError) -> SchedulableReminder {
        let rule = try context.firingRule(of: reminder)
        return SchedulableReminder(
            id: reminder.id!, name: reminder.name, rule: rule, zone: try context.zone(named: reminder.timeZone), windowSeconds: reminder.windowSeconds,
            delivery: reminder.delivery)
    }
}

extension FiringRecord {
    /// The stored record of a handled slot (a snoozed repeat is stored as the firing it repeats).
    init(_ event: FiringEvent) {
        let kind: FiringRecord.Kind
        switch event.kind {
        case .fired, .snoozed, .repeated: kind = .fired
        case .postponed: kind = .postponed
        case .late: kind = .late
        case .suppressed: kind = .suppressed
        case .skipped: kind = .skipped
        }
        let firing = event.firing
        self.init(
            reminderId: firing.reminder.id, reminderName: firing.reminder.name, slot: firing.slotID,
            scheduledAt: firing.occurrence.instant.secondsSinceEpoch, handledAt: event.handledAt.secondsSinceEpoch, kind: kind,
            lateSeconds: firing.lateSeconds, slotsDue: firing.slotsDue, detail: event.detail)
        replanned = event.replanned ? 1 : 0
    }
}
