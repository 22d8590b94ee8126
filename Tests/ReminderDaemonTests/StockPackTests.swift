import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import ReminderStore
import Testing
import Translation
import VarlinkProtocol

@testable import ReminderDaemon

/// #59 item 3: a dose and its strength (1 tablet of 20 mg), and a stock in packs that expire. A dose takes from the pack that expires first; a pack past its last
/// day stops counting (said once); the day it runs out counts a pack's expiry too; the low-stock notice names the
/// day to order by (`--order-days`); a stock counted before packs existed is one pack without a date.
@Suite("Medication: packs that expire")
struct StockPackTests {
    private func stock(_ daemon: TestDaemon) async throws -> StockValue {
        try await daemon.call(Medication.Stock.self, .init(reminder: "Prednisone")).stocks[0]
    }

    private func daemon(_ extra: [String: JSONValue] = [:]) async throws -> TestDaemon {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        try await daemon.add("Prednisone", ["daily": true, "at": "08:00"], timeZone: "UTC", ["dose": "1", "unit": "tablet"].merging(extra) { $1 })
        return daemon
    }

    @Test func dosesUseThePackThatExpiresFirstAndAnExpiredPacksTabletsStopCountingSaidOnce() async throws {
        let daemon = try await daemon()
        _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "Prednisone", amount: "20"))
        let added = try await daemon.call(Medication.StockAdd.self, .init(reminder: "Prednisone", amount: "10", expires: "2026-12-05")).stock
        #expect(added.left == 30)
        #expect(added.packs == [.init(left: 10, expires: "2026-12-05", expired: false), .init(left: 20, expires: nil, expired: false)], "first used first")
        // Five doses on Dec 1-5 come from the expiring pack; its other five stop counting on Dec 6.
        for day in 1...5 {
            await daemon.advance(to: instant("2026-12-0\(day)T08:00:00Z"))
            try await daemon.log("Prednisone")
        }
        #expect(try await stock(daemon).left == 25)
        await daemon.advance(to: instant("2026-12-06T08:00:00Z"))
        try await daemon.log("Prednisone")
        let after = try await stock(daemon)
        #expect(after.left == 19, "the 5 left in the expired pack no longer count")
        #expect(after.packs == [.init(left: 19, expires: nil, expired: false), .init(left: 5, expires: "2026-12-05", expired: true)])
        let said = daemon.announcer.messages.filter { $0.contains("expired on 2026-12-05") }
        #expect(said == ["Prednisone: the 5 tablets of the pack that expired on 2026-12-05 are not counted any more: put them aside, and count the stock again if it is off"])
        await daemon.advance(to: instant("2026-12-07T08:00:00Z"))
        try await daemon.log("Prednisone")
        #expect(daemon.announcer.messages.filter { $0.contains("expired on") }.count == 1, "said once")
    }

    @Test func theDayItRunsOutCountsAPacksExpiryAndTheNoticeNamesTheDayToOrderBy() async throws {
        let daemon = try await daemon(["refillDays": .number(10), "orderDays": .number(3)])
        // 30 tablets that expire on Dec 10: the doses of Dec 1-10 only (the rest is past its day).
        let counted = try await daemon.call(Medication.StockSet.self, .init(reminder: "Prednisone", amount: "30", expires: "2026-12-10")).stock
        #expect(counted.through == "2026-12-10" && counted.days == 9 && counted.doses == 10)
        #expect(counted.orderBy == "2026-12-07", "3 days before it runs out")
        let notice = try #require(daemon.announcer.events.compactMap { if case .lowStock(let notice) = $0 { notice } else { nil } }.first)
        #expect(notice.orderBy == LocalDate(year: 2026, month: 12, day: 7) && notice.through == LocalDate(year: 2026, month: 12, day: 10))
        #expect(FiringWording.english.stock(notice) == "30 tablets left: enough through Thu 2026-12-10 (9 days); order by Mon 2026-12-07")
        let fields = JournalAnnouncer.entry(for: .lowStock(notice), in: UntranslatedCatalog()).fields
        #expect(fields.contains { $0.name == "STOCK_ORDER_BY" && $0.value == "2026-12-07" })
        // A pack already past its day, or a date that is none, is refused; nothing is recorded.
        for (date, words) in [("2026-11", "is past"), ("2026-13", "invalid --expires")] {
            await #expect { try await daemon.call(Medication.StockAdd.self, .init(reminder: "Prednisone", amount: "5", expires: date)) } throws: {
                "\($0)".contains(words)
            }
        }
        #expect(try await stock(daemon).left == 30)
        let month = try await daemon.call(Medication.StockAdd.self, .init(reminder: "Prednisone", amount: "5", expires: "2027-02")).stock
        #expect(month.packs?.contains(.init(left: 5, expires: "2027-02-28", expired: false)) == true, "a month: its last day")
    }

    /// A 20 mg tablet: the dose is 1 tablet and its strength 20 mg; both are said; the stock counts tablets, and
    /// may be given in milligrams (600 mg is 30 tablets). A strength for a dose already in mg is refused.
    @Test func aStrengthIsSaidWithTheDoseAndAStockMayBeGivenInIt() async throws {
        let daemon = try await daemon(["strength": "20mg"])
        let shown = try await daemon.call(Reminders.Get.self, .init(reminder: "Prednisone")).reminder.delivery.medication
        #expect(shown.dose == 1 && shown.unit == "tablet" && shown.strength == 20 && shown.strengthUnit == "mg")
        let counted = try await daemon.call(Medication.StockSet.self, .init(reminder: "Prednisone", amount: "600mg")).stock
        #expect(counted.left == 30 && counted.unit == "tablet")
        #expect(try await daemon.call(Medication.StockAdd.self, .init(reminder: "Prednisone", amount: "10 tablets")).stock.left == 40)
        await daemon.advance(to: instant("2026-12-01T08:00:00Z"))
        let fired = try #require(daemon.firings(of: "Prednisone").first)
        #expect(JournalAnnouncer.entry(for: .firing(fired), in: UntranslatedCatalog()).message == "Reminder: Prednisone, 1 tablet of 20 mg (daily, Tue 08:00)")
        let report = try await daemon.call(Reminders.Report.self, .init(from: "2026-12-01", to: "2026-12-01"))
        #expect(report.reminders.first?.regimen?.hasPrefix("1 tablet of 20 mg, ") == true, "\(String(describing: report.reminders.first?.regimen))")
        await #expect { try await daemon.call("Add", ["name": "Pred mg", "rule": .object(["daily": true, "at": "08:00"]), "dose": "20mg", "strength": "20mg"]) } throws: {
            ($0 as? VarlinkError)?.string("parameter") == "strength"
        }
    }

    /// Stock counted before packs existed (no date on any row) reads as one pack without expiry, as before.
    @Test func aStockCountedBeforePacksIsOnePackWithoutADate() async throws {
        let daemon = try await daemon()
        _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "Prednisone", amount: "30"))
        _ = try await daemon.call(Medication.StockAdd.self, .init(reminder: "Prednisone", amount: "10"))
        let plain = try await stock(daemon)
        #expect(plain.left == 40 && plain.packs == nil && plain.through == "2027-01-09", "40 daily doses from Dec 1")
        try await daemon.restart()
        #expect(try await stock(daemon) == plain)
    }
}
