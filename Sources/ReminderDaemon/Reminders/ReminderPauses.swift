import ReminderCore
import ReminderInterface
import ReminderStore

/// Pauses with dates (`remindctl pause`, `resume`): the reminders' ``PauseSettings`` changed in one transaction.
/// The change feed takes it to the scheduling (a paused occurrence is not announced) and to the collection (the
/// pause travels with the reminder).
extension ReminderService {
    /// How many days back a pause may start.
    static let pauseReachBackDays: Int64 = 31

    /// Pauses `key`'s reminder, or every own reminder (`all`: calendar alarms are the calendar's), from `from`
    /// (default now) until `until`. - Returns: the reminders paused (at most ``listPageMaximum``), how many, how
    /// many doses are already logged within the pause, and the pause as taken.
    func pause(key: String?, all: Bool, from: String?, until: String, reason: String?) async throws(ServiceError)
        -> (reminders: [ReminderValue], count: Int, loggedWithin: Int, span: PauseSpan)
    {
        let now = context.clock.now()
        let span = try pauseSpan(from: from, until: until, reason: reason, now: now)
        let ids = try pauseTargets(key: key, all: all)
        let changed = try storing { () throws(StoreError) in try stores.reminders.changePauses(ids: ids) { $0.adding(span) } }
        // One read for them all (`--all` pauses every reminder).
        let logs = try storing { () throws(StoreError) in try stores.intake.instants(reminderIDs: changed.map(\.id), from: span.from, through: span.until) }
        let loggedWithin = logs.values.joined().filter { span.covers($0) }.count
        await context.feed.deliver()
        let values = try changed.prefix(Self.listPageMaximum).map { reminder throws(ServiceError) in try value(of: reminder, now: now) }
        return (values, changed.count, loggedWithin, span)
    }

    /// Ends `key`'s pause, or every reminder's (`all`), now. - Returns: those whose pauses changed (at most
    /// ``listPageMaximum``), and how many.
    func resume(key: String?, all: Bool) async throws(ServiceError) -> (reminders: [ReminderValue], count: Int) {
        let now = context.clock.now()
        let ids = try pauseTargets(key: key, all: all)
        let changed = try storing { () throws(StoreError) in try stores.reminders.changePauses(ids: ids) { $0.resumed(at: now).settings } }
        if !all, changed.isEmpty, let key {
            throw .invalidInput(parameter: "reminder", message: "\(key) is not paused now and has no pause ahead: 'remindctl pause list' shows the pauses")
        }
        await context.feed.deliver()
        return (try changed.prefix(Self.listPageMaximum).map { reminder throws(ServiceError) in try value(of: reminder, now: now) }, changed.count)
    }

    /// The reminders a pause or a resume applies to: `key`'s, or with `all` every own reminder.
    private func pauseTargets(key: String?, all: Bool) throws(ServiceError) -> [Int64] {
        switch (key, all) {
        case (let key?, false): return [try ownReminder(key).id]
        case (nil, true): return try storing { () throws(StoreError) in try stores.reminders.all() }.filter { $0.delivery.calendar == nil }.map(\.id)
        default: throw .invalidInput(parameter: "reminder", message: "name one reminder, or give --all for every reminder, not both")
        }
    }

    /// The span a pause asks for, checked: it ends after now (a pause wholly in the past is refused), starts at
    /// most ``pauseReachBackDays`` back (a hospital stay that began yesterday: its doses since are paused, not
    /// missed), ends after it starts, lasts at most a year, and its reason fits.
    private func pauseSpan(from: String?, until: String, reason: String?, now: Instant) throws(ServiceError) -> PauseSpan {
        let zone = try context.settings.zone(named: nil)
        let start = try from.map { text throws(ServiceError) in try Self.instant(text, parameter: "from", now: now, zone: zone) } ?? now
        guard start.secondsSinceEpoch >= now.secondsSinceEpoch - Self.pauseReachBackDays * 86400 else {
            throw .invalidTime(
                parameter: "from",
                message: "a pause starts at most \(Self.pauseReachBackDays) days back (\(TimeText.display(start, typed: from ?? "", zone: zone))): give a later "
                    + "--from; older occurrences can be skipped ('remindctl skip') or logged ('remindctl log --at')")
        }
        let end = try Self.instant(until, parameter: "until", now: now, zone: zone)
        guard end > now else {
            throw .invalidTime(
                parameter: "until",
                message: "the pause would end in the past (\(TimeText.display(end, typed: until, zone: zone))): give an --until after now; "
                    + "an occurrence already missed can be skipped ('remindctl skip') or logged ('remindctl log --at')")
        }
        guard end > start else {
            throw .invalidTime(parameter: "until", message: "the pause ends (\(TimeText.display(end, typed: until, zone: zone))) before it starts: give --until after --from")
        }
        guard end.secondsSinceEpoch - start.secondsSinceEpoch <= PauseSpan.longestSeconds else {
            throw .invalidTime(parameter: "until", message: "a pause lasts at most a year: give an earlier --until, and pause again when it ends")
        }
        let span = PauseSpan(from: start, until: end, reason: reason)
        if span.problem != nil {
            throw .invalidInput(parameter: "reason", message: "a pause's reason is one line of at most \(PauseSpan.reasonLimit) characters: write a shorter --reason")
        }
        return span
    }
}
