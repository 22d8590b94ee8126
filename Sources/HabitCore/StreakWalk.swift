import ReminderCore

/// ``StreakEngine/report(days:restDays:recovered:now:)``'s walk over the days, from the first that matters to
/// today, in order: each day's state, and the streak, freezes, achievements and strength it leaves behind.
struct StreakWalk {
    /// Activities per habit day.
    let own: [Int: ActivityDays.Count]
    /// Marked rest days, and days a recovery restored (day numbers).
    let rest: Set<Int>
    let recoveredDays: Set<Int>
    let today: Int
    /// Whether it is still the grace period in which an activity counts for yesterday.
    let inGraceOfYesterday: Bool

    /// Days whose grace-period activity counts for the day before.
    private var movedAway = Set<Int>()
    /// Days a freeze before them counted on as active through the next morning's grace activity: they take it.
    private var owedGrace = Set<Int>()
    private(set) var days: [Int: DayState] = [:]
    private(set) var streak = 0
    private var streakStart: Int
    private(set) var freezes = 0
    private(set) var history: [FreezeEvent] = []
    private(set) var achievements: [Achievement.ID: Int] = [:]
    private(set) var best: StreakRun?
    /// Each break: the streak it ended and its first missed day, oldest first.
    private(set) var breaks: [(streak: StreakRun, missed: Int)] = []
    /// Active days in a row that are not marked rest days.
    private var activeRun = 0
    private(set) var strength = 0.0

    init(own: [Int: ActivityDays.Count], rest: Set<Int>, recoveredDays: Set<Int>, today: Int, inGraceOfYesterday: Bool, first: Int) {
        (self.own, self.rest, self.recoveredDays, self.today, self.inGraceOfYesterday) = (own, rest, recoveredDays, today, inGraceOfYesterday)
        streakStart = first
    }

    /// Walks every day from `first` through today.
    mutating func walk(from first: Int) {
        var day = first
        while day <= today {
            let state = state(of: day)
            days[day] = state
            count(state, on: day)
            noteAchievements(state, on: day)
            strength = StreakEngine.strengthAfter(state, from: strength)
            day += 1
        }
    }

    private func hasOwnActivity(_ day: Int) -> Bool {
        guard let count = own[day] else { return false }
        return movedAway.contains(day) ? count.all > count.grace : count.all > 0
    }

    func keepsStreak(_ day: Int) -> Bool { hasOwnActivity(day) || rest.contains(day) || recoveredDays.contains(day) }

    /// Whether a day with nothing of its own is made active by the next day's grace-period activity (the grace
    /// branch of ``state(of:)``): then it keeps a streak too, and a freeze covers the missed day before it.
    private func activeByGrace(_ day: Int) -> Bool { day < today && !keepsStreak(day) && (own[day + 1]?.grace ?? 0) > 0 }

    /// A day's state, from what came before it (the streak and freezes so far) and the next day's grace activity.
    private mutating func state(of day: Int) -> DayState {
        if hasOwnActivity(day) { return .active }
        if rest.contains(day) { return .rest }
        if recoveredDays.contains(day) { return .recovered }
        if day < today, (own[day + 1]?.grace ?? 0) > 0, owedGrace.contains(day) || !(streak > 0 && freezes > 0 && keepsStreak(day + 1)) {
            // Grace: the next day's early activity counts for this day, which has none, is not a rest day and is
            // not covered by a freeze; the next day may take the following morning's in turn.
            movedAway.insert(day + 1)
            return .active
        }
        if day == today || (day == today - 1 && inGraceOfYesterday) { return .open }
        if streak > 0, freezes > 0, keepsStreak(day + 1) || activeByGrace(day + 1) {
            // Frozen because the next day is active only through grace: it must take that grace, not a freeze of
            // its own (one log counts once).
            if !keepsStreak(day + 1) { owedGrace.insert(day + 1) }
            return .frozen
        }
        return .missed
    }

    /// The streak, the freezes banked or used, the best run and the breaks, after a day of `state`.
    private mutating func count(_ state: DayState, on day: Int) {
        switch state {
        case .active, .rest, .frozen, .recovered:
            if streak == 0 { streakStart = day }
            streak += 1
            if state == .frozen {
                freezes -= 1
                history.append(FreezeEvent(date: LocalDate(dayNumber: day), kind: .used, banked: freezes, streak: streak))
            } else if (state == .active || state == .rest) && streak % 7 == 0 {
                if freezes < StreakEngine.maximumFreezes {
                    freezes += 1
                    history.append(FreezeEvent(date: LocalDate(dayNumber: day), kind: .earned, banked: freezes, streak: streak))
                    unlock(.firstFreeze, day)
                    if freezes == StreakEngine.maximumFreezes { unlock(.freezeSaver, day) }
                } else {
                    history.append(FreezeEvent(date: LocalDate(dayNumber: day), kind: .maxReached, banked: freezes, streak: streak))
                }
            }
            if best == nil || streak > best!.length { best = run(endingAt: day) }
        case .missed:
            if streak > 0 { breaks.append((run(endingAt: day - 1), day)) }
            streak = 0
        case .open:
            break
        }
    }

    /// The achievements a day earns: a marked rest day is a rest day for them even when some activity falls on it.
    private mutating func noteAchievements(_ state: DayState, on day: Int) {
        let marked = rest.contains(day)
        if marked {
            unlock(.firstRestDay, day)
            if activeRun >= 10 { unlock(.restAdvocate, day) }
        }
        activeRun = state == .active && !marked ? activeRun + 1 : 0
        let monday = day - CivilCalendar.floorMod(day - 4, 7)
        let week = monday...day
        if week.filter({ days[$0] == .active && !rest.contains($0) }).count >= 5 && week.contains(where: rest.contains) {
            unlock(.balancedWeek, day)
        }
    }

    mutating func unlock(_ id: Achievement.ID, _ day: Int) {
        if achievements[id] == nil { achievements[id] = day }
    }

    /// The streak so far, as a run ending on `day`.
    func run(endingAt day: Int) -> StreakRun {
        StreakRun(length: streak, start: LocalDate(dayNumber: streakStart), end: LocalDate(dayNumber: day))
    }

    /// A break with its run of missed days (up to yesterday).
    func withMissedDays(_ broken: (streak: StreakRun, missed: Int)) -> (streak: StreakRun, missed: ClosedRange<Int>) {
        var end = broken.missed
        while end + 1 < today && days[end + 1] == .missed { end += 1 }
        return (broken.streak, broken.missed...end)
    }
}
