import HabitCore
import ReminderCore
import ReminderInterface
import ReminderScheduling
import ReminderStore

/// Reminders: add, change, remove, list; log an intake, snooze a firing, read the history.
///
/// Every operation validates fully before it writes (bad input changes nothing), writes to the store, then asks
/// ``SchedulingService`` to re-read what changed. "Now" is read once per call.
struct ReminderService: Sendable {
    let context: DaemonContext
    /// The stores it holds: the reminders and their logs.
    let stores: Stores
    let scheduling: SchedulingService
    /// Each goal's streak for a reply, and what a change to the logs does to habits: the habits'.
    let habits: any HabitPort
    /// How much a dose is and whether its limits allow it: medication's.
    let medication: any DosePolicy
    /// Other devices' doses brought in before a dose's limits are checked: the linked collection's.
    let freshness: any DoseFreshness

    func add(
        name: String, rule spec: RuleSpec, timeZone: String?, enabled: Bool, window: String? = nil, delivery change: Delivery.Change = .init()
    ) async throws(ServiceError) -> ReminderValue {
        let now = context.clock.now()
        let trimmed = try Self.checkedName(name)
        let delivery = try namingPartners(of: try Self.applying(change, to: Delivery(), adding: true), change, id: nil)
        let given = try fromNow(spec, now: now, zoneName: timeZone)
        let spec = try Self.checked { () throws(ReminderDefinition.Problem) in try ReminderDefinition.course(given.spec, delivery) }
        let rule = try Self.rule(spec)
        let timeZone = try Self.zoneName(given.fixedZone ?? timeZone, of: rule)
        let zone = try context.settings.zone(named: timeZone)
        let windowSeconds = try window.map { text throws(ServiceError) in try Self.windowSeconds(text) }
        try Self.checked { () throws(ReminderDefinition.Problem) in
            try ReminderDefinition(spec: spec, delivery: delivery, windowSeconds: windowSeconds).check(rule: rule, zone: zone, now: now)
        }
        let stored = try storing { () throws(StoreError) in
            try stores.reminders.add(
                name: trimmed, rule: spec, timeZone: timeZone, enabled: enabled, windowSeconds: windowSeconds, delivery: delivery, now: now)
        }
        await context.feed.deliver()
        return try value(of: stored, now: now)
    }

    func update(
        key: String, name: String?, rule spec: RuleSpec?, timeZone: String?, window: String? = nil, delivery change: Delivery.Change = .init()
    ) async throws(ServiceError) -> ReminderValue {
        var reminder = try ownReminder(key)
        // The end a course gave the rule (its last step's day), not the user's own.
        let courseEnd = reminder.delivery.medication.steps.map(\.lastDay.description).flatMap { $0 == reminder.rule.until ? $0 : nil }
        reminder.delivery = try namingPartners(of: try Self.applying(change, to: reminder.delivery, adding: false), change, id: reminder.id)
        if let window { reminder.windowSeconds = window.isEmpty ? nil : try Self.windowSeconds(window) }
        if let name { reminder.name = try Self.checkedName(name) }
        var fixedZone: String?
        if let spec {
            let given = try fromNow(spec, now: context.clock.now(), zoneName: timeZone.map { $0.isEmpty ? nil : $0 } ?? reminder.timeZone)
            _ = try Self.rule(given.spec)
            (reminder.rule, fixedZone) = (given.spec, given.fixedZone)
        }
        if let timeZone { reminder.timeZone = timeZone.isEmpty ? nil : timeZone }
        if let fixedZone { reminder.timeZone = fixedZone }
        if spec != nil || timeZone != nil {
            // A calendar expression's own zone is the reminder's, unless this update gives another.
            let named = try Self.zoneName(timeZone, of: try Self.rule(reminder.rule))
            if named != timeZone { reminder.timeZone = named }
            _ = try context.settings.zone(named: reminder.timeZone)
        }
        // A course changed or ended: the old course's end goes (the reminder goes on after an ended course; a
        // longer one is not cut short). A new rule, or a new course, ends with the course, as when added.
        if change.medication.steps != nil, spec == nil, courseEnd != nil { reminder.rule.until = nil }
        if change.medication.steps?.isEmpty == false || spec != nil {
            reminder.rule = try Self.checked { () throws(ReminderDefinition.Problem) in try ReminderDefinition.course(reminder.rule, reminder.delivery) }
        }
        // The checks this change can reach: a renamed reminder whose course ended is not refused for never firing.
        var checks: ReminderDefinition.Checks = [.escalation]
        if spec != nil || timeZone != nil || change.medication.steps?.isEmpty == false { checks.insert(.fires) }
        if change.notification.before != nil || spec != nil || timeZone != nil { checks.insert(.before) }
        let (rule, zone) = (try Self.rule(reminder.rule), try context.settings.zone(named: reminder.timeZone))
        let definition = ReminderDefinition(spec: reminder.rule, delivery: reminder.delivery, windowSeconds: reminder.windowSeconds)
        try Self.checked { () throws(ReminderDefinition.Problem) in try definition.check(checks, rule: rule, zone: zone, now: context.clock.now()) }
        return try await save(reminder)
    }

