import HabitCore
import ReminderCore
import ReminderInterface
import ReminderScheduling
import ReminderStore
import VarlinkServer

/// Reminders: add, change, remove, list; log an intake, snooze a firing, read the history.
///
/// Every operation validates fully before it writes (bad input changes nothing), writes to the store, then asks
/// ``SchedulingService`` to re-read what changed. "Now" is read once per call.
struct ReminderService: Sendable {
    let context: DaemonContext
    let scheduling: SchedulingService
    let habits: HabitService

    func add(name: String, rule spec: RuleSpec, timeZone: String?, enabled: Bool, window: String? = nil) async throws(ServiceError) -> ReminderValue {
        let now = context.clock.now()
        let trimmed = try Self.checkedName(name)
        let rule = try Self.rule(spec)
        let zone = try context.zone(named: timeZone)
        let windowSeconds = try window.map { text throws(ServiceError) in try Self.windowSeconds(text) }
        let stored = try storing { () throws(StoreError) in
            try context.store.addReminder(name: trimmed, rule: spec, timeZone: timeZone, enabled: enabled, windowSeconds: windowSeconds, now: now)
        }
        await scheduling.refresh(reminderID: stored.id!)
        return value(of: stored, rule: rule, zone: zone, now: now, restDays: habits.restDayNumbers())
    }

    func update(key: String, name: String?, rule spec: RuleSpec?, timeZone: String?, window: String? = nil) async throws(ServiceError) -> ReminderValue {
        var reminder = try find(key)
        if let window { reminder.windowSeconds = window.isEmpty ? nil : try Self.windowSeconds(window) }
        if let name { reminder.name = try Self.checkedName(name) }
        if let spec {
            _ = try Self.rule(spec)
            reminder.rule = spec
        }
        if let timeZone {
            reminder.timeZone = timeZone.isEmpty ? nil : timeZone
            _ = try context.zone(named: reminder.timeZone)
        }
        return try await save(reminder)
    }

    func setEnabled(key: String, _ enabled: Bool) async throws(ServiceError) -> ReminderValue {
        var reminder = try find(key)
        reminder.enabled = enabled
        return try await save(reminder)
    }

    func remove(key: String) async throws(ServiceError) {
        let reminder = try find(key)
        try storing { () throws(StoreError) in try context.store.removeReminder(id: reminder.id!) }
        await scheduling.refresh(reminderID: reminder.id!)
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
        let stored = try storing { () throws(StoreError) in try context.store.reminders(after: after, limit: limit + 1) }
        let page = Array(stored.prefix(limit))
        let earliest = Instant(secondsSinceEpoch: (page.map(\.createdAt).min() ?? now.secondsSinceEpoch) - 366 * 86400)
        let logs = (try? context.store.intakes(reminderIDs: page.compactMap(\.id), from: earliest, through: now)) ?? [:]
        let restDays = habits.restDayNumbers()
        let values = try page.map { reminder throws(ServiceError) in
            try value(of: reminder, now: now, restDays: restDays, logs: logs[reminder.id!] ?? [])
        }
        return (values, stored.count > limit ? page.last?.id : nil)
    }

    /// What the `Occurrences` method answers: the date and its occurrences in time order.
    struct OccurrencesReply: Encodable, Sendable {
        let date: String
        let occurrences: [OccurrenceValue]
    }

    /// The occurrences of every enabled reminder (or one) on a date, with their states now. Reads a page of
    /// reminders and their logs at a time, and lets other work run between pages.
    func occurrences(date text: String?, key: String?) async throws(ServiceError) -> OccurrencesReply {
        let now = context.clock.now()
        let date: LocalDate
        if let text {
            guard let parsed = ISO8601.parseDate(text) else { throw .invalidTime(parameter: "date", message: "invalid date '\(text)': write YYYY-MM-DD") }
            date = parsed
        } else {
            date = LocalDate(dayNumber: try context.zone(named: nil).localDayNumber(at: now))
        }
        let from = Instant(secondsSinceEpoch: Int64(date.dayNumber - 2) * 86400)
        let through = Instant(secondsSinceEpoch: Int64(date.dayNumber + 3) * 86400)
        var found: [OccurrenceValue] = []
        var after: Int64? = 0
        while let start = after {
            let page: [StoredReminder]
            if let key {
                page = [try find(key)]
            } else {
                page = try storing { () throws(StoreError) in try context.store.reminders(after: start, limit: Self.listPageSize) }
            }
            after = key == nil && page.count == Self.listPageSize ? page.last?.id : nil
            let enabled = page.filter(\.enabled)
            let logs = (try? context.store.intakes(reminderIDs: enabled.compactMap(\.id), from: from, through: through)) ?? [:]
            for reminder in enabled {
                guard let rule = try? Self.rule(reminder.rule), let zone = try? context.zone(named: reminder.timeZone) else { continue }
                let skips = Set(((try? context.store.outcomes(reminderID: reminder.id!, from: from, through: through)) ?? [])
                    .filter { $0.state == .skipped }.map { Instant(secondsSinceEpoch: $0.scheduledAt) })
                found += rule.states(on: date, in: zone, logs: logs[reminder.id!] ?? [], skips: skips, windowSeconds: reminder.windowSeconds, now: now)
                    .filter { $0.occurrence.instant.secondsSinceEpoch >= reminder.createdAt }  // none before it existed
                    .map { OccurrenceValue(reminderID: reminder.id!, name: reminder.name, status: $0) }
            }
            await yieldToQueuedWork()
        }
        return OccurrencesReply(date: date.description, occurrences: found.sorted { ($0.utc, $0.reminderId) < ($1.utc, $1.reminderId) })
    }

