import Foundation
import ReminderCore
import ReminderDaemonTesting
import ReminderStore
import ReminderInterface
import Testing
import Translation
import VarlinkProtocol

@testable import ReminderDaemon

/// A medication's stock: each taken amount subtracted (a deleted log gives it back, never below zero), the day
/// it runs out from the rule's own occurrences, and the low-stock notice once, again after a refill.
@Suite("Medication: stock")
struct StockTests {
    private func stock(_ daemon: TestDaemon, _ name: String) async throws -> StockValue {
        try await daemon.call(Medication.Stock.self, .init(reminder: name)).stocks[0]
    }

    private func lowStockNotices(_ daemon: TestDaemon) -> [LowStockNotice] {
        daemon.announcer.events.compactMap { if case .lowStock(let notice) = $0 { notice } else { nil } }
    }

    @Test func eachTakenAmountIsSubtractedADeletedLogGivesItBackAndNothingGoesBelowZero() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "Europe/Berlin")
        try await daemon.add("Metformin", ["daily": true, "at": "08:00,20:00"], ["dose": "2", "unit": "tablet"])
        #expect(try await stock(daemon, "Metformin").left == nil)
        _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "Metformin", amount: "30"))
        await daemon.advance(to: instant("2026-12-01T07:00:10Z"))
        _ = try await daemon.call(Reminders.Done.self, .init(reminder: "Metformin"))
        let half = try await daemon.call(Reminders.Log.self, .init(reminder: "Metformin", amount: "1")).log
        #expect(try await stock(daemon, "Metformin").left == 27)
        _ = try await daemon.call(Reminders.DeleteLog.self, .init(id: half.id))
        #expect(try await stock(daemon, "Metformin").left == 28)
        // A refill adds; a count replaces.
        _ = try await daemon.call(Medication.StockAdd.self, .init(reminder: "Metformin", amount: "0.5"))
        #expect(try await stock(daemon, "Metformin").left == 28.5)
        // A count a minute later (a count and a log in the same second: the count comes first).
        await daemon.advance(by: 60)
        _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "Metformin", amount: "1"))
        // A dose logged with less left is recorded, and the stock stays at zero.
        _ = try await daemon.call(Reminders.Log.self, .init(reminder: "Metformin"))
        let empty = try await stock(daemon, "Metformin")
        #expect(empty.left == 0 && empty.short == 1 && empty.doses == 0 && empty.through == nil)
        // Said once in the journal, with what to do; the low-stock notice comes as well (nothing is left).
        let said = daemon.announcer.messages.filter { $0.contains("a dose was logged with less left than it took") }
        #expect(said == ["Metformin: a dose was logged with less left than it took, so the stock is at 0: count it again with remindctl stock set \"Metformin\" N"])
        #expect(daemon.announcer.events.contains { if case .lowStock = $0 { true } else { false } })
        _ = try await daemon.call(Reminders.Update.self, .init(reminder: "Metformin", window: "2h"))  // another change: not said again
        #expect(daemon.announcer.messages.filter { $0.contains("less left than it took") }.count == 1)
        let logs = try await daemon.call(Reminders.Logs.self, .init(date: "2026-12-01", reminder: "Metformin")).logs
        #expect(logs.count == 2)
    }

    /// Counts and refills made in the same second apply in the order they were made: `add 60` then `set 20` is 20
    /// (it was 80: the refill sorted after the count), `add 10; set 15` is 15, `set 15; add 10` is 25; and a
    /// report's stock over time says the same.
    @Test(arguments: [(["add 60", "set 20"], 20.0), (["add 10", "set 15"], 15.0), (["set 15", "add 10"], 25.0), (["set 5", "set 9", "add 1", "set 3"], 3.0)])
    func countsAndRefillsInOneSecondApplyInTheOrderMade(_ steps: [String], left: Double) async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        let metformin = try await daemon.add("Metformin", ["daily": true, "at": "08:00"], ["dose": "1", "unit": "tablet"])
        _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "Metformin", amount: "100"))  // counted once before
        await daemon.advance(by: 60)
        for step in steps {
            let parts = step.split(separator: " ").map(String.init)
            if parts[0] == "add" {
                _ = try await daemon.call(Medication.StockAdd.self, .init(reminder: "Metformin", amount: parts[1]))
            } else {
                _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "Metformin", amount: parts[1]))
            }
        }
        #expect(try await stock(daemon, "Metformin").left == left)
        let level = Stock.level(try ReminderStore(database: daemon.database).stock.changes(reminderID: metformin.id, sinceFirstCount: true))
        #expect(level.left == Int64(left * 1000))
    }

    /// A count includes the doses logged before it in its own second: `log` then `stock set 300` in one second
    /// leaves 300 (it left 290: every log of that second was taken from the count), and a dose logged after it
    /// in that second is taken from it; the report's stock over time says the same.
    @Test func aCountIncludesTheDosesLoggedBeforeItInItsSecond() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        let metformin = try await daemon.add("Metformin", ["daily": true, "at": "08:00"], ["dose": "10", "unit": "mg"])
        _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "Metformin", amount: "500"))
        await daemon.advance(by: 60)
        _ = try await daemon.call(Reminders.Log.self, .init(reminder: "Metformin"))
        _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "Metformin", amount: "300"))
        #expect(try await stock(daemon, "Metformin").left == 300)
        _ = try await daemon.call(Reminders.Log.self, .init(reminder: "Metformin", amount: "5"))
        #expect(try await stock(daemon, "Metformin").left == 295)
        let level = Stock.level(try ReminderStore(database: daemon.database).stock.changes(reminderID: metformin.id, sinceFirstCount: true))
        #expect(level.left == 295_000 && level.short == 0)
    }

    @Test func theRunOutDateCountsTheRulesOwnOccurrencesAcrossADSTChangeAndAMonthEnd() async throws {
        // 07:00 in Berlin on Thursday 25 March 2027; clocks go forward on Sunday the 28th.
        let daemon = try await TestDaemon(now: instant("2027-03-25T06:00:00Z"), systemZone: "Europe/Berlin")
        try await daemon.add("Vitamin D", ["daily": true, "at": "08:00"], ["dose": "1", "unit": "capsule"])
        try await daemon.add("Iron", ["weekly": "mon,thu", "at": "21:30"], ["dose": "0.5", "unit": "tablet"])
        let daily = try await daemon.call(Medication.StockSet.self, .init(reminder: "Vitamin D", amount: "10")).stock
        // Counted another way: the 10 daily doses from today's 08:00 are the 10 days from 25 March on.
        let days = (0..<10).map { LocalDate(dayNumber: LocalDate(year: 2027, month: 3, day: 25)!.dayNumber + $0) }
        #expect(daily.through == days.last!.description && daily.through == "2027-04-03")
        #expect(daily.throughLocal == "2027-04-03T08:00:00+02:00" && daily.days == 9 && daily.doses == 10)
        // Half a tablet on Mondays and Thursdays: 2.5 tablets are 5 doses, Thu 25, Mon 29, Thu 1, Mon 5, Thu 8.
        let weekly = try await daemon.call(Medication.StockSet.self, .init(reminder: "Iron", amount: "2.5")).stock
        #expect(weekly.doses == 5 && weekly.through == "2027-04-08" && weekly.throughLocal == "2027-04-08T21:30:00+02:00")
    }

    /// `runningLow` gives only the stocks that run low: counted, fewer days than the refill days or not a dose
    /// left, and not outlasted by the rule (what remindd-web's Today asks, rather than every stock).
    @Test func onlyTheStocksThatRunLowAreGivenWhenAskedFor() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "Europe/Berlin")
        try await daemon.add("Low", ["daily": true, "at": "08:00"], ["dose": "1", "unit": "tablet", "refillDays": 7])
        try await daemon.add("Plenty", ["daily": true, "at": "08:00"], ["dose": "1", "unit": "tablet", "refillDays": 7])
        try await daemon.add("Uncounted", ["daily": true, "at": "08:00"], ["dose": "1", "unit": "tablet"])
        try await daemon.add("Ending", ["daily": true, "at": "08:00", "until": "2026-12-03"], ["dose": "1", "unit": "tablet"])
        try await daemon.add("Empty", ["daily": true, "at": "08:00"], ["dose": "2", "unit": "tablet"])
        for (name, amount) in [("Low", "3"), ("Plenty", "60"), ("Ending", "5"), ("Empty", "1")] {
            _ = try await daemon.call(Medication.StockSet.self, .init(reminder: name, amount: amount))
        }
        let all = try await daemon.call(Medication.Stock.self, .init()).stocks
        let low = try await daemon.call(Medication.Stock.self, .init(runningLow: true)).stocks
        #expect(all.count == 5)
        #expect(low.map(\.reminderName).sorted() == ["Empty", "Low"])
        #expect(low == all.filter(\.runsLow), "the same values as the whole list gives")
        #expect(try await daemon.call(Medication.Stock.self, .init(reminder: "Plenty", runningLow: true)).stocks.isEmpty)
        #expect(try await daemon.call(Medication.Stock.self, .init(reminder: "Low", runningLow: true)).stocks.map(\.reminderName) == ["Low"])
    }

    /// A page at a time: `limit` after `after`, the next page's `after` until the last; a limit out of range refused.
    @Test func theStocksComeAPageAtATime() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "Europe/Berlin")
        for index in 0..<5 { try await daemon.add("M\(index)", ["daily": true, "at": "08:00"], ["dose": "1", "unit": "tablet"]) }
        try await daemon.add("No dose", ["daily": true, "at": "08:00"])
        var names: [String] = []
        var after: Int64? = 0
        var pages = 0
        while let from = after {
            let page = try await daemon.call(Medication.Stock.self, .init(after: from, limit: 2))
            (names, after, pages) = (names + page.stocks.map(\.reminderName), page.after, pages + 1)
        }
        #expect(names == ["M0", "M1", "M2", "M3", "M4"] && pages == 3)
        #expect(try await daemon.call(Medication.Stock.self, .init()).after == nil, "without a limit: all, no next page")
        // Pages of those running low: a page whose stocks are all left out still leads to the next (M0-M3 have
        // plenty; the last, M4, runs low and is reached: paging stopped at the first empty page).
        for index in 0..<4 { _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "M\(index)", amount: "60")) }
        _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "M4", amount: "1"))
        var low: [String] = []
        after = 0
        while let from = after {
            let page = try await daemon.call(Medication.Stock.self, .init(runningLow: true, after: from, limit: 1))
            (low, after) = (low + page.stocks.map(\.reminderName), page.after)
        }
        #expect(low == ["M4"])
        await #expect(throws: VarlinkError.self) { try await daemon.call(Medication.Stock.self, .init(limit: 0)) }
    }

    @Test func theLowStockNoticeComesOnceAndAgainOnlyAfterARefill() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "Europe/Berlin")
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], ["dose": "1", "unit": "tablet", "refillDays": 3, "command": .array(["/bin/true"])])
        _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "Pills", amount: "4"))
        #expect(lowStockNotices(daemon).isEmpty)  // 4 doses: through the 4th, 3 days from today
        for day in 1...3 {
            await daemon.advance(to: instant("2026-12-0\(day)T07:00:10Z"))
            _ = try await daemon.call(Reminders.Done.self, .init(reminder: "Pills"))
        }
        // After the 2nd's dose, 2 are left: through the 4th, 2 days away, fewer than 3: told then, and not again
        // on the 3rd.
        let notices = lowStockNotices(daemon)
        #expect(notices.count == 1)
        let notice = try #require(notices.first)
        #expect(notice.name == "Pills" && notice.left == Dose(thousandths: 2000, unit: "tablet") && notice.through == LocalDate(year: 2026, month: 12, day: 4))
        #expect(notice.days == 2 && notice.refillDays == 3 && notice.command == ["/bin/true"])
        let entry = JournalAnnouncer.entry(for: .lowStock(notice), in: english)
        let fields = Dictionary(entry.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        #expect(fields["MESSAGE_ID"] == MessageID.lowStock && fields["STOCK_LEFT"] == "2" && fields["STOCK_THROUGH"] == "2026-12-04")
        // Ordering takes the refill days by default: 3 days before the 4th is past, so today.
        #expect(entry.message == "Running low: Pills, 2 tablets left: enough through Fri 2026-12-04 (2 days); order by Wed 2026-12-02; refill within 3 days")
        let environment = Dictionary(CommandHookAnnouncer.environment(for: notice), uniquingKeysWith: { $1 })
        #expect(environment["REMINDER_STATE"] == "low-stock" && environment["STOCK_DAYS"] == "2")

        // A count of less than was left when told: not told again.
        _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "Pills", amount: "1"))
        #expect(lowStockNotices(daemon).count == 1)
        // A refill: enough again; running low again later: told again.
        _ = try await daemon.call(Medication.StockAdd.self, .init(reminder: "Pills", amount: "3"))
        #expect(lowStockNotices(daemon).count == 1)
        for day in 4...5 {
            await daemon.advance(to: instant("2026-12-0\(day)T07:00:10Z"))
            _ = try await daemon.call(Reminders.Done.self, .init(reminder: "Pills"))
        }
        #expect(lowStockNotices(daemon).count == 2)
        // Told, then restarted: not told again.
        try await daemon.restart()
        await daemon.advance(to: instant("2026-12-06T07:00:10Z"))
        _ = try await daemon.call(Reminders.Done.self, .init(reminder: "Pills"))
        #expect(lowStockNotices(daemon).count == 2)
    }

    @Test(arguments: [
        ("Walk", "30", "Walk has no dose to count a stock of"), ("Pills", "-1", "invalid amount '-1'"), ("Pills", "NaN", "invalid amount 'NaN'"),
        ("Pills", "1e20", "invalid amount '1e20'"), ("Pills", "2000000", "invalid amount"),
    ])
    func aBadCountIsRefusedAndNothingIsRecorded(reminder: String, amount: String, message: String) async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "Europe/Berlin")
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], ["dose": "1", "unit": "tablet"])
        try await daemon.add("Walk", ["daily": true, "at": "08:00"])
        await #expect { try await daemon.call(Medication.StockSet.self, .init(reminder: reminder, amount: amount)) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains(message) == true
        }
        await #expect { try await daemon.call(Medication.StockAdd.self, .init(reminder: "Pills", amount: "30")) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains("Pills's stock was never counted: count it first with remindctl stock set \"Pills\" 30") == true
        }
        #expect(try await stock(daemon, "Pills").left == nil)
    }
}

/// The messages as the tables write them.
private let english = UntranslatedCatalog()
