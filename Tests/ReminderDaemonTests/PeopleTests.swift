import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import Testing
import Translation
import VarlinkProtocol

@testable import ReminderDaemon

/// #59 item 5: a caregiver keeps a child's and a parent's medicines beside their own on one laptop (`--for`).
/// Everything said of a reminder for someone names them; `report --for Anna` holds only Anna's doses.
@Suite("More than one person")
struct PeopleTests {
    func daemon() async throws -> TestDaemon {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        try await daemon.add("Amoxicillin", ["daily": true, "at": "08:00"], timeZone: "UTC", ["dose": "250mg", "person": " Anna "])
        try await daemon.add("Levodopa", ["daily": true, "at": "08:00"], timeZone: "UTC", ["dose": "100mg", "person": "Dad"])
        try await daemon.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "UTC", ["dose": "500mg"])
        return daemon
    }

    @Test func everythingSaidOfAReminderForSomeoneNamesThem() async throws {
        let daemon = try await daemon()
        let shown = try await daemon.call(Reminders.Get.self, .init(reminder: "Amoxicillin")).reminder
        #expect(shown.delivery.person.person == "Anna", "trimmed")
        let next = try await daemon.call(Reminders.Next.self, .init(count: 3)).firings
        #expect(Set(next.map(\.shownName)) == ["Anna: Amoxicillin", "Dad: Levodopa", "Metformin"])
        await daemon.advance(to: instant("2026-12-01T08:00:00Z"))
        let fired = daemon.announcer.firings.filter { $0.kind == .fired }
        let journal = fired.map { JournalAnnouncer.entry(for: .firing($0), in: UntranslatedCatalog()) }
        #expect(journal.map(\.message).sorted() == [
            "Reminder: Anna: Amoxicillin, 250 mg (daily, Tue 08:00)", "Reminder: Dad: Levodopa, 100 mg (daily, Tue 08:00)",
            "Reminder: Metformin, 500 mg (daily, Tue 08:00)",
        ])
        #expect(journal.compactMap { $0.fields.first { $0.name == "REMINDER_PERSON" }?.value }.sorted() == ["Anna", "Dad"])
        try await daemon.log("Amoxicillin")
        let today = try await daemon.call(Reminders.Occurrences.self, .init(date: nil)).occurrences
        #expect(today.map { "\($0.shownName) \($0.state)" }.sorted() == ["Anna: Amoxicillin taken", "Dad: Levodopa due", "Metformin due"])
        let history = try await daemon.history(of: "Amoxicillin")
        #expect(!history.isEmpty && history.allSatisfy { $0.person == "Anna" })
        // Back to the user's own: "" names no one.
        try await daemon.call("Update", ["reminder": "Levodopa", "person": ""])
        #expect(try await daemon.call(Reminders.Get.self, .init(reminder: "Levodopa")).reminder.delivery.person.person == nil)
        await #expect { try await daemon.call("Update", ["reminder": "Levodopa", "person": .string("A\u{7}")]) } throws: {
            ($0 as? VarlinkError)?.string("parameter") == "person"
        }
    }

    @Test func aReportForSomeoneHoldsOnlyTheirDoses() async throws {
        let daemon = try await daemon()
        await daemon.advance(to: instant("2026-12-03T09:00:00Z"))
        func report(_ person: String?) async throws -> Reminders.Report.Reply {
            try await daemon.call(Reminders.Report.self, .init(from: "2026-12-01", to: "2026-12-03", person: person))
        }
        let anna = try await report("anna")
        #expect(anna.reminders.map(\.reminderName) == ["Amoxicillin"] && anna.medications?.map(\.reminderName) == ["Amoxicillin"])
        #expect(anna.profileName == "Anna" && anna.habits == nil && anna.fitness == nil)
        let mine = try await report("me")
        #expect(mine.reminders.map(\.reminderName) == ["Metformin"])
        let everyone = try await report(nil)
        #expect(everyone.reminders.map(\.shownName).sorted() == ["Anna: Amoxicillin", "Dad: Levodopa", "Metformin"])
        await #expect { try await report("Bob") } throws: {
            ($0 as? VarlinkError)?.string("message") == "no reminder is for 'Bob': give one of Anna, Dad, or me"
        }
    }
}