    /// `spec` with a one-shot given as a length from now (`once: "+20m"`) made a date-time by the daemon's clock
    /// at `now`, in the zone `zoneName` names: the clock the rule is then checked and scheduled by.
    /// - Returns: the spec, and the fixed offset's zone the reminder must then have where the zone named would
    ///   read the date-time an hour early (``RuleSpec/OnceFromNow``; nil: the zone named reads it right).
    func fromNow(_ spec: RuleSpec, now: Instant, zoneName: String?) throws(ServiceError) -> (spec: RuleSpec, fixedZone: String?) {
        guard spec.givesOnceFromNow else { return (spec, nil) }
        let zone = try context.settings.zone(named: zoneName)
        do {
            let made = try spec.resolvingOnceFromNow(now: now, in: zone)
            return (made.spec, made.fixedZone?.identifier)
        } catch { throw .invalidRule(error.message) }
    }

    /// What a definition check (``ReminderDefinition``) gives, or its problem as the call's error.
    static func checked<Value>(_ body: () throws(ReminderDefinition.Problem) -> Value) throws(ServiceError) -> Value {
        do { return try body() } catch {
            switch error {
            case .input(let problem): throw .invalidInput(parameter: problem.parameter, message: problem.message)
            case .rule(let message): throw .invalidRule(message)
            }
        }
    }

    func setEnabled(key: String, _ enabled: Bool) async throws(ServiceError) -> ReminderValue {
        var reminder = try find(key)
        reminder.enabled = enabled
        return try await save(reminder)
    }

    /// Deletes a reminder.
    /// - Returns: the reminder as it was.
    func remove(key: String) async throws(ServiceError) -> ReminderValue {
        let reminder = try ownReminder(key)
        let now = context.clock.now()
        let value = try value(of: reminder, now: now)
        try storing { () throws(StoreError) in try stores.reminders.remove(id: reminder.id) }
        await context.feed.deliver()
        return value
    }

    /// Reminders listed per page: a page is read with one query for the reminders and one for their logs.
    static let listPageSize = 500
    /// The most reminders one reply holds: encoding a reply runs on one thread without a break, and 1,000
    /// take about 60 ms (100,000 in one reply took 5.7 s, long enough to miss the watchdog).
    static let listPageMaximum = 1000

    /// One page of the reminders, by id: those after `after`, at most `limit`.
    /// - Returns: the page, and the `after` of the next page (nil when this one is the last).
    func list(after: Int64, limit: Int) throws(ServiceError) -> (reminders: [ReminderValue], next: Int64?) {
        guard (1...Self.listPageMaximum).contains(limit) else {
            throw .invalidInput(parameter: "limit", message: "limit must be 1 to \(Self.listPageMaximum)")
        }
        let now = context.clock.now()
        let stored = try storing { () throws(StoreError) in try stores.reminders.all(after: after, limit: limit + 1) }
        let page = Array(stored.prefix(limit))
        return (try values(of: page, now: now), stored.count > limit ? page.last?.id : nil)
    }

