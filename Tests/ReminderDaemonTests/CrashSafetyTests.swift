import ReminderCore
import ReminderInterface
import Testing
import Translation

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
        #expect(JournalAnnouncer.entry(for: .firing(again[0]), in: english).fields.contains(.init(name: "REMINDER_REANNOUNCED", value: "1")))
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
        let entry = JournalAnnouncer.entry(for: .firing(first.announcer.firings[0]), in: english)
        #expect(entry.fields.contains(.init(name: "REMINDER_RECORD", value: keys[0])))
    }

    /// Where a crash cuts an announcement's sequence (record, announce, confirm).
    enum Cut: CaseIterable, Sendable {
        case beforeTheAnnouncement, beforeTheConfirmation
    }

    /// Runs `step` as a crash at `cut` leaves it, then restarts the daemon at `restartAt`.
    private func crash(_ daemon: TestDaemon, at cut: Cut, restartAt: Instant, _ step: () async throws -> Void) async throws {
        daemon.announcer.dropsAnnouncements = cut == .beforeTheAnnouncement
        try daemon.setConfirmationsFail(true)
        try await step()
        daemon.announcer.dropsAnnouncements = false
        try daemon.setConfirmationsFail(false)
        daemon.clock.set(restartAt)
        try await daemon.restart()
    }

    /// The missed note is recorded, announced, then confirmed like a firing: a crash between any two steps
    /// neither loses it nor repeats it.
    @Test(arguments: Cut.allCases)
    func aCrashAroundAMissedNoteNeitherLosesNorRepeatsIt(cut: Cut) async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC", ["window": "30m"])
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        try await crash(daemon, at: cut, restartAt: instant("2026-03-02T08:31:00Z")) {
            await daemon.advance(to: instant("2026-03-02T08:30:00Z"))
        }
        let missed = daemon.announcer.occurrences.filter { $0.state == .missed }
        #expect(missed.map(\.firing.occurrence.instant) == [instant("2026-03-02T08:00:00Z")])
        #expect(missed.first?.record != nil && missed.first?.reannounced == false)
        try await daemon.restart()
        await daemon.advance(to: instant("2026-03-02T12:00:00Z"))
        #expect(daemon.announcer.occurrences.count == 1)
        #expect(try await daemon.history(of: "Pills").filter { $0.kind == "missed" }.count == 1)
    }

    /// A repeat is noted, announced, then confirmed: a crash between any two steps announces it once, and the
    /// next repeat counts from it.
    @Test(arguments: Cut.allCases)
    func aCrashAroundARepeatNeitherLosesNorRepeatsIt(cut: Cut) async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC", ["repeat": "10m"])
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        try await crash(daemon, at: cut, restartAt: instant("2026-03-02T08:11:00Z")) {
            await daemon.advance(to: instant("2026-03-02T08:10:00Z"))
        }
        #expect(daemon.firings(of: "Pills").compactMap(\.repeatNumber) == [1])
        await daemon.advance(to: instant("2026-03-02T08:25:00Z"))
        let expected = cut == .beforeTheAnnouncement ? ["08:00:00", "08:11:00", "08:21:00"] : ["08:00:00", "08:10:00", "08:20:00"]
        #expect(daemon.firings(of: "Pills").map { String($0.handledAt.description.dropFirst(11).prefix(8)) } == expected)
        #expect(daemon.firings(of: "Pills").compactMap(\.repeatNumber) == [1, 2])
    }

    /// A snooze's announcement and the forgetting of the stored snooze are one write: a crash between any two
    /// steps announces it once.
    @Test(arguments: Cut.allCases)
    func aCrashAroundASnoozeNeitherLosesNorRepeatsIt(cut: Cut) async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        try await daemon.call("Snooze", ["reminder": "Pills", "minutes": 5])
        try await crash(daemon, at: cut, restartAt: instant("2026-03-02T08:06:00Z")) {
            await daemon.advance(to: instant("2026-03-02T08:05:00Z"))
        }
        await daemon.advance(to: instant("2026-03-02T09:00:00Z"))
        try await daemon.restart()
        await daemon.advance(to: instant("2026-03-02T10:00:00Z"))
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.fired, .snoozed])
    }

    /// Where the journal cannot be read back, a missed note and a repeat a crash left unconfirmed are announced
    /// again, marked so.
    @Test func aJournalThatCannotBeReadBackHasTheMissedNoteAndTheRepeatAnnouncedAgainAndSaysSo() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC", ["window": "30m"])
        try await daemon.add("Drops", ["daily": true, "at": "08:00"], timeZone: "UTC", ["repeat": "20m"])
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        daemon.announcer.isReadable = false
        try await crash(daemon, at: .beforeTheConfirmation, restartAt: instant("2026-03-02T08:31:00Z")) {
            await daemon.advance(to: instant("2026-03-02T08:30:00Z"))
        }
        let missed = daemon.announcer.occurrences.filter(\.reannounced)
        #expect(missed.map(\.firing.reminder.name) == ["Pills"])
        #expect(JournalAnnouncer.entry(for: .occurrence(missed[0]), in: english).fields.contains(.init(name: "REMINDER_REANNOUNCED", value: "1")))
        let repeats = daemon.firings(of: "Drops").filter { $0.kind == .repeated }
        #expect(repeats.map(\.reannounced) == [false, true] && repeats.map(\.repeatNumber) == [1, 1])
    }
}

/// The messages as the tables write them.
private let english = UntranslatedCatalog()
