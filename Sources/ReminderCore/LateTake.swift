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

extension ReminderRule {
    /// Which of a reminder's plain logs take a missed occurrence late, matched in time order as each would have
    /// been when it was logged (``lateTake(by:in:logs:skips:takenLate:windowSeconds:createdAt:)``, each match
    /// seen by the later ones): for logs recorded without saying so (made before late takes were matched when
    /// logged, or restored from such a backup).
    /// - Parameters:
    ///   - logs: the reminder's plain logs, sorted.
    ///   - takenLate: the occurrences taken late already, by instant.
    /// - Returns: by the position of a log in `logs`, the occurrence it takes late.
    public func lateTakes(
        among logs: [Instant], in zone: TimeZoneRules, skips: Set<Instant>, takenLate: [Instant: Instant], windowSeconds: Int64?, createdAt: Instant
    ) -> [Int: Instant] {
        var matched: [Int: Instant] = [:]
        var late = takenLate
        var (low, high) = (0, 0)
        for (index, log) in logs.enumerated() {
            // The logs around it that a live log would have been weighed with (three days before, one after).
            while logs[low] < log.adding(seconds: -3 * 86400) { low += 1 }
            while high + 1 < logs.count, logs[high + 1] <= log.adding(seconds: 86400) { high += 1 }
            let others = (low...high).filter { $0 != index && matched[$0] == nil }.map { logs[$0] }
            guard let status = lateTake(by: log, in: zone, logs: others, skips: skips, takenLate: late, windowSeconds: windowSeconds, createdAt: createdAt)
            else { continue }
            matched[index] = status.occurrence.instant
            late[status.occurrence.instant] = log
        }
        return matched
    }
}
