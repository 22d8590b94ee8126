import ReminderCore

/// Per-goal streaks and the rest suggestion: pure functions of a rule, its logs and skips, and "now".
public enum GoalStreak {
    /// The part of a goal's streak that no longer changes as time passes: the kept days counted back from
    /// the day before the day it was computed on. Every occurrence of an earlier day is decided (a window ends
    /// by the end of its occurrence's day), so only a change to that past (a log or skip on one of those days,
    /// a rest day, the rule) changes it. Passed back to ``length(rule:zone:logs:skips:windowSeconds:restDays:createdAt:now:settled:takenLate:)``,
    /// it spares the walk through those days.
    public struct Settled: Sendable, Hashable {
        /// The last day counted: a local day number in the goal's zone.
        public let through: Int
        /// Kept days counted back from `through`, up to a missed day or `firstDay`.
        public let kept: Int
        /// Where counting stops: the earlier of the day the goal was created and the day of its first log.
        public let firstDay: Int

        /// Whether it can be used on `today`: not when its days reach today (the clock went back).
        public func applies(on today: Int) -> Bool { through < today }

        public init(through: Int, kept: Int, firstDay: Int) {
            self.through = through
            self.kept = kept
            self.firstDay = firstDay
        }
    }

    /// Consecutive days, back from today, on which the goal was kept: counted from the states of its
    /// occurrences (``OccurrenceState``).
    ///
    /// A day counts when each of its occurrences is taken, suppressed (logged ahead) or skipped, and at least one
    /// is taken or suppressed. A missed occurrence breaks the streak, today's too. Skipped and paused occurrences, days on
    /// which the goal has no occurrence (a weekly goal's other days), rest days, and today while it still has
    /// an upcoming or due occurrence are neutral. On the day the goal was created, its occurrences before that
    /// instant are neutral; before that day only logs count, and counting stops at the earlier of that day and
    /// the day of the first log.
    /// - Parameters:
    ///   - logs: the goal's logs, oldest first: all of them, or, with `settled`, at least those after its `through`.
    ///   - skips: the instants of the occurrences the user skipped.
    ///   - settled: what an earlier call returned for the same goal, rule, skips, logs and rest days up to its
    ///     `through`, when it ``Settled/applies(on:)`` today.
    ///   - takenLate: the goal's occurrences taken late, with their logs: counted as taken.
    ///   - pauses: the goal's pauses with dates (a day paused throughout neither breaks nor extends the streak).
    /// - Returns: the streak, and its settled part to pass next time.
    public static func length(
        rule: ReminderRule, zone: TimeZoneRules, logs: [Instant], skips: Set<Instant>, windowSeconds: Int64?, restDays: Set<Int>,
        createdAt: Instant, now: Instant, settled: Settled? = nil, takenLate: [Instant: Instant] = [:], pauses: PauseSettings = PauseSettings()
    ) -> (length: Int, settled: Settled) {
        // A window ends by the end of its occurrence's day, and suppression counts that day's logs only: the
        // logs of one day decide that day's states.
        var logsPerDay: [Int: [Instant]] = [:]
        for log in logs { logsPerDay[zone.localDayNumber(at: log), default: []].append(log) }
        let today = zone.localDayNumber(at: now)
        assert(settled?.applies(on: today) ?? true, "a settled streak reaching today was passed: its days' logs may be missing")
        let settled = settled.flatMap { $0.applies(on: today) ? $0 : nil }
        let created = zone.localDayNumber(at: createdAt)
        // Logs are only added after `settled.through` (an earlier change would have made it stale), so its first
        // day stands unless the goal had no log then.
        let firstDay = min(created, logs.first.map { zone.localDayNumber(at: $0) } ?? created, settled?.firstDay ?? .max)
        // Today, still open, is counted apart: the walk from yesterday back is what settles.
        var todayCounts = 0  // 1 when today counts, -1 when a missed occurrence breaks the streak today
        var kept = 0
        var day = today
        while day >= firstDay {
            defer { day -= 1 }
            if let settled, day == settled.through {
                kept += settled.kept
                break
            }
            if restDays.contains(day) { continue }
            var states = rule.states(
                on: LocalDate(dayNumber: day), in: zone, logs: logsPerDay[day] ?? [], skips: skips, windowSeconds: windowSeconds, now: now,
                takenLate: takenLate, pauses: pauses)
            if day == created {
                states.removeAll { $0.occurrence.instant < createdAt && $0.state != .taken && $0.state != .suppressed }
            }
            let counts: Int
            if states.contains(where: { $0.state == .missed }) {
                counts = -1
            } else if states.allSatisfy({ [.taken, .takenLate, .suppressed, .skipped, .paused].contains($0.state) })
                && states.contains(where: { [.taken, .takenLate, .suppressed].contains($0.state) })
            {
                counts = 1
            } else {
                counts = 0
            }
            if day == today {
                todayCounts = counts
            } else if counts < 0 {
                break
            } else {
                kept += counts
            }
        }
        return (todayCounts < 0 ? 0 : kept + todayCounts, Settled(through: today - 1, kept: kept, firstDay: firstDay))
    }

    /// Whether to suggest a rest day today: the 6 days before today were all active (no rest day among them).
    public static func suggestsRest(_ report: StreakReport, today: Int) -> Bool {
        ((today - 6)...(today - 1)).allSatisfy { report.days[$0] == .active }
    }
}
