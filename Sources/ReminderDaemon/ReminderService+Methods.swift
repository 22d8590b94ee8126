import HabitCore
import ReminderCore
import ReminderInterface
import ReminderScheduling
import ReminderStore

/// The operations behind the Varlink methods. Each validates fully before it writes: bad input changes nothing.
extension ReminderService {
    func add(name: String, rule spec: RuleSpec, timeZone: String?, enabled: Bool) throws(ServiceError) -> ReminderValue {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 200 else {
            throw .invalidRule("a reminder needs a name of 1 to 200 characters, e.g. \"Vitamin D\"")
        }
        do { _ = try spec.makeRule() } catch { throw .invalidRule(error.message) }
        _ = try zone(named: timeZone)
        let stored: StoredReminder
        do {
            stored = try dependencies.store.addReminder(name: trimmed, rule: spec, timeZone: timeZone, enabled: enabled, now: dependencies.now())
        } catch {
            throw ServiceError(error)
        }
        reschedule(stored, handledThrough: dependencies.now())
        return try value(of: stored)
    }

    func update(key: String, name: String?, rule spec: RuleSpec?, timeZone: String?) throws(ServiceError) -> ReminderValue {
        var reminder = try find(key)
        if let name {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { throw .invalidRule("a reminder's name cannot be empty") }
            reminder.name = trimmed
        }
        if let spec {
            do { _ = try spec.makeRule() } catch { throw .invalidRule(error.message) }
            reminder.rule = spec
        }
        if let timeZone {
            reminder.timeZone = timeZone.isEmpty ? nil : timeZone
            _ = try zone(named: reminder.timeZone)
        }
        return try save(reminder)
    }

    func setEnabled(key: String, _ enabled: Bool) throws(ServiceError) -> ReminderValue {
        var reminder = try find(key)
        reminder.enabled = enabled
        return try save(reminder)
    }

    func remove(key: String) throws(ServiceError) {
        let reminder = try find(key)
        do { try dependencies.store.removeReminder(id: reminder.id!) } catch { throw ServiceError(error) }
        scheduler.remove(id: reminder.id!)
        snoozes.removeAll { $0.firing.reminder.id == reminder.id }
        replan()
    }

    func list() throws(ServiceError) -> [ReminderValue] {
        let stored: [StoredReminder]
        do { stored = try dependencies.store.reminders() } catch { throw ServiceError(error) }
        let restDays = self.restDaySet()
        var result: [ReminderValue] = []
        for reminder in stored { result.append(try value(of: reminder, restDays: restDays)) }
        return result
    }

    func get(key: String) throws(ServiceError) -> ReminderValue {
        try value(of: try find(key))
    }

    func preview(rule spec: RuleSpec, timeZone: String?, after: String?, count: Int) throws(ServiceError) -> [FiringValue] {
        guard (1...10_000).contains(count) else { throw .invalidTime(parameter: "count", message: "count must be 1 to 10000") }
        let rule: ReminderRule
        do { rule = try spec.makeRule() } catch { throw .invalidRule(error.message) }
        let zone = try zone(named: timeZone)
        let start = try after.map { text throws(ServiceError) in try parseTime(text, parameter: "after", zone: zone) } ?? dependencies.now()
        return rule.occurrences(after: start, count: count, in: zone).map { FiringValue(reminderID: 0, name: "preview", occurrence: $0) }
    }

    func next(count: Int) throws(ServiceError) -> [FiringValue] {
        guard (1...10_000).contains(count) else { throw .invalidTime(parameter: "count", message: "count must be 1 to 10000") }
        return scheduler.upcoming(count: count).map { FiringValue(reminderID: $0.0.id, name: $0.0.name, occurrence: $0.1) }
    }

    func log(key: String, at text: String?) throws(ServiceError) -> (Int64, Instant, String) {
        let reminder = try find(key)
        let zone = try zone(named: reminder.timeZone)
        let now = dependencies.now()
        let instant = try eventTime(text, in: zone, now: now)
        guard instant <= now else {
            throw .invalidTime(parameter: "at", message: "\(instant) is in the future: intake can be logged for now or a past time")
        }
        do {
            _ = try dependencies.store.logIntake(reminderID: reminder.id!, at: instant, timeZone: zone.identifier)
        } catch {
            throw ServiceError(error)
        }
        habitsChanged()
        return (reminder.id!, instant, ISO8601.format(instant, offsetSeconds: zone.offset(at: instant), zulu: false))
    }

    func snooze(key: String, minutes: Int) throws(ServiceError) -> FiringValue {
        guard (1...1440).contains(minutes) else {
            throw .invalidTime(parameter: "minutes", message: "snooze for 1 to 1440 minutes")
        }
        let reminder = try find(key)
        let last: FiringRecord?
        do { last = try dependencies.store.lastFiring(reminderID: reminder.id!) } catch { throw ServiceError(error) }
        guard let last else {
            throw .nothingToSnooze(reminder.name, "\(reminder.name) has not fired yet: there is nothing to snooze")
        }
        let schedulable = try schedulable(reminder)
        let scheduled = Instant(secondsSinceEpoch: last.scheduledAt)
        guard let occurrence = schedulable.rule.nextOccurrence(after: scheduled.adding(seconds: -1), in: schedulable.zone),
            occurrence.instant == scheduled
        else {
            throw .nothingToSnooze(reminder.name, "the last firing of \(reminder.name) no longer matches its rule")
        }
        let now = dependencies.now()
        let due = now.adding(seconds: Int64(minutes) * 60)
        do { try dependencies.store.addSnooze(reminderID: reminder.id!, scheduledAt: scheduled, dueAt: due) } catch { throw ServiceError(error) }
        snoozes.append((due, DueFiring(reminder: schedulable, occurrence: occurrence, slotsDue: 1, lateSeconds: 0)))
        replan()
        return FiringValue(reminderID: reminder.id!, name: reminder.name, occurrence: occurrence)
    }

