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
        let limits = reminder.delivery.medication.limits
        guard !limits.isEmpty else { return false }
        let reach = max(limits.minIntervalSeconds ?? 0, 86400)
        let doses = try storing { () throws(StoreError) in
            try stores.intake.instants(reminderID: reminder.id, from: instant.adding(seconds: -reach), through: instant.adding(seconds: reach), lateTakes: true)
        }
        guard let breach = limits.breach(at: instant, doses: doses) else { return false }
        guard force else {
            throw Self.doseNotAllowed(reminder, breach, at: instant, doses: doses, limits: limits, zone: try context.settings.zone(named: reminder.timeZone), now: now)
        }
        return true
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
                leftInADay: limits.leftInADay(now: now, doses: doses))
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
        let refusal = DoseRefusal(reminder: reminder.name, at: instant, breach: breach, limits: limits, allowedFrom: allowed)
        return .doseNotAllowed(refusal, "\(reminder.name): \(why)\(next); --force to log it anyway")
    }
}

/// A dose refused by its reminder's limits, as facts: its error carries them so that a client says it in its
/// own words (remindctl in the user's language); the error's `message` is the daemon's English.
struct DoseRefusal: Sendable, Hashable {
    var reminder: String
    /// The dose asked for.
    var at: Instant
    var breach: DoseLimits.Breach
    var limits: DoseLimits
    /// From when a dose keeps to the limits.
    var allowedFrom: Instant
    /// Why other devices' doses could not be brought in first.
    var unsynced: String?

    func parameters(message: String) -> RemindErrors.DoseNotAllowed {
        var error = RemindErrors.DoseNotAllowed(
            reminder: reminder, allowedFromUtc: allowedFrom.description, message: message, atUtc: at.description,
            minIntervalSeconds: limits.minIntervalSeconds, maxPerDay: limits.maxPerDay, unsynced: unsynced)
        switch breach {
        case .tooSoon(let other): (error.limit, error.otherUtc) = ("interval", other.description)
        case .tooMany(let count, let first): (error.limit, error.otherUtc, error.count) = ("per-day", first.description, count)
        }
        return error
    }
}
