import ReminderCore
import ReminderInterface
import ReminderStore

/// What the reminders' service asks of medication when a dose is logged or a day is shown: how much a log takes,
/// whether the reminder's limits allow a dose, and where each medication taken as needed stands. Medication
/// (``MedicationService``) answers; the reminders' service records the log.
protocol DosePolicy: Sendable {
    /// How much a log takes: `text` in the unit of the reminder's dose, or the dose itself; nil without a dose
    /// (`date`: the log's local day, whose step a tapering course takes).
    func amount(_ text: String?, of reminder: StoredReminder, on date: LocalDate, force: Bool) throws(ServiceError) -> Int64?

    /// Whether a dose at `instant` is past the reminder's limits (then recorded as forced), or the refusal, with
    /// when the next one is allowed, unless `force`.
    func forced(_ reminder: StoredReminder, at instant: Instant, force: Bool, now: Instant) throws(ServiceError) -> Bool

    /// Where each enabled medication taken as needed stands at `now`.
    func asNeeded(now: Instant) throws(ServiceError) -> [AsNeededValue]
}
