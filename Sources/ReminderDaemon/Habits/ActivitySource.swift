import ReminderCore
import ReminderStore

/// Where the habit counts read their activities from (every intake log and workout, each with the zone it
/// happened in): a port, so that the intake and fitness stores stay their own services'. The composition root
/// (``Daemon``) builds it over those stores.
struct ActivitySource: Sendable {
    /// Every activity, in any order.
    let all: @Sendable () throws(StoreError) -> [(at: Instant, timeZone: String)]
    /// The on-time logs and the late takes (occurrence to when it was taken) of some reminders, from one
    /// instant through another.
    let goalHistory: @Sendable (_ reminderIDs: [Int64], _ from: Instant, _ through: Instant) throws(StoreError)
        -> (logs: [Int64: [Instant]], late: [Int64: [Instant: Instant]])
}
