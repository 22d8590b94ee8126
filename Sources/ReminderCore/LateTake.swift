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
    ///
    /// Led by the occurrences, not the logs: only the logs after a missed occurrence's window (and within
    /// ``lateTakeHoursAfterWindow`` of it) are weighed, each with the logs of the days around it. (Weighing every
    /// log with its neighbours took minutes for 30,000 logs a minute apart.)
    /// - Parameters:
    ///   - logs: the reminder's plain logs, sorted.
    ///   - takenLate: the occurrences taken late already, by instant.
    /// - Returns: by the position of a log in `logs`, the occurrence it takes late.
    public func lateTakes(
        among logs: [Instant], in zone: TimeZoneRules, skips: Set<Instant>, takenLate: [Instant: Instant], windowSeconds: Int64?, createdAt: Instant
    ) -> [Int: Instant] {
        guard !countsFromLastDose, let first = logs.first, let last = logs.last else { return [:] }
        var matched: [Int: Instant] = [:]
        var late = takenLate
        /// The logs from one instant through another, but for those matched already and `except`.
        func around(_ from: Instant, _ through: Instant, except: Int? = nil) -> [Instant] {
            (logs.partitionPoint { $0 >= from }..<logs.partitionPoint { $0 > through })
                .filter { $0 != except && matched[$0] == nil }.map { logs[$0] }
        }
        var next = nextOccurrence(after: first.adding(seconds: -2 * 86400), in: zone)
        while let occurrence = next, occurrence.instant < last {
            next = nextOccurrence(after: occurrence.instant, in: zone)
            guard occurrence.instant >= createdAt, late[occurrence.instant] == nil, !skips.contains(occurrence.instant) else { continue }
            let end = windowEnd(of: occurrence, windowSeconds: windowSeconds, in: zone)
            let day = around(occurrence.instant.adding(seconds: -2 * 86400), end.adding(seconds: 86400))
            guard state(of: occurrence, in: zone, logs: day, skips: skips, windowSeconds: windowSeconds, now: end, takenLate: late).state == .missed
            else { continue }
            let limit = min(end.adding(seconds: Self.lateTakeHoursAfterWindow * 3600), next?.instant ?? last)
            for index in logs.partitionPoint(where: { $0 >= end })..<logs.partitionPoint(where: { $0 > limit }) where matched[index] == nil {
                let log = logs[index]
                let others = around(log.adding(seconds: -3 * 86400), log.adding(seconds: 86400), except: index)
                guard let status = lateTake(by: log, in: zone, logs: others, skips: skips, takenLate: late, windowSeconds: windowSeconds, createdAt: createdAt),
                    status.occurrence.instant == occurrence.instant
                else { continue }
                matched[index] = occurrence.instant
                late[occurrence.instant] = log
                break
            }
        }
        return matched
    }
}

extension Array {
    /// The index of the first element for which `isAfter` is true, in an array sorted so that it is false, then
    /// true (a binary search); `count` when none is.
    public func partitionPoint(where isAfter: (Element) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
