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
        /// The collection's upkeep: the occurrence tasks' window takes in or lets go of an occurrence, or a month
        /// of logs becomes old enough to fold.
        case collectionUpkeep
        /// The collection's items found gone are applied as deletions (``PendingRemovals``).
        case collectionRemovals
    }

    /// The next instant an announced occurrence is announced again or decided (a repeat, a snooze, the end of
    /// its window), if any.
    var nextDecision: Instant? { lifecycle.nextDeadline }

    /// The last announcement of the newest occurrence still waiting for its dose, if any (``SyncPace``).
    var newestWaitingAnnouncement: Instant? { lifecycle.newestWaitingAnnouncement }

    /// When a wake-up is set for.
    func wakeUp(_ wakeUp: WakeUp) -> Instant? { wakeUps[wakeUp] }

    /// Firings due together that are recorded in one transaction and announced before other work may run.
    static let burstChunk = 500

    /// How long to wait before trying the store again.
    static var storeRetrySeconds: Int64 { StoreRetryQueue<FiringEvent>.retrySeconds }

    let context: DaemonContext
    /// The stores it holds: the firings it writes; the reminders and logs it plans and suppresses by, read.
    let stores: Stores
    let statusReporter: any StatusReporter
    var scheduler = Scheduler()
    /// The notices before occurrences (`--before`), planned from now (see SchedulingHeadsUps.swift).
    var headsUps = HeadsUpPlan()
    /// The status as of the last re-plan (see ``publishedStatus()``).
    struct Published: Sendable {
        var next: (SchedulableReminder, Occurrence)?
        var planned = "starting"
        var waiting: String?
        /// The earliest pending snooze of each reminder that has one, by reminder id.
        var snoozes: [Int64: OccurrenceLifecycle.Snooze] = [:]
    }
    nonisolated let published = Mutex(Published())
    /// Announced (or postponed) occurrences whose window is open, and pending snoozes: while due they are
    /// announced again by their snooze or repeats; when the window closes each is decided, and a missed one
    /// recorded and announced once. The decisions are the pure ``OccurrenceLifecycle``'s; this actor reads
    /// the store for them and performs them.
    var lifecycle = OccurrenceLifecycle()
    /// How many alarms each calendar announced in the last minute (a calendar's alarms together are bounded).
    var calendarFloodGate = CalendarFloodGate()
    var wakeUps: [WakeUp: Instant] = [:]
    /// Occurrences the user skipped before they came due (they are recorded skipped, not announced, and `next`
    /// passes over them); kept here so that a firing asks the store for its skip only when there is one.
    var skippedAhead: Set<OccurrenceKey> = []
    /// Confirmations whose entries are sent, held while more are queued behind them.
    let heldConfirmations = HeldConfirmations()
    /// Why each occurrence waiting for a medicine it is kept apart from waits, to say when it is announced (in
    /// memory only: after a restart it is announced without the reason, which its postponed record keeps).
    var keptApart: [OccurrenceKey: DoseGaps.Hold] = [:]
    /// Whether ``skippedAhead`` holds every skip (its last load worked): a firing then needs no read of its own
    /// (a query per chunk of a burst of 10,000 cost 20 reads), else it reads its skips with its logs.
    var skipsKnown = false
    /// While a load reads the store (other calls run meanwhile): the reminders changed since it began, planned
    /// again once the loaded schedule is in place, so that the load does not undo them.
    var changedWhileLoading: Set<Int64>?
    /// The reminders timed from their last dose (`--from-last-dose`): a log re-plans them.
    var timedFromLastDose: Set<Int64> = []
    /// Firings waiting for the store (their logs unread, or their records refused), in order; each is announced
    /// once its record is durable, so that no slot is announced and then forgotten.
    var waitingForStore = StoreRetryQueue<FiringEvent>()
    /// The last status reported: it is reported only when it changes (sd_notify blocks when the manager lags).
    var lastStatus: String?
    /// The store's instance id (read at load): with a firing's row id, the key the journal keeps it under.
    var storeInstance = ""

    init(context: DaemonContext, stores: Stores, statusReporter: any StatusReporter) {
        self.context = context
        self.stores = stores
        self.statusReporter = statusReporter
    }

    // MARK: Loading

    /// Loads every enabled reminder and its snoozes and plans each next firing; missed firings become due.
    /// Read and built by ``ScheduleLoader`` (in parallel parts, off this actor).
    /// - Returns: the number of enabled reminders loaded.
    @discardableResult
    func load() async throws(StoreError) -> Int {
        storeInstance = try stores.firings.instanceID()
        clockChanged(now: context.clock.now())
        changedWhileLoading = []
        defer { changedWhileLoading = nil }
        let loaded = try await scheduleLoader.load()
        // Replaced only once everything was read: a load that fails keeps the schedule there was; a firing
        // during a reload is handled on time by the schedule there was (and the store's handledThrough keeps
        // the new schedule from announcing it again).
        scheduler = loaded.scheduler
        headsUps = loaded.headsUps
        timedFromLastDose = loaded.timedFromLastDose
        for row in stores.reminders.takeUnusableRows() {
            context.say(.warning, "A stored reminder cannot be used and is left out (it does not fire): \(row); restore a backup, or remove the row by hand while remindd is stopped")
        }
        for id in changedWhileLoading ?? [] { refresh(reminderID: id) }
        restoreSnoozes()
        restoreOpenWindows(now: context.clock.now())
        restoreSkippedAhead(reminderID: nil, now: context.clock.now())
        // Armed for the schedule just read: after an import (of Loop's data, of a calendar) the first new firing
        // would otherwise wait for whatever wake-up the old schedule had, and come late.
        replan()
        return loaded.count
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
            rewound = try stores.firings.rewindHandled(to: now)
        } catch {
            return context.say(.error, "The clock may have gone back, but the store cannot re-plan the reminders handled past now: \(error); they are re-planned at the next restart")
        }
        guard rewound > 0 else { return }
        scheduler.rewind(to: now)
        context.say(.notice, DaemonMessages.clockBack, count: rewound, rewound, now)
        replan()
    }

    /// The zone files changed (a tzdata update): every reminder is re-planned from now with its zone's new
    /// rules (nothing fires twice). Returns how many were re-planned.
    func zoneRulesChanged(now: Instant) -> Int {
        replanFromNow(now: now) { _ in true }
    }

    /// Re-plans the enabled reminders that `affected` picks from `now` (or from what was handled, if later).
    @discardableResult
    func replanFromNow(now: Instant, _ affected: (StoredReminder) -> Bool) -> Int {
        let stored: [StoredReminder]
        do {
            stored = try stores.reminders.all()
        } catch {
            context.say(.error, "Cannot read the reminders to plan them again: \(error); they keep their plans until the next change or restart")
            return 0
        }
        var replanned = 0
        for reminder in stored where reminder.enabled && affected(reminder) {
            // One whose rule or zone cannot be used now keeps its plan (load and refresh say why).
            guard let schedulable = try? schedulable(reminder) else { continue }
            scheduler.remove(id: reminder.id)
            scheduler.schedule(schedulable, handledThrough: max(now, Instant(secondsSinceEpoch: reminder.handledThrough)))
            headsUps.plan(schedulable, after: now)
            replanned += 1
        }
        replan()
        return replanned
    }

    // MARK: Time

    /// Handles everything due at `now`, re-arms the wake-up and reports the status.
    /// - Parameter afterDowntime: the daemon is starting: what is due was missed while it was not running.
    /// - Returns: the other services' wake-ups that came due (they are cleared; their owners set the next).
    func tick(now: Instant, afterDowntime: Bool = false) async -> [WakeUp] {
        if waitingForStore.isDue(now: now) { recordWaiting(now: now) }
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
        giveHeadsUps(now: now)
        let dueWakeUps = WakeUp.allCases.filter { wakeUps[$0].map { $0 <= now } ?? false }
        for wakeUp in dueWakeUps { wakeUps[wakeUp] = nil }
        replan()
        return dueWakeUps
    }

    func replan() {
        // Those that write to the store (the other services' wake-ups are theirs).
        let writes = [scheduler.nextDeadline(), lifecycle.nextDeadline, waitingForStore.retry?.at, headsUps.nextDeadline()].compactMap { $0 }.min()
        context.clock.wake(at: ([writes] + wakeUps.values.map { Optional($0) }).compactMap { $0 }.min())
        context.lulls.planned(nextWrite: writes, now: context.clock.now())
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
    func handle(_ firings: [DueFiring], now: Instant, afterDowntime: Bool) {
        guard let earliest = firings.map(\.occurrence.instant).min(), let latest = firings.map(\.occurrence.instant).max() else { return }
        guard waitingForStore.admit(firings, afterDowntime: afterDowntime) else { return }  // behind those waiting
        let ids = Array(Set(firings.map(\.reminder.id)))
        let logs: [Int64: [Instant]]
        let skips: [Int64: Set<Instant>]
        do {
            logs = try stores.intake.instants(reminderIDs: ids, from: earliest.adding(seconds: -2 * 86400), through: latest)
            skips = skipsKnown ? [:] : try stores.firings.skips(from: earliest, through: latest, reminderIDs: ids)
        } catch {
            waitingForStore.readFailed(firings, afterDowntime: afterDowntime, now: now, reason: error.description)
            let which = firings[0].slotID + (firings.count > 1 ? " and \(firings.count - 1) more" : "")
            context.say(.error, "Could not read the intake logged for \(which), so it is not announced yet (it may have been taken): \(error); trying again every \(Self.storeRetrySeconds) s")
            return
        }
        record(firings.map { firing in
            let from = firing.occurrence.instant.adding(seconds: -2 * 86400)
            let own = (logs[firing.reminder.id] ?? []).filter { $0 >= from && $0 <= firing.occurrence.instant }
            let skipped = skippedAhead.contains(OccurrenceKey(firing)) || skips[firing.reminder.id]?.contains(firing.occurrence.instant) == true
            return keepingApart(event(for: firing, logs: own, skipped: skipped, now: now, afterDowntime: afterDowntime), now: now)
        })
    }

    /// What becomes of a due firing (``FiringDecision``), as the event to record and announce.
    func event(for firing: DueFiring, logs: [Instant], skipped: Bool, now: Instant, afterDowntime: Bool) -> FiringEvent {
        let action = scheduler.action(for: firing, logs: logs, catchUpEnabled: context.settings.configuration.catchUp, afterDowntime: afterDowntime)
        let key = OccurrenceKey(firing)
        if action.announces { skippedAhead.remove(key) }
        // The reason only words the record: when it cannot be read, the skip is recorded without it.
        let decision = FiringDecision.decide(
            action, skipped: skipped, skipReason: { (try? skipReason(of: firing)) ?? nil },
            paused: firing.reminder.delivery.pause.span(covering: firing.occurrence.instant), snoozedUntil: lifecycle.snoozes[key]?.due,
            floodGate: &calendarFloodGate)
        switch decision {
        case .announce(let late): return FiringEvent(kind: late ? .late : .fired, firing: firing, handledAt: now)
        case .suppressed(let reason): return FiringEvent(kind: .suppressed, firing: firing, handledAt: now, detail: reason)
        case .skippedMissed: return FiringEvent(kind: .skipped, firing: firing, handledAt: now, detail: "catch-up is off")
        case .skippedByUser(let reason):
            return FiringEvent(kind: .skipped, firing: firing, handledAt: now, detail: "skipped by the user" + (reason.map { $0.isEmpty ? "" : ": \($0)" } ?? ""))
        case .paused(let span):
            let until = FiringWording.english.when(firing.reminder.zone, span.until)
            return FiringEvent(kind: .skipped, firing: firing, handledAt: now, detail: "paused until \(until)" + (span.reason.map { ": \($0)" } ?? ""))
        case .postponed(let due):
            return FiringEvent(kind: .postponed, firing: firing, handledAt: now, detail: "snoozed until \(FiringWording.english.when(firing.reminder.zone, due))")
        case .heldBack(let calendar, let first):
            let bound = "more than \(CalendarFloodGate.perMinute) alarms in a minute"
            if first {
                context.say(.warning, """
                    Calendar '\(calendar)': its alarms come \(bound); those beyond are recorded, not announced, until it calms \
                    (an item or a subscription floods: 'remindctl next' shows its alarms)
                    """)
            }
            return FiringEvent(kind: .suppressed, firing: firing, handledAt: now, detail: "held back: calendar '\(calendar)' has \(bound)")
        }
    }

    /// Records the firings durably (in one transaction, unconfirmed), announces them, then confirms them: a
    /// crash before the record loses nothing (the slot is still due at the next start), one after it leaves
    /// them unconfirmed, and the next start announces each one the journal does not have
    /// (``announceUnconfirmed(now:)``). When the store refuses the write the firings wait, unannounced, and
    /// are tried again (announcing a slot the store does not know would announce it again after a restart).
    func record(_ events: [FiringEvent]) {
        guard let first = events.first else { return }
        guard waitingForStore.admit(events) else { return }  // behind those waiting
        let recorded: [FiringsStore.FiringRecorded]
        do {
            recorded = try stores.firings.recordFirings(events.map { (FiringRecord($0), max($0.firing.occurrence.instant, $0.handledAt)) })
        } catch {
            waitingForStore.recordFailed(events, at: first.handledAt, reason: error.description)
            let which = first.firing.slotID + (events.count > 1 ? " and \(events.count - 1) more" : "")
            context.say(.error, "Could not record firing \(which), so it is not announced yet: \(error); trying again every \(Self.storeRetrySeconds) s")
            return
        }
        confirm(firings: announce(events, recorded))
    }

    /// Announces recorded firings, together (a re-planned one says so); a slot the store had already handled is
    /// not. An announced occurrence's window opens.
    /// - Returns: the ids of the records announced (to be confirmed).
    func announce(_ events: [FiringEvent], _ recorded: [FiringsStore.FiringRecorded]) -> [Int64] {
        var announced: [FiringEvent] = []
        var ids: [Int64] = []
        for (event, recorded) in zip(events, recorded) {
            guard case .recorded(let id, let replanned) = recorded else { continue }
            var event = event
            event.replanned = replanned
            event.record = FiringsStore.announcementKey(instance: storeInstance, firingID: id)
            announced.append(event)
            ids.append(id)
        }
        context.announce(firings: announced)
        for event in announced { openWindow(of: event) }
        return ids
    }

    /// An announced (or postponed) occurrence's window opens: it repeats, and is decided when it closes.
    func openWindow(of event: FiringEvent) {
        guard [.fired, .late, .postponed].contains(event.kind) else { return }
        lifecycle.opened(event.firing, at: event.handledAt)
    }

    func schedulable(_ reminder: StoredReminder) throws(ServiceError) -> SchedulableReminder {
        try ScheduleLoader.schedulable(reminder, context: context)
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

extension SchedulingService {
    /// The stores SchedulingService holds, and no other: the firings it writes; the reminders and logs it plans and
    /// suppresses by, read.
    struct Stores: Sendable {
        let firings: FiringsStore
        let reminders: RemindersStore
        let intake: IntakeStore
    }
}