    func history(since: String?, key: String?, limit: Int) throws(ServiceError) -> [HistoryEntryValue] {
        let zone = try zone(named: nil)
        let start = try since.map { t throws(ServiceError) in try parseTime(t, parameter: "since", zone: zone) } ?? Instant(secondsSinceEpoch: 0)
        let id = try key.map { k throws(ServiceError) in try find(k).id! }
        do {
            return try dependencies.store.history(since: start, reminderID: id, limit: max(1, min(limit, 100_000))).map(HistoryEntryValue.init)
        } catch {
            throw ServiceError(error)
        }
    }

    func status() throws(ServiceError) -> (total: Int, enabled: Int, next: FiringValue?, status: String, journal: Bool, zone: String) {
        let stored: [StoredReminder]
        do { stored = try dependencies.store.reminders() } catch { throw ServiceError(error) }
        let next = scheduler.nextFiring().map { FiringValue(reminderID: $0.0.id, name: $0.0.name, occurrence: $0.1) }
        return (stored.count, stored.filter(\.enabled).count, next, statusLine(), dependencies.journal.isJournalAvailable, systemZone)
    }

    var storePath: String { dependencies.store.path }

    // MARK: Helpers

    private func find(_ key: String) throws(ServiceError) -> StoredReminder {
        do { return try dependencies.store.reminder(key) } catch { throw ServiceError(error) }
    }

    private func save(_ reminder: StoredReminder) throws(ServiceError) -> ReminderValue {
        let saved: StoredReminder
        do { saved = try dependencies.store.updateReminder(reminder, now: dependencies.now()) } catch { throw ServiceError(error) }
        reschedule(saved, handledThrough: Instant(secondsSinceEpoch: saved.handledThrough))
        return try value(of: saved)
    }

    /// The rest days as day numbers (read once per listing, not once per reminder).
    private func restDaySet() -> Set<Int> {
        Set(((try? dependencies.store.restDays()) ?? []).compactMap { ISO8601.parseDate($0.date)?.dayNumber })
    }

    private func value(of reminder: StoredReminder, restDays: Set<Int>? = nil) throws(ServiceError) -> ReminderValue {
        let zone = try zone(named: reminder.timeZone)
        let rule: ReminderRule
        do { rule = try reminder.rule.makeRule() } catch { throw .invalidRule(error.message) }
        var next: FiringValue?
        if reminder.enabled, let occurrence = rule.nextOccurrence(after: max(dependencies.now(), Instant(secondsSinceEpoch: reminder.handledThrough)), in: zone) {
            next = FiringValue(reminderID: reminder.id!, name: reminder.name, occurrence: occurrence)
        }
        return ReminderValue(
            id: reminder.id!, name: reminder.name, rule: reminder.rule, summary: rule.summary, timeZone: reminder.timeZone,
            effectiveTimeZone: zone.identifier, enabled: reminder.enabled, next: next, streak: goalStreak(reminder, rule: rule, zone: zone, restDays: restDays ?? restDaySet()))
    }

    /// The per-goal streak of a reminder (0 when its logs cannot be read).
    private func goalStreak(_ reminder: StoredReminder, rule: ReminderRule, zone: TimeZoneRules, restDays: Set<Int>) -> Int {
        let now = dependencies.now()
        guard let logs = try? dependencies.store.intakes(reminderID: reminder.id!, from: Instant(secondsSinceEpoch: reminder.createdAt - 366 * 86400), through: now)
        else { return 0 }
        let created = zone.localDayNumber(at: Instant(secondsSinceEpoch: reminder.createdAt))
        let firstLog = logs.first.map { zone.localDayNumber(at: $0) } ?? created
        return GoalStreak.length(
            rule: rule, zone: zone, logs: logs, restDays: restDays, today: zone.localDayNumber(at: now), firstDay: min(created, firstLog))
    }

    /// When something happened: `now` without `text`, else the time it gives (see ``parseTime(_:parameter:zone:)``).
    func eventTime(_ text: String?, in zone: TimeZoneRules, now: Instant) throws(ServiceError) -> Instant {
        guard let text else { return now }
        return try parseTime(text, parameter: "at", zone: zone)
    }

    /// Reads `2026-11-21T07:45:00+01:00`, `2026-11-21T07:45` (local to `zone`) or `07:45` (today in `zone`).
    func parseTime(_ text: String, parameter: String, zone: TimeZoneRules) throws(ServiceError) -> Instant {
        if let time = ISO8601.parseTime(text) {
            let today = LocalDate(dayNumber: zone.localDayNumber(at: dependencies.now()))
            return zone.resolve(LocalDateTime(date: today, time: time))
        }
        if let date = ISO8601.parseDate(text) {
            return zone.resolve(LocalDateTime(date: date, time: TimeOfDay(hour: 0, minute: 0)!))
        }
        if let parsed = ISO8601.parseInstant(text) {
            if let offset = parsed.offsetSeconds { return Instant(secondsSinceEpoch: parsed.local.localSeconds - Int64(offset)) }
            return zone.resolve(parsed.local)
        }
        throw .invalidTime(parameter: parameter, message: "invalid \(parameter) '\(text)': write 07:45, 2026-11-21T07:45 or 2026-11-21T07:45:00+01:00")
    }
}
