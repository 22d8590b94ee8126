import ReminderCore
import ReminderInterface
import ReminderStore

extension ReminderService {
    /// The interface records of some logs, each with the occurrence it takes or suppresses (by the states of
    /// its reminder's occurrences on its local day). Of several logs in one second, the first takes and the
    /// last suppresses.
    ///
    /// The logs around the records' days are read once per reminder, then taken a day at a time: read again for
    /// each day (five days' logs each time), `history --limit 100000` over 96 logs a day read half a million
    /// logs and took 4.5 s of the daemon's CPU.
    func intakeValues(_ records: [IntakeRecord], now: Instant) throws(ServiceError) -> [IntakeValue] {
        var logged: [Int64: LoggedReminder] = [:]
        for record in records where logged[record.reminderId] == nil {
            let reminder = try find(String(record.reminderId))
            // A reminder whose rule cannot be used now: its logs take no occurrence (the scheduler says why).
            logged[record.reminderId] = LoggedReminder(
                reminder: reminder, zone: try context.settings.zone(named: reminder.timeZone), rule: try? context.firingRule(of: reminder))
        }
        let around = try logsAround(records, of: logged)
        var effects: [ReminderDay: DayEffects] = [:]
        return records.map { record in
            // Every record's reminder was found above.
            let (reminder, zone, rule) = logged[record.reminderId].map { ($0.reminder, $0.zone, $0.rule) }!
            let instant = Instant(secondsSinceEpoch: record.at)
            let key = ReminderDay(reminderID: record.reminderId, day: zone.localDayNumber(at: instant))
            if effects[key] == nil, let rule {
                effects[key] = DayEffects(of: reminder, rule: rule, zone: zone, day: key.day, logs: around[record.reminderId] ?? [], now: now)
            }
            let local = { (instant: Instant) in ISO8601.format(instant, offsetSeconds: zone.offset(at: instant), zulu: false) }
            var value = IntakeValue(
                id: record.id, reminderId: record.reminderId, reminderName: reminder.name, utc: instant.description, local: local(instant),
                takes: record.forScheduledAt.map { local(Instant(secondsSinceEpoch: $0)) } ?? effects[key]?.takes[record.id].map { local($0.instant) },
                suppresses: effects[key]?.suppresses[record.id].map { local($0.instant) })
            // The amount is in the unit of the reminder's dose.
            (value.amount, value.unit) = (record.amount.map { Double($0) / 1000 }, record.amount.flatMap { _ in reminder.delivery.medication.dose?.unit })
            value.forced = record.forced == true ? true : nil
            return value
        }
    }

    /// Per reminder with a usable rule, its ordinary logs (not late takes) from two days before the earliest
    /// record's local day to three after the latest's (each day's window, below), by time: one read each.
    private func logsAround(_ records: [IntakeRecord], of logged: [Int64: LoggedReminder]) throws(ServiceError) -> [Int64: [IntakeRecord]] {
        var days: [Int64: ClosedRange<Int>] = [:]
        for record in records where logged[record.reminderId]?.rule != nil {
            let day = logged[record.reminderId]!.zone.localDayNumber(at: Instant(secondsSinceEpoch: record.at))
            days[record.reminderId] = days[record.reminderId].map { min($0.lowerBound, day)...max($0.upperBound, day) } ?? day...day
        }
        var around: [Int64: [IntakeRecord]] = [:]
        for (id, span) in days {
            let (from, through) = (DayEffects.windowStart(span.lowerBound), DayEffects.windowStart(span.upperBound).adding(seconds: DayEffects.windowSeconds))
            around[id] = try storing { () throws(StoreError) in try stores.intake.records(from: from, through: through, reminderID: id) }
                .filter { $0.forScheduledAt == nil }
        }
        return around
    }
}

/// A reminder whose logs are shown, with its zone and its rule now (nil: cannot be used).
private struct LoggedReminder {
    let reminder: StoredReminder
    let zone: TimeZoneRules
    let rule: ReminderRule?
}

/// A reminder's local day.
private struct ReminderDay: Hashable {
    let reminderID: Int64
    let day: Int
}

/// Per occurrence of a reminder's local day, the log that takes it and the one that suppresses it, by log id.
private struct DayEffects {
    /// The logs that may take an occurrence of a day: from two days before it (by its number, in UTC) for five
    /// days, whatever the zone.
    static let windowSeconds: Int64 = 5 * 86400
    static func windowStart(_ day: Int) -> Instant { Instant(secondsSinceEpoch: Int64(day - 2) * 86400) }

    var takes: [Int64: Occurrence] = [:]
    var suppresses: [Int64: Occurrence] = [:]

    /// - Parameter logs: the reminder's ordinary logs around the day, by time.
    init(of reminder: StoredReminder, rule: ReminderRule, zone: TimeZoneRules, day: Int, logs: [IntakeRecord], now: Instant) {
        let from = Self.windowStart(day).secondsSinceEpoch, through = from + Self.windowSeconds
        let start = logs.partitionPoint { $0.at >= from }
        let ordinary = logs[start..<(start + logs[start...].prefix { $0.at <= through }.count)]
        let states = rule.states(
            on: LocalDate(dayNumber: day), in: zone, logs: ordinary.map { Instant(secondsSinceEpoch: $0.at) }, skips: [],
            windowSeconds: reminder.windowSeconds, now: now)
        // Never an occurrence from before the reminder was added: `today` does not list those either (a log said it
        // took a 20:00 occurrence of a reminder added at 21:25).
        for status in states where status.occurrence.instant.secondsSinceEpoch >= reminder.createdAt {
            guard let covered = status.coveredBy?.secondsSinceEpoch else { continue }
            let same = ordinary.filter { $0.at == covered }
            if status.state == .taken, let first = same.first?.id { takes[first] = status.occurrence }
            if status.state == .suppressed, let last = same.last?.id { suppresses[last] = status.occurrence }
        }
    }
}