    /// What the `Occurrences` method answers: the date and its occurrences in time order.
    /// The occurrences of every enabled reminder (or one) on a date, with their states now. Reads a page of
    /// reminders and their logs at a time, and lets other work run between pages.
    ///
    /// The date is the user's (the followed zone's, as the times shown are): a reminder that keeps another zone
    /// has here the occurrences whose instants fall in it, and today those of its previous day still due. (It
    /// listed the occurrences of the date in the reminder's zone: at 00:30 UTC, a dose at 12:30 in UTC-12 taken a
    /// minute before was shown "upcoming", the next day's, and the status bar said nothing was due.)
    func occurrences(date text: String?, key: String?) async throws(ServiceError) -> Reminders.Occurrences.Reply {
        let now = context.clock.now()
        let date = try context.settings.date(text, parameter: "date", now: now)
        let userZone = try context.settings.zone(named: nil)
        let day = userZone.resolve(localSeconds: Int64(date.dayNumber) * 86400)..<userZone.resolve(localSeconds: Int64(date.dayNumber + 1) * 86400)
        let from = Instant(secondsSinceEpoch: Int64(date.dayNumber - 2) * 86400)
        let through = Instant(secondsSinceEpoch: Int64(date.dayNumber + 3) * 86400)
        var found: [OccurrenceValue] = []
        var after: Int64? = 0
        while let start = after {
            let page: [StoredReminder]
            if let key {
                page = [try find(key)]
            } else {
                page = try storing { () throws(StoreError) in try stores.reminders.all(after: start, limit: Self.listPageSize) }
            }
            after = key == nil && page.count == Self.listPageSize ? page.last?.id : nil
            let enabled = page.filter(\.enabled)
            let ids = enabled.compactMap(\.id)
            // Without the logs or skips the states would be guessed (a taken dose shown as due): the call fails.
            let logs = try storing { () throws(StoreError) in try stores.intake.instants(reminderIDs: ids, from: from, through: through) }
            let skips = try storing { () throws(StoreError) in try scheduling.skips(from: from, through: through, reminderIDs: ids) }
            let late = try storing { () throws(StoreError) in try stores.intake.lateTakes(reminderIDs: ids, from: from, through: through) }
            for reminder in enabled {
                // A reminder whose rule or zone cannot be used now has no occurrences (the scheduler says why).
                guard let rule = try? context.firingRule(of: reminder), let zone = try? context.settings.zone(named: reminder.timeZone) else { continue }
                found += rule.states(
                    during: day, in: zone, logs: logs[reminder.id] ?? [], skips: skips[reminder.id] ?? [], windowSeconds: reminder.windowSeconds, now: now,
                    takenLate: late[reminder.id] ?? [:], pauses: reminder.delivery.pause)
                    .filter { $0.occurrence.instant.secondsSinceEpoch >= reminder.createdAt }  // none before it existed
                    .map {
                        OccurrenceValue(reminderID: reminder.id, name: reminder.name, status: $0).saying(reminder.delivery.medication.dose(on: $0.occurrence.scheduledDate))
                            .of(reminder.delivery.person)
                    }
            }
            await yieldToQueuedWork()
        }
        let today = day.contains(now)
        let asNeeded = today ? try medication.asNeeded(now: now).filter { value in key.map { $0 == value.reminderName || $0 == String(value.reminderId) } ?? true } : []
        return .init(
            date: date.description, occurrences: found.sorted { ($0.utc, $0.reminderId) < ($1.utc, $1.reminderId) },
            asNeeded: asNeeded.isEmpty ? nil : asNeeded)
    }

    func get(key: String) throws(ServiceError) -> ReminderValue {
        try value(of: try find(key), now: context.clock.now())
    }

    /// What each announcement of the reminder's occurrences does, with config.toml's defaults filled in.
    func ladder(key: String) throws(ServiceError) -> AnnouncementLadder {
        let reminder = try find(key)
        let configuration = context.settings.configuration
        return AnnouncementLadder(
            delivery: reminder.delivery, windowSeconds: reminder.windowSeconds,
            defaults: .init(
                sound: configuration.sounds.sound(for: reminder.delivery), speaks: configuration.sounds.speaks(reminder.delivery),
                onFire: configuration.onFire?.first, onMissed: configuration.onMissed?.first))
    }

