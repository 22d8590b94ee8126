import HabitCore
import ReminderCore
import ReminderInterface
import ReminderScheduling
import ReminderStore

/// Logging a dose: its time, its amount, the as-needed limits that refuse it, and `done`.
extension ReminderService {
    /// Logs an intake now or at a past time; it cancels the pending snoozes and repeats of what it takes.
    /// `amount`: how much was taken (`1`, `0.5`), in the dose's unit; default: the reminder's dose.
    func log(key: String, at text: String?, amount: String? = nil, force: Bool = false) async throws(ServiceError) -> LogReply {
        let now = context.clock.now()
        let reminder = try find(key)
        let zone = try context.zone(named: reminder.timeZone)
        let instant = try context.pastInstant(text, parameter: "at", now: now, zone: zone, future: "intake can be logged for now or a past time")
        let day = zone.localDateTime(at: instant).date
        return try await logIntake(reminder, at: instant, amount: try Self.amount(amount, of: reminder, on: day, force: force), force: force, now: now)
    }

    /// How much a log takes: `text` in the unit of the reminder's dose, or the dose itself; nil without a dose.
    /// (`date`: the log's local day, whose step a tapering course takes.)
    /// The most doses one log may take without `--force` (`log --amount 100000` of a 2-tablet dose emptied the
    /// stock at once, silently).
    static let maximumDosesPerLog: Int64 = 100

    static func amount(_ text: String?, of reminder: StoredReminder, on date: LocalDate, force: Bool) throws(ServiceError) -> Int64? {
        guard let dose = reminder.delivery.medication.dose(on: date) else {
            guard text == nil else {
                throw .invalidInput(parameter: "amount", message: "\(reminder.name) has no dose to take an amount of: give it one, e.g. remindctl update \"\(reminder.name)\" --dose 2 --unit tablet")
            }
            return nil
        }
        guard let text else { return dose.thousandths }
        let taken: Int64
        do { taken = try Dose(amount: text, unit: dose.unit).thousandths } catch { throw .invalidInput(parameter: "amount", message: error.message) }
        guard force || taken <= dose.thousandths * maximumDosesPerLog else {
            throw .invalidInput(parameter: "amount", message: """
                \(quotedInput(text)) is \(taken / dose.thousandths) doses of \(reminder.name) (\(dose.amountText) \(dose.unit) each): \
                one log takes at most \(maximumDosesPerLog); if it is right, add --force
                """)
        }
        return taken
    }

    /// Logs an intake now, taking the occurrence that is due; refused when none is.
    func done(key: String, amount: String? = nil, force: Bool = false) async throws(ServiceError) -> LogReply {
        let now = context.clock.now()
        let reminder = try find(key)
        let taken = try Self.amount(amount, of: reminder, on: try context.zone(named: reminder.timeZone).localDateTime(at: now).date, force: force)
        // Taken as needed: nothing is ever due, and "done" is the dose taken now.
        if reminder.rule.asNeeded == true { return try await logIntake(reminder, at: now, amount: taken, force: force, now: now) }
        let target = try await target(of: reminder, ahead: false, now: now)
        guard target.status != nil else {
            throw .nothingDue(reminder.name, "nothing of \(reminder.name) is due now\(nextText(target, now: now)): to record an intake anyway, run remindctl log \"\(reminder.name)\"")
        }
        return try await logIntake(reminder, at: now, amount: taken, force: force, now: now)
    }

    /// Records a dose; one its reminder's limits do not allow is refused, with when the next one is, unless
    /// `force` (then it is recorded as forced).
    func logIntake(_ reminder: StoredReminder, at instant: Instant, amount: Int64?, force: Bool, now: Instant) async throws(ServiceError) -> LogReply {
        let zone = try context.zone(named: reminder.timeZone)
        let limits = reminder.delivery.medication.limits
        var forced = false
        if !limits.isEmpty {
            let reach = max(limits.minIntervalSeconds ?? 0, 86400)
            let doses = try storing { () throws(StoreError) in
                try context.store.intake.instants(reminderID: reminder.id!, from: instant.adding(seconds: -reach), through: instant.adding(seconds: reach), lateTakes: true)
            }
            if let breach = limits.breach(at: instant, doses: doses) {
                guard force else { throw Self.doseNotAllowed(reminder, breach, at: instant, doses: doses, limits: limits, zone: zone, now: now) }
                forced = true
            }
        }
        // After the window of a missed occurrence closed, before the next: it takes that one late.
        if let late = try lateOccurrence(takenBy: instant, of: reminder) {
            let record = try await recordLateTake(reminder, late, at: instant, amount: amount, forced: forced, now: now)
            await context.changes.publish(.init(.logged, reminder: reminder.id))
            return LogReply(log: try intakeValues([record], now: now)[0], cancelledSnoozes: 0)
        }
        let record = try storing { () throws(StoreError) in
            try context.store.intake.log(reminderID: reminder.id!, at: instant, timeZone: zone.identifier, amount: amount, forced: forced)
        }
        let cancelled = await scheduling.reconsider(reminderID: reminder.id!, now: now)
        await habits.changed(now: now, activity: .added(instant, zone: zone.identifier))
        await context.changes.publish(.init(.logged, reminder: reminder.id))
        return LogReply(log: try intakeValues([record], now: now)[0], cancelledSnoozes: cancelled)
    }

    /// The refusal of a dose past its reminder's limits: what the limit is, when the dose it is too close to was,
    /// and from when the next one is allowed.
    static func doseNotAllowed(
        _ reminder: StoredReminder, _ breach: DoseLimits.Breach, at instant: Instant, doses: [Instant], limits: DoseLimits, zone: TimeZoneRules,
        now: Instant
    ) -> ServiceError {
        let allowed = limits.nextAllowed(now: instant, doses: doses.filter { $0 <= instant })
        let when = { (moment: Instant) in TimeText.near(moment, in: zone, now: now) }
        let why: String
        switch breach {
        case .tooSoon(let other) where other <= instant:
            why = "the last dose was at \(when(other)) (at least \(WindowLength.text(limits.minIntervalSeconds ?? 0)) apart)"
        case .tooSoon(let other):
            why = "another dose was logged at \(when(other)) (at least \(WindowLength.text(limits.minIntervalSeconds ?? 0)) apart)"
        case .tooMany(let count, let first):
            why = "it would be dose \(count) in the 24 hours from \(when(first)) (at most \(limits.maxPerDay ?? 0))"
        }
        let next = allowed > instant ? "; the next is allowed from \(when(allowed))" : ""
        return .doseNotAllowed(
            reminder.name, allowedFrom: allowed, "\(reminder.name): \(why)\(next); --force to log it anyway")
    }
}
