import ReminderCore
import ReminderInterface
import ReminderStore

/// A medication's doses: how much a log takes, the limits that refuse one (`--min-interval`, `--max-per-day`),
/// and where each medication taken as needed stands. The reminders' service asks through ``DosePolicy``.
extension MedicationService: DosePolicy {
    /// The most doses one log may take without `--force` (`log --amount 100000` of a 2-tablet dose emptied the
    /// stock at once, silently).
    static let maximumDosesPerLog: Int64 = 100

    func amount(_ text: String?, of reminder: StoredReminder, on date: LocalDate, force: Bool) throws(ServiceError) -> Int64? {
        guard let dose = reminder.delivery.medication.dose(on: date) else {
            guard text == nil else {
                throw .invalidInput(parameter: "amount", message: "\(reminder.name) has no dose to take an amount of: give it one, e.g. remindctl update \"\(reminder.name)\" --dose 2 --unit tablet")
            }
            return nil
        }
        guard let text else { return dose.thousandths }
        let taken: Int64
        do { taken = try Dose(amount: text, unit: dose.unit).thousandths } catch { throw .invalidInput(parameter: "amount", message: error.message) }
        guard force || taken <= dose.thousandths * Self.maximumDosesPerLog else {
            throw .invalidInput(parameter: "amount", message: """
                \(quotedInput(text)) is \(taken / dose.thousandths) doses of \(reminder.name) (\(dose.amountText) \(dose.unit) each): \
                one log takes at most \(Self.maximumDosesPerLog); if it is right, add --force
                """)
        }
        return taken
    }

    func forced(_ reminder: StoredReminder, at instant: Instant, force: Bool, now: Instant) throws(ServiceError) -> Bool {
        var refusal = try limitRefusal(reminder, at: instant, now: now)
        if refusal == nil { refusal = try apartRefusal(reminder, at: instant, now: now) }
        guard let refusal else { return false }
        guard force else { throw refusal }
        return true
    }

    /// The refusal of a dose at `instant` its own limits do not allow, or nil.
    private func limitRefusal(_ reminder: StoredReminder, at instant: Instant, now: Instant) throws(ServiceError) -> ServiceError? {
        let limits = reminder.delivery.medication.limits
        guard !limits.isEmpty else { return nil }
        let reach = max(limits.minIntervalSeconds ?? 0, 86400)
        let doses = try storing { () throws(StoreError) in
            try stores.intake.instants(reminderID: reminder.id, from: instant.adding(seconds: -reach), through: instant.adding(seconds: reach), lateTakes: true)
        }
        guard let breach = limits.breach(at: instant, doses: doses) else { return nil }
        return Self.doseNotAllowed(reminder, breach, at: instant, doses: doses, limits: limits, zone: try context.settings.zone(named: reminder.timeZone), now: now)
    }

    /// The refusal of a dose at `instant` too close to a dose of a medicine it is kept apart from (either
    /// side of it, from any device), or nil.
    private func apartRefusal(_ reminder: StoredReminder, at instant: Instant, now: Instant) throws(ServiceError) -> ServiceError? {
        var partners: [DoseGaps.Partner] = []
        for gap in reminder.delivery.medication.apart {
            guard let partner = try storing({ () throws(StoreError) in try stores.reminders.named(gap.reminder) }) else { continue }
            let doses = try storing { () throws(StoreError) in
                try stores.intake.instants(
                    reminderID: partner.id, from: instant.adding(seconds: -gap.seconds), through: instant.adding(seconds: gap.seconds), lateTakes: true)
            }
            partners.append(DoseGaps.Partner(gap: DoseGap(reminder: partner.name, seconds: gap.seconds), doses: doses))
        }
        guard let hold = DoseGaps.breach(at: instant, partners: partners) else { return nil }
        let zone = try context.settings.zone(named: reminder.timeZone)
        let when = { (moment: Instant) in TimeText.near(moment, in: zone, now: now) }
        let side = hold.from <= instant ? "was taken at" : "is logged at"
        let refusal = DoseRefusal(reminder: reminder.name, at: instant, why: .apart(hold), allowedFrom: hold.until)
        return .doseNotAllowed(refusal, """
            \(reminder.name): \(hold.partner) \(side) \(when(hold.from)) (kept at least \(WindowLength.text(hold.gapSeconds)) apart); \
            \(hold.from <= instant ? "the next is allowed from \(when(hold.until)); " : "")--force to log it anyway
            """)
    }