    func preview(rule spec: RuleSpec, timeZone: String?, after: String?, count: Int, steps: String? = nil) throws(ServiceError) -> [FiringValue] {
        guard (1...10_000).contains(count) else { throw .invalidTime(parameter: "count", message: "count must be 1 to 10000") }
        let delivery = try Self.applying(Delivery.Change(medication: .init(steps: steps)), to: Delivery(), adding: true)
        let now = context.clock.now()
        let given = try fromNow(spec, now: now, zoneName: timeZone)
        let spec = try Self.checked { () throws(ReminderDefinition.Problem) in try ReminderDefinition.course(given.spec, delivery) }
        let rule = try Self.rule(spec)
        let zone = try context.settings.zone(named: try Self.zoneName(given.fixedZone ?? timeZone, of: rule))
        let start = try after.map { text throws(ServiceError) in try Self.instant(text, parameter: "after", now: now, zone: zone) } ?? now
        return rule.occurrences(after: start, count: count, in: zone).map {
            FiringValue(reminderID: 0, name: "preview", occurrence: $0).saying(delivery.medication.dose(on: $0.scheduledDate))
        }
    }

    func next(count: Int) async throws(ServiceError) -> Reminders.Next.Reply {
        guard (1...10_000).contains(count) else { throw .invalidTime(parameter: "count", message: "count must be 1 to 10000") }
        let asNeeded = try medication.asNeeded(now: context.clock.now())
        let firings = await scheduling.upcoming(count: count).map { next in
            let calendar = next.reminder.delivery.calendar
            return (next.snoozed
                ? FiringValue(
                    reminderID: next.reminder.id, name: next.reminder.name, occurrence: next.occurrence, snoozedUntil: next.at, in: next.reminder.zone,
                    calendar: calendar)
                : FiringValue(reminderID: next.reminder.id, name: next.reminder.name, occurrence: next.occurrence, calendar: calendar))
                .saying(next.reminder.delivery.medication.dose(on: next.occurrence.scheduledDate)).of(next.reminder.delivery.person)
        }
        return .init(firings: firings, asNeeded: asNeeded.isEmpty ? nil : asNeeded)
    }

    /// Snoozes the occurrence that is due (announced again in `minutes`), or else postpones the next one by
    /// `minutes`; a second snooze of an occurrence replaces the first. Refused when the snooze would fall
    /// after the occurrence's window (it would be missed by then).
    func snooze(key: String, minutes: Int) async throws(ServiceError) -> SnoozeReply {
        guard (1...1440).contains(minutes) else {
            throw .invalidTime(parameter: "minutes", message: "snooze for 1 to 1440 minutes")
        }
        let now = context.clock.now()
        let reminder = try find(key)
        let target = try await target(of: reminder, ahead: true, now: now)
        guard let status = target.status else {
            throw .nothingDue(reminder.name, "nothing of \(reminder.name) is due or ahead to snooze: it is taken, skipped, or its rule has ended")
        }
        let zone = target.reminder.zone
        let until = max(now, status.occurrence.instant).adding(seconds: Int64(minutes) * 60)
        guard until < status.windowEnd else {
            let most = (status.windowEnd.secondsSinceEpoch - max(now, status.occurrence.instant).secondsSinceEpoch - 1) / 60
            let end = ISO8601.format(status.windowEnd, offsetSeconds: zone.offset(at: status.windowEnd), zulu: false)
            throw .invalidTime(parameter: "minutes", message: most >= 1
                ? "snoozing \(reminder.name) for \(minutes) min goes past its window (ends \(end)), when it is missed: snooze for at most \(most) min, or widen the window with remindctl update \"\(reminder.name)\" --window 4h"
                : "the window of \(reminder.name) ends at \(end), in under a minute: there is no time left to snooze it")
        }
        let firing = DueFiring(reminder: target.reminder, occurrence: status.occurrence, slotsDue: 1, lateSeconds: 0)
        let replaced: Instant?
        do { replaced = try await scheduling.snooze(firing, until: until) } catch { throw ServiceError(error) }
        let local = { (instant: Instant) in ISO8601.format(instant, offsetSeconds: zone.offset(at: instant), zulu: false) }
        return SnoozeReply(
            occurrence: FiringValue(reminderID: reminder.id, name: reminder.name, occurrence: status.occurrence), until: local(until),
            postponed: status.state == .upcoming, replaced: replaced.map(local))
    }

