import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
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
