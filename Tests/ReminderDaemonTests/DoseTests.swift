import Foundation
import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import Testing
import Translation
import VarlinkProtocol

@testable import ReminderDaemon

/// A reminder's dose: said in every announcement (journal fields, the hook's environment, the message), shown
/// with the reminder, its occurrences and its next firing, and recorded with each log.
@Suite("Medication: doses")
struct DoseTests {
    private func daemon() async throws -> TestDaemon {
        try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "Europe/Berlin")
    }

    private func logs(_ daemon: TestDaemon) async throws -> [IntakeValue] {
        try await daemon.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs
    }

    @Test func aDoseIsShownSaidInEveryAnnouncementAndRecordedWithEachLog() async throws {
        let daemon = try await daemon()
        let added = try await daemon.add("Metformin", ["daily": true, "at": "08:00,20:00"], ["dose": "2", "unit": "tablets"])
        #expect(added.delivery.medication.dose == 2 && added.delivery.medication.unit == "tablet")
        let next = try await daemon.call(Reminders.Next.self, .init(count: 1)).firings
        #expect(next.map(\.dose) == [2] && next.map(\.unit) == ["tablet"])
        let day = try await daemon.call(Reminders.Occurrences.self, .init(date: "2026-12-01")).occurrences
        #expect(day.map(\.dose) == [2, 2] && day.allSatisfy { $0.unit == "tablet" })

        await daemon.advance(to: instant("2026-12-01T07:00:30Z"))
        let fired = try #require(daemon.firings(of: "Metformin").first)
        let entry = JournalAnnouncer.entry(for: .firing(fired), in: english)
        let fields = Dictionary(entry.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        #expect(fields["REMINDER_DOSE"] == "2" && fields["REMINDER_UNIT"] == "tablet")
        #expect(entry.message.hasPrefix("Reminder: Metformin, 2 tablets (daily, Tue 08:00)"))
        let environment = Dictionary(CommandHookAnnouncer.environment(for: fired), uniquingKeysWith: { $1 })
        #expect(environment["REMINDER_DOSE"] == "2" && environment["REMINDER_UNIT"] == "tablet")

        // Taken: the dose by default; a half dose when said so.
        _ = try await daemon.call(Reminders.Done.self, .init(reminder: "Metformin"))
        _ = try await daemon.call(Reminders.Log.self, .init(reminder: "Metformin", amount: "1"))
        #expect(try await logs(daemon).map(\.amount) == [2, 1])
        #expect(try await logs(daemon).allSatisfy { $0.unit == "tablet" })
        let history = try await daemon.history(of: "Metformin").filter { $0.detail?.hasPrefix("log ") == true }
        #expect(history.map(\.amount) == [2, 1] && history.allSatisfy { $0.unit == "tablet" })
    }

    @Test func aReminderWithoutADoseHasNoAmountAndRefusesOne() async throws {
        let daemon = try await daemon()
        try await daemon.add("Walk", ["daily": true, "at": "08:00"])
        await #expect { try await daemon.call(Reminders.Log.self, .init(reminder: "Walk", amount: "1")) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains("Walk has no dose to take an amount of: give it one, e.g. remindctl update \"Walk\" --dose 2 --unit tablet") == true
        }
        try await daemon.log("Walk")
        #expect(try await logs(daemon).map(\.amount) == [nil])
    }

    @Test func aDoseIsChangedRemovedOrGivenAnotherUnit() async throws {
        let daemon = try await daemon()
        try await daemon.add("Ibuprofen", ["daily": true, "at": "08:00"], ["dose": "400mg"])
        var reminder = try await daemon.call(Reminders.Update.self, .init(reminder: "Ibuprofen", delivery: .init(medication: .init(dose: "1", unit: "tablet")))).reminder
        #expect(reminder.delivery.medication.dose == 1 && reminder.delivery.medication.unit == "tablet")
        reminder = try await daemon.call(Reminders.Update.self, .init(reminder: "Ibuprofen", delivery: .init(medication: .init(unit: "capsule")))).reminder
        #expect(reminder.delivery.medication.dose == 1 && reminder.delivery.medication.unit == "capsule")
        reminder = try await daemon.call(Reminders.Update.self, .init(reminder: "Ibuprofen", delivery: .init(medication: .init(dose: "")))).reminder
        #expect(reminder.delivery.medication.dose == nil && reminder.delivery.medication.unit == nil)
    }

    @Test(arguments: [
        (["dose": "0", "unit": "tablet"], "invalid dose '0'"), (["dose": "-1", "unit": "tablet"], "invalid dose '-1'"),
        (["dose": "NaN", "unit": "tablet"], "invalid dose 'NaN'"), (["dose": "1e20", "unit": "mg"], "invalid dose '1e20'"),
        (["dose": "2", "unit": "furlong"], "unknown unit 'furlong'"), (["dose": "2"], "needs a unit"), (["unit": "tablet"], "a unit without a dose"),
    ] as [([String: String], String)])
    func aBadDoseIsRefusedAndNothingChanges(parameters: [String: String], message: String) async throws {
        let daemon = try await daemon()
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], ["dose": "1", "unit": "tablet"])
        let extra = parameters.mapValues { JSONValue.string($0) }
        await #expect { try await daemon.add("New", ["daily": true, "at": "08:00"], extra) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains(message) == true
        }
        // An update with a unit alone changes the unit of the dose there is.
        if parameters["dose"] != nil {
            await #expect { try await daemon.call("Update", extra.merging(["reminder": "Pills"]) { $1 }) } throws: {
                ($0 as? VarlinkError)?.string("message")?.contains(message) == true
            }
        }
        let reminders = try await daemon.call(Reminders.List.self, .init()).reminders
        #expect(!reminders.contains { $0.name == "New" })
        let pills = try #require(reminders.first { $0.name == "Pills" })
        #expect(pills.delivery.medication.dose == 1 && pills.delivery.medication.unit == "tablet")
    }

    @Test(arguments: ["0", "-1", "NaN", "1e20", "250mg", "two"])
    func aBadAmountIsRefusedAndNothingIsLogged(amount: String) async throws {
        let daemon = try await daemon()
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], ["dose": "1", "unit": "tablet"])
        await #expect { try await daemon.call(Reminders.Log.self, .init(reminder: "Pills", amount: amount)) } throws: {
            ($0 as? VarlinkError)?.string("message").map { $0.contains("invalid dose") || $0.contains("name two units") } == true
        }
        #expect(try await logs(daemon).isEmpty)
    }
}

/// One log takes at most 100 doses without --force: `log --amount 100000` of a 2-tablet dose (50,000 doses) was
/// taken silently and emptied the stock.
@Suite struct LogAmountLimitTests {
    @Test func anAmountOfMoreThan100DosesNeedsForce() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        try await daemon.add("Metformin", ["daily": true, "at": "08:00"], ["dose": "2", "unit": "tablet"])
        await #expect { try await daemon.call(Reminders.Log.self, .init(reminder: "Metformin", amount: "100000")) } throws: {
            let message = ($0 as? VarlinkError)?.string("message") ?? ""
            return message == "'100000' is 50000 doses of Metformin (2 tablet each): one log takes at most 100; if it is right, add --force"
        }
        #expect(try await daemon.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.isEmpty)
        _ = try await daemon.call(Reminders.Log.self, .init(reminder: "Metformin", amount: "200"))
        _ = try await daemon.call(Reminders.Log.self, .init(reminder: "Metformin", amount: "100000", force: true))
        #expect(try await daemon.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.map(\.amount) == [200, 100000])
    }
}

/// The messages as the tables write them.
private let english = UntranslatedCatalog()