    /// The intake logged on a date (YYYY-MM-DD in the system zone; default today), of every reminder or one,
    /// with the occurrence each takes or suppresses.
    func logs(date text: String?, key: String?) throws(ServiceError) -> [IntakeValue] {
        let now = context.clock.now()
        let zone = try context.settings.zone(named: nil)
        let date = try context.settings.date(text, parameter: "date", now: now)
        let midnight = TimeOfDay(hour: 0, minute: 0)!
        let from = zone.resolve(LocalDateTime(date: date, time: midnight))
        let through = zone.resolve(LocalDateTime(date: LocalDate(dayNumber: date.dayNumber + 1), time: midnight)).adding(seconds: -1)
        let id = try key.map { key throws(ServiceError) in try find(key).id }
        let records = try storing { () throws(StoreError) in try stores.intake.records(from: from, through: through, reminderID: id) }
        return try intakeValues(records, now: now)
    }

    /// What `done`, `skip` and `snooze` act on, with the reminder's skips that were read to find it.
    struct Target {
        let reminder: SchedulableReminder
        /// The occurrence acted on; nil when there is none.
        let status: OccurrenceStatus?
        let skips: Set<Instant>
    }

    /// What `done`, `skip` and `snooze` act on: the occurrence due now (never one from before the reminder was
    /// added: that one never fired), or else, with `ahead`, the next one that is neither skipped nor logged
    /// ahead yet.
    func target(of reminder: StoredReminder, ahead: Bool, now: Instant) async throws(ServiceError) -> Target {
        let schedulable = try await scheduling.schedulable(reminder)
        let (rule, zone) = (schedulable.rule, schedulable.zone)
        let from = now.adding(seconds: -2 * 86400)
        let logs = try storing { () throws(StoreError) in try stores.intake.instants(reminderID: reminder.id, from: from, through: now) }
        let skips = try storing { () throws(StoreError) in
            try scheduling.skips(from: from, through: .endOfTime, reminderIDs: [reminder.id])[reminder.id] ?? []
        }
        if let due = rule.dueOccurrence(at: now, in: zone, logs: logs, skips: skips, windowSeconds: reminder.windowSeconds),
            due.occurrence.instant.secondsSinceEpoch >= reminder.createdAt
        {
            return Target(reminder: schedulable, status: due, skips: skips)
        }
        guard ahead, let next = rule.nextOccurrence(after: now, in: zone, passing: skips) else {
            return Target(reminder: schedulable, status: nil, skips: skips)
        }
        let status = rule.state(of: next, in: zone, logs: logs, skips: skips, windowSeconds: reminder.windowSeconds, now: now)
        return Target(reminder: schedulable, status: status.state == .upcoming ? status : nil, skips: skips)
    }

    /// `2026-11-22T20:00:00+01:00`: the next occurrence that is not skipped, or nil when the rule has ended.
    func nextLocal(_ target: Target, now: Instant) -> String? {
        target.reminder.rule.nextOccurrence(after: now, in: target.reminder.zone, passing: target.skips)?.localISO8601
    }

    func history(since: String?, key: String?, limit: Int) throws(ServiceError) -> [HistoryEntryValue] {
        let zone = try context.settings.zone(named: nil)
        let now = context.clock.now()
        let start = try since.map { text throws(ServiceError) in try Self.instant(text, parameter: "since", now: now, zone: zone) }
            ?? Instant(secondsSinceEpoch: 0)
        let id = try key.map { key throws(ServiceError) in try find(key).id }
        let limit = max(1, min(limit, 100_000))
        let entries = try storing { () throws(StoreError) in try scheduling.history(since: start, reminderID: id, limit: limit) }
        let logs = try storing { () throws(StoreError) in try stores.intake.newestRecords(from: start, through: now, reminderID: id, limit: limit) }
        let taken = try zip(intakeValues(logs, now: now), logs).map { (HistoryEntryValue($0, late: $1.forScheduledAt != nil), 2) }
        // Newest first. At one instant: the earlier occurrence first (its window closed as the next one fired),
        // and an occurrence's firing before its outcome, and that before a log.
        let newest = (entries + taken).sorted { ($0.0.handledUtc, $0.0.scheduledUtc, $0.1) > ($1.0.handledUtc, $1.0.scheduledUtc, $1.1) }.prefix(limit)
        let people = try storing { () throws(StoreError) in try stores.reminders.people(ids: Set(newest.map(\.0.reminderId))) }
        return newest.map { entry in
            var value = entry.0
            value.person = people[value.reminderId]
            return value
        }
    }

