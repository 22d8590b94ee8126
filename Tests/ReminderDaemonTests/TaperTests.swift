import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import Testing
import Translation
import TimeZoneDatabase
import VarlinkProtocol

@testable import ReminderDaemon

/// A tapering course (prednisone 40, 30, 20 mg): each firing says its day's step, the step changes at
/// midnight in the reminder's zone (not the system's), the course ends after its last step, `show` marks the
/// step of today, `preview` says each firing's dose, a log takes the day's amount, and the stock lasts by the
/// steps.
@Suite("Medication: tapering")
struct TaperTests {
    let steps = "40mg until 2026-12-01; 30mg until 2026-12-03; 20mg until 2026-12-04"

    @Test func eachFiringSaysItsDaysStepAndTheCourseEndsAfterTheLast() async throws {
        // The system's zone is UTC; the reminder's, New York: 23:30 there is 04:30 UTC the next day.
        let daemon = try await TestDaemon(now: instant("2026-11-30T12:00:00Z"), systemZone: "UTC")
        let added = try await daemon.add("Prednisone", ["daily": true, "at": "08:00,23:30"], timeZone: "America/New_York", ["steps": .string(steps)])
        #expect(added.delivery.medication.dose == 40 && added.delivery.medication.unit == "mg" && added.rule.until == "2026-12-04")
        #expect(added.delivery.medication.steps?.map(\.dose) == [40, 30, 20] && added.delivery.medication.steps?.map(\.current) == [true, false, false])
        await daemon.advance(to: instant("2026-12-06T12:00:00Z"))
        let fired = daemon.firings(of: "Prednisone").filter { $0.kind == .fired }
        // Each firing's dose by its local (New York) date, counted here from the steps' dates.
        let newYork = try TimeZoneDatabase().rules(named: "America/New_York")
        let expected = fired.map { event -> Int64 in
            let date = newYork.localDateTime(at: event.scheduled).date.description
            return date <= "2026-12-01" ? 40_000 : date <= "2026-12-03" ? 30_000 : 20_000
        }
        #expect(fired.map { $0.firing.dose?.thousandths } == expected)
        // 2026-12-01 23:30 in New York (04:30 UTC on the 2nd) is still the 40 mg step.
        let lateEvening = try #require(fired.first { $0.scheduled == instant("2026-12-02T04:30:00Z") })
        let fields = Dictionary(JournalAnnouncer.entry(for: .firing(lateEvening), in: english).fields.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        #expect(fields["REMINDER_DOSE"] == "40" && fields["REMINDER_UNIT"] == "mg")
        // The course ends with its last day: the last firing is 2026-12-04 23:30 in New York, and none after.
        #expect(fired.last?.scheduled == instant("2026-12-05T04:30:00Z"))
        #expect(fired.count == 2 * 5, "twice a day from 30 Nov (08:00 there is after the start) to 4 Dec")
        // Show marks today's step (the course is over: none).
        let shown = try await daemon.call(Reminders.Get.self, .init(reminder: "Prednisone")).reminder
        #expect(shown.delivery.medication.steps?.map(\.current) == [false, false, false] && shown.next == nil)
    }

    /// The course's end was written into the rule: a longer course, an ended one or a new time must not keep it.
    @Test func aChangedOrEndedCourseOrANewTimeEndsWhereTheCourseNowEnds() async throws {
        let daemon = try await TestDaemon(now: instant("2026-11-30T12:00:00Z"), systemZone: "UTC")
        _ = try await daemon.add("Prednisone", ["daily": true, "at": "08:00"], ["steps": .string(steps)])
        func update(_ change: Reminders.Update.Parameters) async throws -> ReminderValue { try await daemon.call(Reminders.Update.self, change).reminder }
        // Longer: through the 20th, not cut at the old course's 4th.
        var longer = Reminders.Update.Parameters(reminder: "Prednisone")
        longer.delivery.medication.steps = "40mg until 2026-12-10; 20mg until 2026-12-20"
        #expect(try await update(longer).rule.until == "2026-12-20")
        // A new time keeps the course's end (it was lost with the old rule).
        var later = Reminders.Update.Parameters(reminder: "Prednisone")
        later.rule = RuleSpec(daily: true, at: "09:00")
        #expect(try await update(later).rule.until == "2026-12-20")
        // Ended, then a plain dose: the reminder goes on after the 20th.
        var ended = Reminders.Update.Parameters(reminder: "Prednisone")
        ended.delivery.medication.steps = ""
        let plain = try await update(ended)
        #expect(plain.rule.until == nil && plain.delivery.medication.steps == nil)
        await daemon.advance(to: instant("2026-12-24T12:00:00Z"))
        let next = try await daemon.call(Reminders.Get.self, .init(reminder: "Prednisone")).reminder.next
        #expect(next?.utc == "2026-12-25T09:00:00Z")
        // The user's own end, before the course's, is kept.
        _ = try await daemon.add("Other", ["daily": true, "at": "08:00", "until": "2026-12-26"], ["steps": "10mg until 2026-12-28"])
        var shorter = Reminders.Update.Parameters(reminder: "Other")
        shorter.delivery.medication.steps = "10mg until 2026-12-30"
        #expect(try await update(shorter).rule.until == "2026-12-26")
    }

    @Test func aLogTakesTheDaysStepAndTheStockLastsByTheSteps() async throws {
        let daemon = try await TestDaemon(now: instant("2026-11-30T12:00:00Z"), systemZone: "UTC")
        _ = try await daemon.add("Prednisone", ["daily": true, "at": "08:00"], ["steps": .string(steps)])
        await daemon.advance(to: instant("2026-12-02T08:00:05Z"))
        let log = try await daemon.call(Reminders.Done.self, .init(reminder: "Prednisone")).log
        #expect(log.amount == 30 && log.unit == "mg", "2 December: the 30 mg step")
        // Counted a minute after that dose: 100 mg covers 30 (3 Dec) + 20 (4 Dec) = 50; the course ends first.
        await daemon.advance(to: instant("2026-12-02T08:01:00Z"))
        let stock = try await daemon.call(Medication.StockSet.self, .init(reminder: "Prednisone", amount: "100"))
        #expect(stock.stock.through == "2026-12-04" && stock.stock.outlastsTheRule == true)
        _ = try await daemon.call(Medication.StockSet.self, .init(reminder: "Prednisone", amount: "40"))
        let short = try await daemon.call(Medication.Stock.self, .init(reminder: "Prednisone")).stocks[0]
        #expect(short.through == "2026-12-03" && short.doses == 1, "40 mg: the 30 mg of 3 Dec, not the 20 of 4 Dec")
        // Preview says each firing's dose.
        let preview = try await daemon.call(Reminders.Preview.self, .init(rule: RuleSpec(daily: true, at: "08:00"), timeZone: "UTC", after: "2026-11-30T12:00:00Z", count: 10, steps: steps))
        #expect(preview.firings.map(\.dose) == [40, 30, 30, 20])
    }

    @Test func badStepsAreRefusedWithWhatToWrite() async throws {
        let daemon = try await TestDaemon(now: instant("2026-11-30T12:00:00Z"), systemZone: "UTC")
        func message(_ rule: Rule, _ steps: String, _ extra: [String: JSONValue] = [:]) async -> String? {
            do {
                _ = try await daemon.add("Prednisone", rule, extra.merging(["steps": .string(steps)]) { $1 })
                return nil
            } catch {
                return (error as? VarlinkError)?.string("message")
            }
        }
        let daily: Rule = ["daily": true, "at": "08:00"]
        #expect(await message(daily, "40mg until 2026-12-03; 30mg until 2026-12-01")?.contains("list the steps in date order") == true)
        #expect(await message(daily, "40mg until 2026-12-03; 3 tablets until 2026-12-05")?.contains("two units") == true)
        #expect(await message(daily, "40mg 2026-12-03")?.contains("each step as a dose and its last day") == true)
        #expect(await message(daily, "40mg until 2026-13-03")?.contains("invalid date") == true)
        #expect(await message(daily, "40mg until 2026-12-03", ["dose": "40mg"])?.contains("--dose and --steps both") == true)
        #expect(await message(["every": "8h", "start": "2026-12-01T08:00"], "40mg until 2026-12-03")?.contains("a schedule of days") == true)
        #expect(await message(daily, "40mg until 2026-11-01")?.contains("would never fire") == true, "a course already over")
        #expect(try await daemon.call(Reminders.List.self, .init()).reminders.allSatisfy { $0.name != "Prednisone" }, "nothing added")
    }
}

/// The messages as the tables write them.
private let english = UntranslatedCatalog()