    func get(key: String) throws(ServiceError) -> ReminderValue {
        try value(of: try find(key), now: context.clock.now(), restDays: habits.restDayNumbers())
    }

    func preview(rule spec: RuleSpec, timeZone: String?, after: String?, count: Int) throws(ServiceError) -> [FiringValue] {
        guard (1...10_000).contains(count) else { throw .invalidTime(parameter: "count", message: "count must be 1 to 10000") }
        let rule = try Self.rule(spec)
        let zone = try context.zone(named: timeZone)
        let now = context.clock.now()
        let start = try after.map { text throws(ServiceError) in try Self.instant(text, parameter: "after", now: now, zone: zone) } ?? now
        return rule.occurrences(after: start, count: count, in: zone).map { FiringValue(reminderID: 0, name: "preview", occurrence: $0) }
    }

    func next(count: Int) async throws(ServiceError) -> [FiringValue] {
        guard (1...10_000).contains(count) else { throw .invalidTime(parameter: "count", message: "count must be 1 to 10000") }
        return await scheduling.upcoming(count: count).map { FiringValue(reminderID: $0.0.id, name: $0.0.name, occurrence: $0.1) }
    }

    func log(key: String, at text: String?) async throws(ServiceError) -> LogReply {
        let now = context.clock.now()
        let reminder = try find(key)
        let zone = try context.zone(named: reminder.timeZone)
        let instant = try text.map { text throws(ServiceError) in try Self.instant(text, parameter: "at", now: now, zone: zone) } ?? now
        guard instant <= now else {
            throw .invalidTime(parameter: "at", message: "\(instant) is in the future: intake can be logged for now or a past time")
        }
        _ = try storing { () throws(StoreError) in try context.store.logIntake(reminderID: reminder.id!, at: instant, timeZone: zone.identifier) }
        await habits.changed(now: now)
        return LogReply(reminderId: reminder.id!, utc: instant.description, local: ISO8601.format(instant, offsetSeconds: zone.offset(at: instant), zulu: false))
    }

    func snooze(key: String, minutes: Int) async throws(ServiceError) -> FiringValue {
        guard (1...1440).contains(minutes) else {
            throw .invalidTime(parameter: "minutes", message: "snooze for 1 to 1440 minutes")
        }
        let now = context.clock.now()
        let reminder = try find(key)
        let last = try storing { () throws(StoreError) in try context.store.lastFiring(reminderID: reminder.id!) }
        guard let last else {
            throw .nothingToSnooze(reminder.name, "\(reminder.name) has not fired yet: there is nothing to snooze")
        }
        let schedulable = try await scheduling.schedulable(reminder)
        let scheduled = Instant(secondsSinceEpoch: last.scheduledAt)
        guard let occurrence = schedulable.rule.nextOccurrence(after: scheduled.adding(seconds: -1), in: schedulable.zone),
            occurrence.instant == scheduled
        else {
            throw .nothingToSnooze(reminder.name, "the last firing of \(reminder.name) no longer matches its rule")
        }
        let firing = DueFiring(reminder: schedulable, occurrence: occurrence, slotsDue: 1, lateSeconds: 0)
        do { try await scheduling.snooze(firing, until: now.adding(seconds: Int64(minutes) * 60)) } catch { throw ServiceError(error) }
        return FiringValue(reminderID: reminder.id!, name: reminder.name, occurrence: occurrence)
    }

    func history(since: String?, key: String?, limit: Int) throws(ServiceError) -> [HistoryEntryValue] {
        let zone = try context.zone(named: nil)
        let now = context.clock.now()
        let start = try since.map { text throws(ServiceError) in try Self.instant(text, parameter: "since", now: now, zone: zone) }
            ?? Instant(secondsSinceEpoch: 0)
        let id = try key.map { key throws(ServiceError) in try find(key).id! }
        let limit = max(1, min(limit, 100_000))
        let entries = try storing { () throws(StoreError) in
            try context.store.history(since: start, reminderID: id, limit: limit).map { (HistoryEntryValue($0), 0) }
                + context.store.outcomes(since: start, reminderID: id, limit: limit).map { (HistoryEntryValue($0), 1) }
        }
        // Newest first. At one instant: the earlier occurrence first (its window closed as the next one fired),
        // and an occurrence's firing before its outcome.
        return Array(entries.sorted { ($0.0.handledUtc, $0.0.scheduledUtc, $0.1) > ($1.0.handledUtc, $1.0.scheduledUtc, $1.1) }.prefix(limit).map(\.0))
    }