    /// Counts for the Status call.
    func counts() throws(ServiceError) -> (total: Int, enabled: Int) {
        try storing { () throws(StoreError) in try stores.reminders.counts() }
    }

    /// The built-in weekly rest check-in: added once, on the first start; the user may disable or remove it.
    func addBuiltIns() async {
        // Recorded already: added before, and perhaps removed by the user since, which is theirs to do.
        guard habits.recordOnce("builtin:rest-check-in", now: context.clock.now()) else { return }
        // A reminder of the user's may have the name already: theirs is kept, and the check-in is not added.
        _ = try? await add(name: Self.restCheckInName, rule: RuleSpec(weekly: "sun", at: "08:00"), timeZone: nil, enabled: true)
    }

    static let restCheckInName = "Planning a rest day this week?"

    // MARK: Helpers

    func find(_ key: String) throws(ServiceError) -> StoredReminder {
        try storing { () throws(StoreError) in try stores.reminders.find(key) }
    }

    /// A reminder the user may change or remove: not a read-only calendar's alarm (the next scan of its folder
    /// would undo the change).
    func ownReminder(_ key: String) throws(ServiceError) -> StoredReminder {
        let reminder = try find(key)
        if let calendar = reminder.delivery.calendar, let origin = reminder.origin {
            throw .invalidInput(parameter: "reminder", message: "\(reminder.name) is an alarm of the read-only calendar '\(calendar)' (\(origin)): change or delete the event in your calendar (khal, Thunderbird ...), or 'remindctl disable' to silence it here")
        }
        return reminder
    }

    func save(_ reminder: StoredReminder) async throws(ServiceError) -> ReminderValue {
        let now = context.clock.now()
        let saved = try storing { () throws(StoreError) in try stores.reminders.update(reminder, now: now) }
        await context.feed.deliver()
        return try value(of: saved, now: now)
    }

    /// A name without its surrounding spaces, by ``ReminderName``'s rules (Add and Update alike).
    static func checkedName(_ name: String) throws(ServiceError) -> String {
        do { return try ReminderName.checked(name) } catch { throw .invalidRule(error.message) }
    }

    /// A window length the user typed, or the parameter's error.
    static func windowSeconds(_ text: String) throws(ServiceError) -> Int64 {
        guard let seconds = WindowLength.seconds(text) else {
            throw .invalidInput(parameter: "window", message: "invalid window \(quotedInput(text)): write \(WindowLength.forms)")
        }
        return seconds
    }

    static func zoneName(_ given: String?, of rule: ReminderRule) throws(ServiceError) -> String? {
        do { return try rule.zoneName(given: given) } catch { throw .invalidRule(error.message) }
    }

    static func rule(_ spec: RuleSpec) throws(ServiceError) -> ReminderRule {
        do { return try spec.makeRule() } catch { throw .invalidRule(error.message) }
    }

    /// A point in time the user typed (see `TimeText`), or the parameter's error.
    static func instant(_ text: String, parameter: String, now: Instant, zone: TimeZoneRules) throws(ServiceError) -> Instant {
        guard let instant = TimeText.instant(text, now: now, zone: zone) else {
            throw .invalidTime(parameter: parameter, message: "invalid \(parameter) \(quotedInput(text)): write \(TimeText.forms)", unreadable: text)
        }
        return instant
    }

}

extension ReminderService {
    /// The stores ReminderService holds, and no other: the reminders and their logs.
    struct Stores: Sendable {
        let reminders: RemindersStore
        let intake: IntakeStore
    }
}
