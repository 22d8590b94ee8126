/// How well one reminder was kept over a period: the figures of an adherence report (`remindctl report`), from
/// the states of its occurrences. Pure: the caller gives the rule, the zone, the logs, the skips and `now`.
///
/// Counted: the occurrences from its first day to its last (local dates in the reminder's zone), not before the
/// reminder existed, and decided by `now` (one still due or ahead is left out). Taken on time: a log in its
/// window, or before it (logged ahead: suppressed, the dose taken). Late: taken late after its window ("Taken
/// late"), with how many minutes after its time. Adherence: taken (on time and late) / (due - skipped). A
/// paused occurrence (`remindctl pause`) is counted apart and is not due.
public struct AdherenceFigures: Sendable, Hashable {
    /// Occurrences decided in the period.
    public var due = 0
    public var onTime = 0
    /// Of `onTime`: logged ahead of the occurrence (it was not announced).
    public var loggedAhead = 0
    public var late = 0
    /// Minutes late of the late ones: the median and the 90th percentile (nearest rank); nil without any.
    public var lateMinutesMedian: Int?
    public var lateMinutesP90: Int?
    public var skipped = 0
    /// Occurrences a pause covered: not due, not in the adherence.
    public var paused = 0
    /// The reasons given for the skips, with how often ("" for none).
    public var skipReasons: [String: Int] = [:]
    /// The missed occurrences, oldest first.
    public var missed: [Occurrence] = []
    /// Each day of the period with its occurrences' states, in order (the heatmap's rows).
    public var days: [Day] = []

    /// One day of the period: its occurrences' states in time order, and their local times.
    public struct Day: Sendable, Hashable {
        public var date: LocalDate
        public var states: [OccurrenceState]
        public var times: [TimeOfDay]
    }

    /// Taken / (due - skipped); nil when nothing was to take.
    public var adherence: Double? {
        let owed = due - skipped
        return owed > 0 ? Double(onTime + late) / Double(owed) : nil
    }

    public init() {}

    /// The figures of one reminder.
    /// - Parameters:
    ///   - skips: the skipped occurrences' instants with the reason given ("" for none).
    ///   - takenLate: the occurrences taken late, with their logs' instants.
    ///   - pauses: the reminder's pauses.
    public init(
        rule: ReminderRule, zone: TimeZoneRules, windowSeconds: Int64?, createdAt: Instant, from: LocalDate, through: LocalDate, logs: [Instant],
        skips: [Instant: String], takenLate: [Instant: Instant], now: Instant, pauses: PauseSettings = PauseSettings()
    ) {
        var lateMinutes: [Int] = []
        // A day's states depend on that local day's logs alone (a window ends by midnight; suppression counts the
        // day's logs): each day is given its own, so ten years cost the logs once, not once a day.
        let logsByDay = Dictionary(grouping: logs) { zone.localDayNumber(at: $0) }
        let skippedInstants = Set(skips.keys)
        for day in from.dayNumber...max(from.dayNumber, through.dayNumber) {
            let date = LocalDate(dayNumber: day)
            let states = rule.states(
                on: date, in: zone, logs: logsByDay[day] ?? [], skips: skippedInstants, windowSeconds: windowSeconds, now: now, takenLate: takenLate,
                pauses: pauses
            ).filter { $0.occurrence.instant >= createdAt }
            days.append(Day(date: date, states: states.map(\.state), times: states.map(\.occurrence.scheduledTime)))
            for status in states {
                switch status.state {
                case .upcoming, .due: continue
                case .paused:
                    paused += 1
                    continue
                case .taken: onTime += 1
                case .suppressed: (onTime, loggedAhead) = (onTime + 1, loggedAhead + 1)
                case .takenLate:
                    late += 1
                    let log = status.coveredBy ?? status.occurrence.instant
                    lateMinutes.append(Int((log.secondsSinceEpoch - status.occurrence.instant.secondsSinceEpoch) / 60))
                case .skipped:
                    skipped += 1
                    skipReasons[skips[status.occurrence.instant] ?? "", default: 0] += 1
                case .missed: missed.append(status.occurrence)
                }
                due += 1
            }
        }
        lateMinutes.sort()
        if !lateMinutes.isEmpty {
            lateMinutesMedian = Self.percentile(lateMinutes, 50)
            lateMinutesP90 = Self.percentile(lateMinutes, 90)
        }
    }

    /// The nearest-rank percentile of sorted values.
    static func percentile(_ sorted: [Int], _ p: Int) -> Int {
        let rank = max(1, (p * sorted.count + 99) / 100)  // ceil(p/100 * n)
        return sorted[rank - 1]
    }
}