    /// Counts for the Status call.
    func counts() throws(ServiceError) -> (total: Int, enabled: Int) {
        let stored = try storing { () throws(StoreError) in try context.store.reminders() }
        return (stored.count, stored.filter(\.enabled).count)
    }

    /// The built-in weekly rest check-in: added once, on the first start; the user may disable or remove it.
    func addBuiltIns() async {
        guard (try? context.store.recordNotice("builtin:rest-check-in", at: context.clock.now())) == true else { return }
        _ = try? await add(name: Self.restCheckInName, rule: RuleSpec(weekly: "sun", at: "08:00"), timeZone: nil, enabled: true)
    }

    static let restCheckInName = "Planning a rest day this week?"

    // MARK: Helpers

    func find(_ key: String) throws(ServiceError) -> StoredReminder {
        try storing { () throws(StoreError) in try context.store.reminder(key) }
    }

    private func save(_ reminder: StoredReminder) async throws(ServiceError) -> ReminderValue {
        let now = context.clock.now()
        let saved = try storing { () throws(StoreError) in try context.store.updateReminder(reminder, now: now) }
        await scheduling.refresh(reminderID: saved.id!)
        return try value(of: saved, now: now, restDays: habits.restDayNumbers())
    }

    /// A name without its surrounding spaces, 1 to 200 characters (Add and Update alike).
    private static func checkedName(_ name: String) throws(ServiceError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 200 else {
            throw .invalidRule("a reminder needs a name of 1 to 200 characters, e.g. \"Vitamin D\"")
        }
        return trimmed
    }

    /// A window length the user typed, or the parameter's error.
    private static func windowSeconds(_ text: String) throws(ServiceError) -> Int64 {
        guard let seconds = WindowLength.seconds(text) else {
            throw .invalidInput(parameter: "window", message: "invalid window '\(text)': write \(WindowLength.forms)")
        }
        return seconds
    }

    private static func rule(_ spec: RuleSpec) throws(ServiceError) -> ReminderRule {
        do { return try spec.makeRule() } catch { throw .invalidRule(error.message) }
    }

    /// A point in time the user typed (see `TimeText`), or the parameter's error.
    static func instant(_ text: String, parameter: String, now: Instant, zone: TimeZoneRules) throws(ServiceError) -> Instant {
        guard let instant = TimeText.instant(text, now: now, zone: zone) else {
            throw .invalidTime(parameter: parameter, message: "invalid \(parameter) '\(text)': write \(TimeText.forms)")
        }
        return instant
    }

    /// - Parameter logs: the reminder's intake since a year before it was created (read here when nil).
    private func value(of reminder: StoredReminder, now: Instant, restDays: Set<Int>, logs: [Instant]? = nil) throws(ServiceError) -> ReminderValue {
        value(of: reminder, rule: try Self.rule(reminder.rule), zone: try context.zone(named: reminder.timeZone), now: now, restDays: restDays, logs: logs)
    }

    private func value(
        of reminder: StoredReminder, rule: ReminderRule, zone: TimeZoneRules, now: Instant, restDays: Set<Int>, logs: [Instant]? = nil
    ) -> ReminderValue {
        var next: FiringValue?
        if reminder.enabled, let occurrence = rule.nextOccurrence(after: max(now, Instant(secondsSinceEpoch: reminder.handledThrough)), in: zone) {
            next = FiringValue(reminderID: reminder.id!, name: reminder.name, occurrence: occurrence)
        }
        return ReminderValue(
            id: reminder.id!, name: reminder.name, rule: reminder.rule, summary: rule.summary, timeZone: reminder.timeZone,
            effectiveTimeZone: zone.identifier, enabled: reminder.enabled, next: next,
            streak: goalStreak(reminder, rule: rule, zone: zone, now: now, restDays: restDays, logs: logs), windowSeconds: reminder.windowSeconds)
    }

    /// The per-goal streak of a reminder (0 when its logs cannot be read).
    private func goalStreak(
        _ reminder: StoredReminder, rule: ReminderRule, zone: TimeZoneRules, now: Instant, restDays: Set<Int>, logs: [Instant]?
    ) -> Int {
        let since = Instant(secondsSinceEpoch: reminder.createdAt - 366 * 86400)
        guard let logs = logs?.filter({ $0 >= since }) ?? (try? context.store.intakes(reminderID: reminder.id!, from: since, through: now))
        else { return 0 }
        let created = zone.localDayNumber(at: Instant(secondsSinceEpoch: reminder.createdAt))
        let firstLog = logs.first.map { zone.localDayNumber(at: $0) } ?? created
        return GoalStreak.length(
            rule: rule, zone: zone, logs: logs, restDays: restDays, today: zone.localDayNumber(at: now), firstDay: min(created, firstLog))
    }
}