    /// Where each enabled medication taken as needed stands at `now`: its last dose (in the day, or the
    /// interval, before), and from when the next keeps to its limits.
    func asNeeded(now: Instant) throws(ServiceError) -> [AsNeededValue] {
        let reminders = try storing { () throws(StoreError) in try stores.reminders.asNeeded() }
        return try reminders.map { reminder throws(ServiceError) in
            let zone = try context.settings.zone(named: reminder.timeZone)
            let limits = reminder.delivery.medication.limits
            let doses = try storing { () throws(StoreError) in
                try stores.intake.instants(
                    reminderID: reminder.id, from: now.adding(seconds: -max(limits.minIntervalSeconds ?? 0, 86400)), through: now, lateTakes: true)
            }
            let allowed = limits.nextAllowed(now: now, doses: doses)
            return AsNeededValue(
                reminderId: reminder.id, reminderName: reminder.name, dose: reminder.delivery.medication.dose.map { Double($0.thousandths) / 1000 },
                unit: reminder.delivery.medication.dose?.unit, lastDoseUtc: doses.last?.description, allowedFromUtc: allowed.description,
                allowedFromLocal: ISO8601.format(allowed, offsetSeconds: zone.offset(at: allowed), zulu: false), allowedNow: allowed <= now,
                leftInADay: limits.leftInADay(now: now, doses: doses)
            ).of(reminder.delivery.person)
        }
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
        let refusal = DoseRefusal(reminder: reminder.name, at: instant, why: .limit(breach, limits), allowedFrom: allowed)
        return .doseNotAllowed(refusal, "\(reminder.name): \(why)\(next); --force to log it anyway")
    }
}

/// A dose refused by its reminder's limits, or by a medicine it is kept apart from, as facts: its error
/// carries them so that a client says it in its own words (remindctl in the user's language); the error's
/// `message` is the daemon's English.
struct DoseRefusal: Sendable, Hashable {
    var reminder: String
    /// The dose asked for.
    var at: Instant
    var why: Why
    /// From when a dose keeps to the limits.
    var allowedFrom: Instant
    /// Why other devices' doses could not be brought in first.
    var unsynced: String?

    /// What the dose breaks.
    enum Why: Sendable, Hashable {
        /// The reminder's own limits.
        case limit(DoseLimits.Breach, DoseLimits)
        /// The gap from another medicine's dose.
        case apart(DoseGaps.Hold)
    }

    func parameters(message: String) -> RemindErrors.DoseNotAllowed {
        var error = RemindErrors.DoseNotAllowed(
            reminder: reminder, allowedFromUtc: allowedFrom.description, message: message, atUtc: at.description, unsynced: unsynced)
        switch why {
        case .limit(let breach, let limits):
            (error.minIntervalSeconds, error.maxPerDay) = (limits.minIntervalSeconds, limits.maxPerDay)
            switch breach {
            case .tooSoon(let other): (error.limit, error.otherUtc) = ("interval", other.description)
            case .tooMany(let count, let first): (error.limit, error.otherUtc, error.count) = ("per-day", first.description, count)
            }
        case .apart(let hold):
            (error.limit, error.otherUtc, error.otherReminder, error.gapSeconds) = ("apart", hold.from.description, hold.partner, hold.gapSeconds)
        }
        return error
    }
}
