import ReminderCore
import SeededRandom
import Testing

/// A medication's report figures against a count done another way: amounts per local day across a DST change,
/// as-needed doses per week from Monday, the stock at each day's end with its refills.
@Suite("Reports: medication figures")
struct MedicationFiguresTests {
    @Test func amountsPerDayFollowTheLocalDayAcrossTheEndOfSummerTime() throws {
        let berlin = try zone("Europe/Berlin")
        // 2026-10-25: clocks go back at 03:00; 23:30 local is 22:30 UTC after, 21:30 UTC before.
        let logs: [(at: Instant, thousandths: Int64)] = [
            (instant("2026-10-24T21:30:00Z"), 2000),  // 23:30 on the 24th
            (instant("2026-10-24T22:30:00Z"), 1000),  // 00:30 on the 25th
            (instant("2026-10-25T22:30:00Z"), 500),   // 23:30 on the 25th
            (instant("2026-10-25T23:30:00Z"), 1500),  // 00:30 on the 26th
            (instant("2026-10-20T10:00:00Z"), 9000),  // before the period: left out
        ]
        let figures = MedicationFigures(
            logs: logs, stockChanges: [], asNeeded: false, zone: berlin,
            from: LocalDate(year: 2026, month: 10, day: 24)!, through: LocalDate(year: 2026, month: 10, day: 27)!)
        #expect(figures.taken.map(\.date.description) == ["2026-10-24", "2026-10-25", "2026-10-26", "2026-10-27"])
        #expect(figures.taken.map(\.thousandths) == [2000, 1500, 1500, 0])
        #expect(figures.asNeededWeeks == nil && figures.stock == nil)
    }

    @Test func asNeededDosesArePerWeekFromMondayAndTheStockIsEachDaysEnd() throws {
        var random = SeededGenerator(seed: 31)
        let utc = try zone("UTC")
        let from = LocalDate(year: 2026, month: 11, day: 4)!  // a Wednesday
        let through = LocalDate(year: 2026, month: 11, day: 30)!
        var logs: [(at: Instant, thousandths: Int64)] = []
        var changes: [(at: Instant, change: Stock.Change)] = [(instant("2026-11-01T09:00:00Z"), .set(10_000))]
        // The count done another way: each day's doses, then what is left at each day's end.
        var perDay: [Int: Int64] = [:]
        for day in LocalDate(year: 2026, month: 11, day: 1)!.dayNumber...through.dayNumber {
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let at = Instant(secondsSinceEpoch: Int64(day) * 86400 + Int64.random(in: 36_000...79_000, using: &random))
                logs.append((at, 1000))
                changes.append((at, .taken(1000)))
                perDay[day, default: 0] += 1000
            }
        }
        changes.append((instant("2026-11-15T08:00:00Z"), .added(30_000)))
        changes.append((instant("2026-11-20T23:59:59Z"), .set(4_000)))  // counted again, late in the day
        let figures = MedicationFigures(logs: logs, stockChanges: changes, asNeeded: true, zone: utc, from: from, through: through)

        let weeks = try #require(figures.asNeededWeeks)
        #expect(weeks.map(\.monday.description) == ["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23", "2026-11-30"])
        for week in weeks {
            let days = (week.monday.dayNumber..<week.monday.dayNumber + 7).filter { $0 >= from.dayNumber && $0 <= through.dayNumber }
            #expect(week.doses == days.reduce(0) { $0 + Int((perDay[$1] ?? 0) / 1000) }, "the week of \(week.monday)")
        }

        var left: Int64 = 10_000
        var expected: [(String, Int64, Int64)] = []
        for day in LocalDate(year: 2026, month: 11, day: 1)!.dayNumber...through.dayNumber {
            // This test's doses are all between 10:00 and 22:00, so the 15th's refill at 08:00 comes first.
            let date = LocalDate(dayNumber: day)
            let refill: Int64 = date.description == "2026-11-15" ? 30_000 : 0
            left = max(0, left + refill - (perDay[day] ?? 0))
            if date.description == "2026-11-20" { left = 4_000 }
            if day >= from.dayNumber { expected.append((date.description, left, refill)) }
        }
        let stock = try #require(figures.stock)
        #expect(stock.map(\.date.description) == expected.map(\.0))
        #expect(stock.map(\.left) == expected.map(\.1))
        #expect(stock.map(\.added) == expected.map(\.2))
        #expect(stock.last?.left == Stock.level(changes).left, "the last day's stock is the stock's level")
    }

    @Test func theStockStartsOnTheDayItWasFirstCounted() throws {
        let figures = MedicationFigures(
            logs: [], stockChanges: [(instant("2026-11-03T12:00:00Z"), .set(5_000))], asNeeded: false, zone: try zone("UTC"),
            from: LocalDate(year: 2026, month: 11, day: 1)!, through: LocalDate(year: 2026, month: 11, day: 4)!)
        #expect(figures.stock?.map(\.date.description) == ["2026-11-03", "2026-11-04"])
        let never = MedicationFigures(
            logs: [], stockChanges: [(instant("2026-12-03T12:00:00Z"), .set(5_000))], asNeeded: false, zone: try zone("UTC"),
            from: LocalDate(year: 2026, month: 11, day: 1)!, through: LocalDate(year: 2026, month: 11, day: 4)!)
        #expect(never.stock == nil, "counted after the period")
    }
}
