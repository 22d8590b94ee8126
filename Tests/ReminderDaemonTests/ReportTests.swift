import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import SeededRandom
import Testing
import TimeZoneDatabase
import VarlinkProtocol

@testable import ReminderDaemon

/// The adherence report's figures against a count done another way: a quarter of a twice-daily dose on the
/// manual clock (the end of summer time and three month ends in it), each occurrence taken on time, logged
/// ahead, taken late, skipped with a reason, or missed, chosen by a seeded generator; the test keeps what it did
/// and counts from that, the report reads the store.
@Suite("Reports: adherence figures")
struct ReportTests {
    enum Action: CaseIterable { case onTime, ahead, late, skipped, missed }

    @Test func everyFigureOfAQuarterMatchesWhatWasDone() async throws {
        let daemon = try await TestDaemon(now: instant("2026-08-31T10:00:00Z"), systemZone: "Europe/Berlin")
        try await daemon.add("Pills", ["daily": true, "at": "08:00,20:00"], timeZone: "Europe/Berlin", ["window": "2h"])
        let berlin = try TimeZoneDatabase().rules(named: "Europe/Berlin")
        var random = SeededGenerator(seed: 2026)
        var done: [(occurrence: Instant, action: Action, lateMinutes: Int, reason: String)] = []
        let reasons = ["travel", "blood test", ""]
        for day in LocalDate(year: 2026, month: 9, day: 1)!.dayNumber...LocalDate(year: 2026, month: 11, day: 30)!.dayNumber {
            for hour in [8, 20] {
                let occurrence = berlin.resolve(LocalDateTime(date: LocalDate(dayNumber: day), time: TimeOfDay(hour: hour, minute: 0)!))
                var action = Action.allCases.randomElement(using: &random)!
                if action == .ahead, hour == 20 { action = .onTime }  // ahead only for the day's first: the second needs two logs
                let late = Int.random(in: 1...120, using: &random)
                let reason = reasons.randomElement(using: &random)!
                switch action {
                case .ahead:
                    await daemon.advance(to: occurrence.adding(seconds: -30 * 60))
                    try await daemon.log("Pills")
                case .onTime:
                    await daemon.advance(to: occurrence.adding(seconds: 10 * 60))
                    try await daemon.log("Pills")
                case .skipped:
                    await daemon.advance(to: occurrence.adding(seconds: 5 * 60))
                    _ = try await daemon.call(Reminders.Skip.self, .init(reminder: "Pills", reason: reason.isEmpty ? nil : reason))
                case .late:
                    await daemon.advance(to: occurrence.adding(seconds: Int64(120 + late) * 60))
                    _ = try await daemon.call(Reminders.TakeLate.self, .init(reminder: "Pills"))
                case .missed:
                    break
                }
                done.append((occurrence, action, 120 + late, reason))
            }
        }
        await daemon.advance(to: instant("2026-12-01T12:00:00Z"))
        let report = try await daemon.call(Reminders.Report.self, .init(from: "2026-09-01", to: "2026-11-30", reminders: ["Pills"]))
        let pills = try #require(report.reminders.first)

        func count(_ action: Action) -> Int { done.filter { $0.action == action }.count }
        #expect(pills.due == done.count && done.count == 2 * 91)
        #expect(pills.onTime == count(.onTime) + count(.ahead) && pills.loggedAhead == count(.ahead))
        #expect(pills.late == count(.late) && pills.skipped == count(.skipped))
        #expect(pills.missed == done.filter { $0.action == .missed }.map { ISO8601.format($0.occurrence, offsetSeconds: berlin.offset(at: $0.occurrence), zulu: false) })
        // The median and the 90th percentile: the smallest value with at least half (90%) of them at or below it.
        let minutes = done.filter { $0.action == .late }.map(\.lateMinutes)
        func atLeast(_ share: Double) -> Int? { minutes.sorted().first { value in Double(minutes.filter { $0 <= value }.count) >= share * Double(minutes.count) } }
        #expect(pills.lateMinutesMedian == atLeast(0.5) && pills.lateMinutesP90 == atLeast(0.9))
        let reasonCounts = Dictionary(grouping: done.filter { $0.action == .skipped }, by: \.reason).mapValues(\.count)
        #expect(Dictionary(uniqueKeysWithValues: pills.skipReasons.map { ($0.reason, $0.count) }) == reasonCounts)
        let taken = Double(count(.onTime) + count(.ahead) + count(.late))
        #expect(pills.adherence == taken / Double(done.count - count(.skipped)))
        // Each day's states, in time order: what was done, as the states say it.
        let states: [Action: String] = [.onTime: "taken", .ahead: "suppressed", .late: "taken-late", .skipped: "skipped", .missed: "missed"]
        #expect(pills.days.count == 91 && pills.days.first?.date == "2026-09-01" && pills.days.last?.date == "2026-11-30")
        #expect(pills.days.flatMap(\.states) == done.map { states[$0.action]! })
    }

