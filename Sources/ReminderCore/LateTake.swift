extension ReminderRule {
    /// How long after an occurrence's window closed a plain log still takes it late (the next occurrence's time
    /// comes first when it is sooner): a dose taken 2.5 h late is late, not missed; a log days later is a log.
    public static let lateTakeHoursAfterWindow: Int64 = 12

    /// The occurrence a log at `log` takes late, when it takes none otherwise: the latest occurrence before it,
    /// missed (its window closed with nothing logged, skipped or taken late), whose window closed at most
    /// ``lateTakeHoursAfterWindow`` before the log and whose next occurrence is after it, when the log counts
    /// toward no suppression (a log before a later occurrence of its day that it would cover is that one's, as
    /// the suppression rule says). nil for a reminder that counts from the last dose (its logs make its times).
    /// - Parameters:
    ///   - logs: the reminder's other plain logs (not late takes), any order.
    ///   - takenLate: the occurrences taken late already, by instant.
    ///   - createdAt: when the reminder was added (an occurrence before it is not its own).
    public func lateTake(
        by log: Instant, in zone: TimeZoneRules, logs: [Instant], skips: Set<Instant>, takenLate: [Instant: Instant], windowSeconds: Int64?,
        createdAt: Instant
    ) -> OccurrenceStatus? {
        guard !countsFromLastDose else { return nil }
        let day = zone.localDayNumber(at: log)
        let recent = occurrences(on: LocalDate(dayNumber: day - 1), in: zone) + occurrences(on: LocalDate(dayNumber: day), in: zone)
        guard let occurrence = recent.last(where: { $0.instant < log }), occurrence.instant >= createdAt else { return nil }
        let status = state(of: occurrence, in: zone, logs: logs, skips: skips, windowSeconds: windowSeconds, now: log, takenLate: takenLate)
        guard status.state == .missed, log.secondsSinceEpoch - status.windowEnd.secondsSinceEpoch <= Self.lateTakeHoursAfterWindow * 3600 else { return nil }
        if let next = nextOccurrence(after: occurrence.instant, in: zone), next.instant <= log { return nil }
        // Counted toward a later occurrence of its day, it is that one's (logged ahead), not this one's.
        for later in occurrences(on: LocalDate(dayNumber: day), in: zone) where later.instant >= log {
            let (without, with) = (suppression(of: later, logs: logs, in: zone), suppression(of: later, logs: logs + [log], in: zone))
            if (without == .fire) != (with == .fire) { return nil }
        }
        return status
    }
}
