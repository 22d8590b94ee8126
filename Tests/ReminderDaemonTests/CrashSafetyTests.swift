import ReminderCore
import ReminderInterface
import Testing

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// A firing is recorded, announced, then confirmed. A crash between any two of these neither loses the
/// announcement nor repeats it: the next start looks each unconfirmed record up in the journal.
///
/// A crash is made of its two halves: the announcer drops what it is given (the process died before the journal
/// got it) or keeps it (it got there), and the store refuses the confirmation (the process died before writing
/// it); then ``TestDaemon/restart()`` starts a new daemon on the same database, as after `kill -9`.
@Suite("Announced once, whatever the crash")
struct CrashSafetyTests {
    /// Three reminders due together at 08:00 (one burst).
    private func threeDueAt8() async throws -> TestDaemon {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        for name in ["Pills", "Vitamin D", "Water"] { try await daemon.add(name, ["daily": true, "at": "08:00"], timeZone: "UTC") }
        return daemon
    }

    @Test func aCrashAfterTheRecordBeforeTheAnnouncementAnnouncesLateAtTheNextStart() async throws {
        let daemon = try await threeDueAt8()
        daemon.announcer.dropsAnnouncements = true
        try daemon.setConfirmationsFail(true)
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        daemon.announcer.dropsAnnouncements = false
        try daemon.setConfirmationsFail(false)
        #expect(daemon.announcer.firings.isEmpty)

        daemon.clock.set(instant("2026-03-02T08:00:05Z"))
        try await daemon.restart()
        for name in ["Pills", "Vitamin D", "Water"] {
            let announced = daemon.firings(of: name)
            #expect(announced.map(\.kind) == [.late], "\(name)")
            #expect(announced.first?.scheduled == instant("2026-03-02T08:00:00Z"))
            #expect(announced.first?.firing.lateSeconds == 5)
            #expect(announced.first?.reannounced == false)
        }
        // One record each (the slot was not handled twice), and nothing more at the next restart.
        #expect(try await daemon.history(of: "Pills").map(\.kind) == ["fired"])
        try await daemon.restart()
        #expect(daemon.announcer.firings.count == 3)
    }

    @Test func aCrashAfterTheAnnouncementBeforeItsConfirmationAnnouncesNothingAgain() async throws {
        let daemon = try await threeDueAt8()
        try daemon.setConfirmationsFail(true)
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        try daemon.setConfirmationsFail(false)
        #expect(daemon.announcer.firings.count == 3)

        daemon.clock.set(instant("2026-03-02T08:00:05Z"))
        try await daemon.restart()
        #expect(daemon.announcer.firings.count == 3)
        // Confirmed at that start: a journal that can no longer be read later changes nothing.
        daemon.announcer.isReadable = false
        try await daemon.restart()
        #expect(daemon.announcer.firings.count == 3)
        await daemon.advance(to: instant("2026-03-03T08:00:00Z"))
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.fired, .fired])
    }

    @Test func aJournalThatCannotBeReadBackHasEachUnconfirmedFiringAnnouncedAgainAndSaysSo() async throws {
        let daemon = try await threeDueAt8()
        try daemon.setConfirmationsFail(true)
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        try daemon.setConfirmationsFail(false)
        daemon.announcer.isReadable = false

        daemon.clock.set(instant("2026-03-02T08:00:05Z"))
        try await daemon.restart()
        let again = daemon.announcer.firings.filter(\.reannounced)
        #expect(Set(again.map(\.firing.reminder.name)) == ["Pills", "Vitamin D", "Water"])
        #expect(again.allSatisfy { $0.kind == .late && $0.record != nil })
        #expect(JournalAnnouncer.entry(for: .firing(again[0])).fields.contains(.init(name: "REMINDER_REANNOUNCED", value: "1")))
        try await daemon.restart()
        #expect(daemon.announcer.firings.count == 6)
    }

    /// Only what a crash left unconfirmed is looked up: part of a burst announced, the rest not.
    @Test func aCrashInTheMiddleOfABurstAnnouncesExactlyTheRest() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        let names = (0..<40).map { "Dose \($0)" }
        for name in names { try await daemon.add(name, ["daily": true, "at": "08:00"], timeZone: "UTC") }
        try daemon.setConfirmationsFail(true)
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        try daemon.setConfirmationsFail(false)
        // The journal got the first 15 announcements only.
        let reached = Array(daemon.announcer.firings.prefix(15))
        daemon.announcer.clear()
        for firing in reached { daemon.announcer.announce(.firing(firing)) }

        daemon.clock.set(instant("2026-03-02T08:00:02Z"))
        try await daemon.restart()
        let perName = Dictionary(grouping: daemon.announcer.firings, by: \.firing.reminder.name)
        #expect(perName.count == names.count)
        #expect(perName.values.allSatisfy { $0.count == 1 })
        #expect(daemon.announcer.firings.dropFirst(15).allSatisfy { $0.kind == .late })
    }

    /// Every announcement carries its record's key, which differs between two stores (a new or restored
    /// store repeats row ids, and the journal must not mistake one store's firing for another's).
    @Test func theJournalKnowsEachFiringByItsStoreAndRecord() async throws {
        let first = try await threeDueAt8()
        let second = try await threeDueAt8()
        await first.advance(to: instant("2026-03-02T08:00:00Z"))
        await second.advance(to: instant("2026-03-02T08:00:00Z"))
        let keys = first.announcer.firings.compactMap(\.record)
        #expect(Set(keys).count == 3)
        #expect(Set(keys).isDisjoint(with: second.announcer.firings.compactMap(\.record)))
        let entry = JournalAnnouncer.entry(for: .firing(first.announcer.firings[0]))
        #expect(entry.fields.contains(.init(name: "REMINDER_RECORD", value: keys[0])))
    }
}