    @Test func aBadPeriodOrAnUnknownReminderIsRefusedWithWhatToWrite() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T12:00:00Z"), systemZone: "UTC")
        func message(_ parameters: Reminders.Report.Parameters) async -> String? {
            do {
                _ = try await daemon.call(Reminders.Report.self, parameters)
                return nil
            } catch {
                return (error as? VarlinkError).flatMap { $0.string("message") ?? $0.string("reminder") }
            }
        }
        #expect(await message(.init(from: "2026-12-01", to: "2026-11-01"))?.contains("is after --to") == true)
        #expect(await message(.init(from: "2000-01-01", to: "2026-11-01"))?.contains("over 20 years") == true)
        #expect(await message(.init(from: "2026-13-01"))?.contains("write YYYY-MM-DD") == true)
        #expect(await message(.init(reminders: ["Nope"])) == "Nope")
        let report = try await daemon.call(Reminders.Report.self, .init())
        #expect(report.from == "2026-09-03" && report.to == "2026-12-01", "the 90 days up to today")
    }
}

/// The report's other parts through the daemon, against what the test did: a month (the end of summer time in
/// it) of a twice-daily medication with a stock counted and refilled, a painkiller taken as needed, workouts and
/// meals, each chosen by a seeded generator.
@Suite("Reports: medications, habit and calories")
struct ReportPartsTests {
    @Test func everyPartOfAMonthMatchesWhatWasDone() async throws {
        let daemon = try await TestDaemon(now: instant("2026-10-01T04:00:00Z"), systemZone: "Europe/Berlin")
        let berlin = try TimeZoneDatabase().rules(named: "Europe/Berlin")
        try await daemon.add("Metformin", ["daily": true, "at": "08:00,20:00"], timeZone: "Europe/Berlin", ["dose": "2", "unit": "tablet"])
        try await daemon.add("Ibuprofen", ["asNeeded": true], timeZone: "Europe/Berlin", ["dose": "400", "unit": "mg", "minInterval": "6h"])
        _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "Metformin", amount: "100"))
        _ = try await daemon.call(Fitness.ProfileSet.self, .init(name: "  Ana Souza "))
        await daemon.advance(to: instant("2026-10-15T12:00:00Z"))
        _ = try await daemon.call(Medication.StockAdd.self, .init(reminder: "Metformin", amount: "60"))
        await daemon.advance(to: instant("2026-11-01T12:00:00Z"))

        var random = SeededGenerator(seed: 1031)
        var metformin: [Int: Double] = [:]
        var ibuprofenWeeks: [String: Int] = [:]
        var active = Set<Int>()
        var eaten: [Int: Int] = [:]
        var burned: [Int: Int] = [:]
        let first = LocalDate(year: 2026, month: 10, day: 1)!.dayNumber
        func at(_ day: Int, _ hour: Int, _ minute: Int) -> String {
            let instant = berlin.resolve(LocalDateTime(date: LocalDate(dayNumber: day), time: TimeOfDay(hour: hour, minute: minute)!))
            return ISO8601.format(instant, offsetSeconds: berlin.offset(at: instant), zulu: false)
        }
        for day in first...(first + 30) {
            for hour in [8, 20] where Int.random(in: 0..<10, using: &random) < 8 {
                let amount = [1.0, 2.0, 2.0][Int.random(in: 0..<3, using: &random)]
                _ = try await daemon.call(Reminders.Log.self, .init(reminder: "Metformin", at: at(day, hour, 5), amount: amount == 1 ? "1" : "2"))
                metformin[day, default: 0] += amount
                active.insert(day)
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                _ = try await daemon.call(Reminders.Log.self, .init(reminder: "Ibuprofen", at: at(day, 12, 0)))
                let monday = LocalDate(dayNumber: day - (LocalDate(dayNumber: day).weekday.rawValue + 5) % 7)
                ibuprofenWeeks[monday.description, default: 0] += 1
                active.insert(day)
            }
            if Int.random(in: 0..<3, using: &random) == 0 {
                let workout = try await daemon.call(Fitness.WorkoutAdd.self, .init(exercise: "Running", minutes: 30, intensity: "moderate", at: at(day, 18, 0))).workout
                burned[day, default: 0] += workout.kcal
                active.insert(day)
            }
            let kcal = Int.random(in: 1500...2500, using: &random)
            _ = try await daemon.call(Fitness.FoodAdd.self, .init(name: "Meals", kcal: kcal, at: at(day, 13, 0)))
            eaten[day] = kcal
        }

        let report = try await daemon.call(Reminders.Report.self, .init(from: "2026-10-01", to: "2026-10-31"))
        #expect(report.profileName == "Ana Souza", "trimmed")
        #expect(report.reminders.map(\.reminderName) == ["Metformin"], "the one taken as needed has nothing due")
        let medications = try #require(report.medications)
        #expect(medications.map(\.reminderName) == ["Metformin", "Ibuprofen"])
        let (pills, painkiller) = (medications[0], medications[1])
        let days = (first...(first + 30)).map { LocalDate(dayNumber: $0).description }
        #expect(pills.unit == "tablet" && pills.taken.map(\.date) == days && pills.asNeededWeeks == nil)
        #expect(pills.taken.map(\.amount) == (first...(first + 30)).map { metformin[$0] ?? 0 })
        // The stock: 100 counted before the first dose, 60 added on the 15th at 14:00 (between its two doses).
        var left = 100.0
        var expected: [ReportMedicationValue.StockDay] = []
        for day in first...(first + 30) {
            let refill = LocalDate(dayNumber: day).description == "2026-10-15" ? 60.0 : 0
            left += refill - (metformin[day] ?? 0)
            expected.append(.init(date: LocalDate(dayNumber: day).description, left: left, added: refill))
        }
        #expect(pills.stock == expected)
        #expect(painkiller.unit == "mg" && painkiller.stock == nil)
        #expect(painkiller.taken.filter { $0.amount > 0 }.allSatisfy { $0.amount == 400 })
        let weeks = try #require(painkiller.asNeededWeeks)
        #expect(weeks.map(\.week) == ["2026-09-28", "2026-10-05", "2026-10-12", "2026-10-19", "2026-10-26"])
        #expect(weeks.map(\.doses) == weeks.map { ibuprofenWeeks[$0.week] ?? 0 })

        let habits = try #require(report.habits)
        #expect(habits.days.map(\.date) == days)
        #expect(Set(habits.days.filter { $0.state == "active" }.map(\.date)) == Set(active.map { LocalDate(dayNumber: $0).description }))
        var weekdays = Array(repeating: 0, count: 7)
        for day in active { weekdays[(LocalDate(dayNumber: day).weekday.rawValue + 5) % 7] += 1 }
        #expect(habits.activeByWeekday == weekdays)
        // Each streak: days that keep it from its first to its last, and none the day before.
        let states = Dictionary(uniqueKeysWithValues: habits.days.map { ($0.date, $0.state) })
        let keeping: Set<String> = ["active", "rest", "frozen", "recovered"]
        #expect(!habits.streaks.isEmpty)
        for streak in habits.streaks {
            let (start, end) = try (#require(ISO8601.parseDate(streak.start)).dayNumber, #require(ISO8601.parseDate(streak.end)).dayNumber)
            #expect(end - start + 1 == streak.length)
            #expect((start...end).compactMap { states[LocalDate(dayNumber: $0).description] }.allSatisfy(keeping.contains))
            #expect(states[LocalDate(dayNumber: start - 1).description].map { !keeping.contains($0) } ?? true, "\(streak.start) starts it")
        }

        let fitness = try #require(report.fitness)
        #expect(fitness.days.map(\.date) == days)
        #expect(fitness.days.map(\.consumed) == (first...(first + 30)).map { eaten[$0] ?? 0 })
        #expect(fitness.days.map(\.burned) == (first...(first + 30)).map { burned[$0] ?? 0 })
        #expect(fitness.days.allSatisfy { $0.net == $0.consumed - $0.burned })

        // Named: those reminders' parts alone.
        let named = try await daemon.call(Reminders.Report.self, .init(from: "2026-10-01", to: "2026-10-31", reminders: ["Ibuprofen"]))
        #expect(named.reminders.map(\.reminderName) == ["Ibuprofen"] && named.reminders.first?.due == 0)
        #expect(named.medications?.map(\.reminderName) == ["Ibuprofen"] && named.habits == nil && named.fitness == nil)
    }

    @Test func aProfileNameIsCheckedAndCanBeRemoved() async throws {
        let daemon = try await TestDaemon(now: instant("2026-10-01T04:00:00Z"), systemZone: "UTC")
        await #expect { try await daemon.call(Fitness.ProfileSet.self, .init(name: String(repeating: "a", count: 101))) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains("at most 100") == true
        }
        await #expect { try await daemon.call(Fitness.ProfileSet.self, .init()) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains("nothing to set") == true
        }
        // A bad weight with a good name: neither is stored.
        await #expect(throws: VarlinkError.self) { try await daemon.call(Fitness.ProfileSet.self, .init(weight: "heavy", name: "Ana")) }
        #expect(try await daemon.call(Fitness.ProfileGet.self, .init()).name == nil)
        _ = try await daemon.call(Fitness.ProfileSet.self, .init(name: "Ana\u{7}"))
        #expect(try await daemon.call(Reminders.Report.self, .init()).profileName == "Ana", "a control character dropped")
        _ = try await daemon.call(Fitness.ProfileSet.self, .init(name: ""))
        #expect(try await daemon.call(Fitness.ProfileGet.self, .init()).name == nil)
        #expect(try await daemon.call(Reminders.Report.self, .init()).profileName == nil)
    }
}
