import ReminderCore

/// The habit's part of a report over a period: each day's state with Loop's strength at its end, the active days
/// by weekday, and the longest streaks that reach into the period. Pure: read from a ``StreakReport``, whose
/// days run from the first event to today (days of the period outside those are left out).
public struct HabitFigures: Sendable, Hashable {
    /// A day's state and the strength at its end (0...1).
    public struct Day: Sendable, Hashable {
        public var date: LocalDate
        public var state: DayState
        public var strength: Double
    }

    public var days: [Day] = []
    /// Active days of the period by weekday, Monday first.
    public var activeByWeekday = Array(repeating: 0, count: 7)
    /// At most ``maximumStreaks`` of the longest streaks (the newer of two as long) that reach into the period,
    /// newest first.
    public var streaks: [StreakRun] = []

    /// How many streaks a report shows.
    public static let maximumStreaks = 10

    public init(report: StreakReport, from: LocalDate, through: LocalDate) {
        let known = report.days.keys.sorted()
        let period = from.dayNumber...through.dayNumber
        var strength = 0.0
        var runs: [StreakRun] = []
        var run: StreakRun?
        for day in known {
            let state = report.days[day]!
            // The strength replays the engine's own step from the first day, so the period's first is right too.
            strength = StreakEngine.strengthAfter(state, from: strength)
            let date = LocalDate(dayNumber: day)
            switch state {
            case .active, .rest, .frozen, .recovered:
                if var current = run, current.end.dayNumber == day - 1 {
                    (current.length, current.end) = (current.length + 1, date)
                    run = current
                } else {
                    if let run { runs.append(run) }
                    run = StreakRun(length: 1, start: date, end: date)
                }
            case .missed, .open:
                if let ended = run { runs.append(ended) }
                run = nil
            }
            guard period.contains(day) else { continue }
            days.append(Day(date: date, state: state, strength: strength))
            if state == .active { activeByWeekday[date.weekday.mondayFirstIndex] += 1 }
        }
        if let run { runs.append(run) }
        let reaching = runs.filter { $0.end >= from && $0.start <= through }
        streaks = reaching.enumerated().sorted { ($0.element.length, $0.offset) > ($1.element.length, $1.offset) }
            .prefix(Self.maximumStreaks).map(\.element).sorted { $0.start > $1.start }
    }
}
