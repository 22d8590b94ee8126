import ReminderCore

/// How soon the collection's sync runs again while an announced dose waits for its tick (#61): a dose ticked
/// on the phone came here only at the next `sync-interval` run (296 s once). While an occurrence is announced
/// and neither taken nor skipped, the sync runs a tenth of the time since its last announcement after the last
/// run began: every 30 s in its first five minutes (the first 30 s after it is announced), then less often, up to
/// `sync-interval` once it has waited 50 minutes; with nothing waiting (or the interval off), this adds no run.
public enum SyncPace {
    /// The shortest time between two runs while a dose waits.
    public static let fastestSeconds: Int64 = 30
    /// The time between two runs is the time the dose has waited divided by this.
    public static let waitDivisor: Int64 = 10

    /// The next run's instant for a dose waiting since `waitingSince` (its last announcement), the last run
    /// having begun at `lastStarted`; nil when nothing waits or `intervalSeconds` (off) is nil.
    public static func nextRun(waitingSince: Instant?, lastStarted: Instant?, intervalSeconds: Int64?, now: Instant) -> Instant? {
        guard let waitingSince, let intervalSeconds else { return nil }
        let waited = max(0, now.secondsSinceEpoch - waitingSince.secondsSinceEpoch)
        let spacing = min(max(waited / waitDivisor, fastestSeconds), max(intervalSeconds, fastestSeconds))
        var next = waitingSince.adding(seconds: fastestSeconds)
        if let lastStarted { next = max(next, lastStarted.adding(seconds: spacing)) }
        return max(next, now)
    }
}
