@testable import HabitCore
import ReminderCore
import Testing

/// The habit's report figures: the strength each day replays the engine's own (its last is the report's),
/// the streaks are the runs of streak days counted another way, the weekdays count the active days.
@Suite("Reports: habit figures")
struct HabitFiguresTests {
    @Test func strengthStreaksAndWeekdaysOfASeededHistory() {
        // Active on a seeded ~70 % of 120 days, with a few rest days; today is day 120.
        var state: UInt64 = 2026
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % 100
        }
        let active = (1...120).filter { _ in next() < 70 }
        let rest = (1...120).filter { !active.contains($0) && next() < 20 }
        let today = 120
        let report = StreakEngine.report(
            activities: active.map { StreakEngineTests.at($0) }, restDays: rest.map { RestDay(date: StreakEngineTests.date($0), reason: .recovery) },
            recovered: nil, now: StreakEngineTests.at(today, hour: 20))
        let (from, through) = (StreakEngineTests.date(31), StreakEngineTests.date(today))
        let figures = HabitFigures(report: report, from: from, through: through)

        #expect(figures.days.first?.date == from && figures.days.last?.date == through && figures.days.count == 90)
        #expect(figures.days.last?.strength == report.strength, "the last day's strength is the engine's")
        #expect(figures.days.allSatisfy { (0...1).contains($0.strength) })
        // Weekdays: the active days of the period, counted by weekday (Monday first).
        var weekdays = Array(repeating: 0, count: 7)
        for day in figures.days where day.state == .active { weekdays[(day.date.weekday.rawValue + 5) % 7] += 1 }
        #expect(figures.activeByWeekday == weekdays && weekdays.reduce(0, +) == figures.days.filter { $0.state == .active }.count)
        // Streaks: runs of days that keep the streak, read off the engine's states one by one.
        var runs: [StreakRun] = []
        for day in report.days.keys.sorted() {
            let keeps = [.active, .rest, .frozen, .recovered].contains(report.days[day]!)
            let date = LocalDate(dayNumber: day)
            if keeps, let last = runs.last, last.end.dayNumber == day - 1, [.active, .rest, .frozen, .recovered].contains(report.days[day - 1]!) {
                runs[runs.count - 1] = StreakRun(length: last.length + 1, start: last.start, end: date)
            } else if keeps {
                runs.append(StreakRun(length: 1, start: date, end: date))
            }
        }
        let reaching = runs.filter { $0.end >= from }
        let longest = reaching.map(\.length).sorted(by: >).prefix(HabitFigures.maximumStreaks)
        #expect(figures.streaks.map(\.length).sorted(by: >) == Array(longest))
        #expect(figures.streaks.map(\.start) == figures.streaks.map(\.start).sorted(by: >), "newest first")
        if let current = report.current { #expect(figures.streaks.contains(current), "the current streak is among them") }
        #expect(Set(figures.streaks).isSubset(of: Set(reaching)))
    }

    @Test func strengthRisesOnActiveDaysFallsOnMissedOnesAndHoldsOnRestDays() {
        let report = StreakEngine.report(
            activities: [1, 2, 4].map { StreakEngineTests.at($0) }, restDays: [RestDay(date: StreakEngineTests.date(5), reason: .recovery)],
            recovered: nil, now: StreakEngineTests.at(6, hour: 20))
        let figures = HabitFigures(report: report, from: StreakEngineTests.date(1), through: StreakEngineTests.date(6))
        let strength = figures.days.map(\.strength)
        #expect(figures.days.map(\.state) == [.active, .active, .missed, .active, .rest, .open], "no freeze banked yet for day 3")
        #expect(strength[1] > strength[0] && strength[2] < strength[1] && strength[3] > strength[2] && strength[4] == strength[3] && strength[5] == strength[4])
        let m = StreakEngine.strengthMultiplier
        #expect(abs(strength[0] - (1 - m)) < 1e-12)
    }
}
