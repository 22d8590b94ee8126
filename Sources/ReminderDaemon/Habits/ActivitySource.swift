import ReminderCore
import ReminderStore

/// Where the habit counts read their activities from (every intake log and workout, each with the zone it
/// happened in): a port, so that the intake and fitness stores stay their own services'. The composition root
/// (``Daemon``) builds it over those stores.
struct ActivitySource: Sendable {
    /// Every activity, in any order.
    let all: @Sendable () throws(StoreError) -> [(at: Instant, timeZone: String)]
}
