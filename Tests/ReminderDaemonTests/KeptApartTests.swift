import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import Testing
import Translation
import VarlinkProtocol

@testable import ReminderDaemon

/// #59 item 4: two medicines kept apart (`--apart-from Iron 4h`, both ways). A dose of either within the gap of
/// the other's is refused like a limit, with when the next is allowed, and logged anyway with `--force`; when both
/// come due together, the one that goes first is announced and the other at the gap's end, with the reason,
/// across a restart and moved on by when the first is taken.
@Suite("Medication: kept apart")
struct KeptApartTests {
    func daemon(_ time: String = "07:00", _ levothyroxine: String = "06:30") async throws -> TestDaemon {
        let daemon = try await TestDaemon(now: instant("2026-12-01T05:00:00Z"), systemZone: "UTC")
        try await daemon.add("Iron", ["daily": true, "at": .string(time)], timeZone: "UTC", ["dose": "1", "unit": "tablet"])
        try await daemon.add(
            "Levothyroxine", ["daily": true, "at": .string(levothyroxine)], timeZone: "UTC",
            ["dose": "50", "unit": "mcg", "apartFrom": .array([.object(["reminder": "iron", "gap": "4h"])])])
        return daemon
    }

    func gaps(_ daemon: TestDaemon, _ name: String) async throws -> [DoseGap] {
        try await daemon.call(Reminders.Get.self, .init(reminder: name)).reminder.delivery.medication.apart ?? []
    }

    @Test func aDoseWithinTheGapOfTheOthersIsRefusedEitherWayAndForceLogsIt() async throws {
        let daemon = try await daemon()
        #expect(try await gaps(daemon, "Levothyroxine") == [DoseGap(reminder: "Iron", seconds: 14400)], "named as stored")
        #expect(try await gaps(daemon, "Iron") == [DoseGap(reminder: "Levothyroxine", seconds: 14400)], "both ways")

        await daemon.advance(to: instant("2026-12-01T06:30:00Z"))
        try await daemon.log("Levothyroxine")
        await daemon.advance(to: instant("2026-12-01T07:00:00Z"))
        let iron = await refusal { try await daemon.log("Iron") }
        #expect(iron?.name == "io.remindd.Reminders.DoseNotAllowed")
        #expect(iron?.string("message") == "Iron: Levothyroxine was taken at 06:30 (kept at least 4h apart); the next is allowed from 10:30; --force to log it anyway")
        #expect(iron?.string("limit") == "apart" && iron?.string("otherReminder") == "Levothyroxine" && iron?.string("allowedFromUtc") == "2026-12-01T10:30:00Z")
        // The other way: a levothyroxine logged for a time within the gap before an iron dose.
        try await daemon.call("Log", ["reminder": "Iron", "at": "2026-12-01T07:00", "force": true])
        let backdated = await refusal { try await daemon.log("Levothyroxine", at: "2026-12-01T04:00") }
        #expect(backdated?.string("message")?.hasPrefix("Levothyroxine: Iron is logged at 07:00 (kept at least 4h apart)") == true)
        let logs = try await daemon.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs
        #expect(logs.map { "\($0.reminderName) \($0.forced == true)" } == ["Levothyroxine false", "Iron true"])
        await daemon.advance(to: instant("2026-12-01T11:00:00Z"))
        try await daemon.log("Iron", at: "2026-12-01T11:00")  // 4h30 after the levothyroxine: allowed
    }

    @Test func aNameThatIsNoneOrItselfIsRefusedAndRenameAndRemoveKeepBothSidesTrue() async throws {
        let daemon = try await daemon()
        for (name, words) in [("Calcium", "no reminder has that name"), ("Levothyroxine", "not this reminder itself")] {
            let refused = await refusal {
                try await daemon.call("Update", ["reminder": "Levothyroxine", "apartFrom": .array([.object(["reminder": .string(name), "gap": "2h"])])])
            }
            #expect(refused?.string("message")?.contains(words) == true, "\(String(describing: refused))")
        }
        let bad = await refusal { try await daemon.call("Update", ["reminder": "Iron", "apartFrom": .array([.object(["reminder": "Levothyroxine", "gap": "25h"])])]) }
        #expect(bad?.string("parameter") == "apartFrom")
        #expect(try await gaps(daemon, "Iron") == [DoseGap(reminder: "Levothyroxine", seconds: 14400)], "nothing changed by a refusal")

        try await daemon.call("Update", ["reminder": "Iron", "name": "Ferrous sulfate"])
        #expect(try await gaps(daemon, "Levothyroxine") == [DoseGap(reminder: "Ferrous sulfate", seconds: 14400)], "a rename is followed")
        try await daemon.call("Update", ["reminder": "Ferrous sulfate", "apartFrom": .array([.object(["reminder": "Levothyroxine", "gap": "2h"])])])
        #expect(try await gaps(daemon, "Levothyroxine") == [DoseGap(reminder: "Ferrous sulfate", seconds: 7200)], "a change from either side holds on both")
        try await daemon.restart()
        #expect(try await gaps(daemon, "Levothyroxine") == [DoseGap(reminder: "Ferrous sulfate", seconds: 7200)])
        try await daemon.call("Remove", ["reminder": "Ferrous sulfate"])
        #expect(try await gaps(daemon, "Levothyroxine").isEmpty, "a removed medicine holds nothing back")
    }

    @Test func bothDueTogetherTheSecondIsAnnouncedAtTheGapsEndFromWhenTheFirstWasTaken() async throws {
        let daemon = try await daemon("07:00", "07:00")
        // Iron goes first by name; levothyroxine waits for the gap from the iron due.
        await daemon.advance(to: instant("2026-12-01T07:00:00Z"))
        #expect(daemon.firings(of: "Iron").map(\.kind) == [.fired])
        let waited = try #require(daemon.firings(of: "Levothyroxine").last)
        #expect(waited.kind == .postponed && waited.detail == "kept 4h apart from Iron (due at Tue 07:00): announced at Tue 11:00")
        // Taken at 07:30: the wait moves to 11:30, across a restart.
        await daemon.advance(to: instant("2026-12-01T07:30:00Z"))
        try await daemon.log("Iron")
        try await daemon.restart()
        await daemon.advance(to: instant("2026-12-01T11:29:59Z"))
        #expect(daemon.firings(of: "Levothyroxine").filter(\.kind.reachesThePerson).isEmpty, "not within the gap")
        await daemon.advance(to: instant("2026-12-01T11:30:00Z"))
        let announced = try #require(daemon.firings(of: "Levothyroxine").last)
        #expect(announced.kind == .snoozed && announced.handledAt == instant("2026-12-01T11:30:00Z"))
        #expect(announced.keptApart == DoseGaps.Hold(partner: "Iron", gapSeconds: 14400, from: instant("2026-12-01T07:30:00Z"), taken: true))
        let journal = JournalAnnouncer.entry(for: .firing(announced), in: UntranslatedCatalog()).message
        #expect(journal.hasSuffix("kept 4h apart from Iron, taken at Tue 07:30"), "\(journal)")
        try await daemon.log("Levothyroxine")
        await daemon.advance(to: instant("2026-12-02T00:00:00Z"))
        #expect(daemon.announcer.occurrences.filter { $0.state == .missed }.isEmpty, "neither missed")
    }

    @Test func anOccurrenceDueAfterTheOthersDoseWaitsAndOneNeverTakenHoldsOnlyTheGap() async throws {
        let daemon = try await daemon("08:00", "06:30")
        await daemon.advance(to: instant("2026-12-01T06:30:00Z"))
        try await daemon.log("Levothyroxine")
        await daemon.advance(to: instant("2026-12-01T08:00:00Z"))
        #expect(daemon.firings(of: "Iron").map(\.kind) == [.postponed])
        await daemon.advance(to: instant("2026-12-01T10:30:00Z"))
        #expect(daemon.firings(of: "Iron").map(\.kind) == [.postponed, .snoozed])
        // The next day the levothyroxine is not taken: the iron waits the gap from when it was due, no longer.
        await daemon.advance(to: instant("2026-12-02T08:00:00Z"))
        await daemon.advance(to: instant("2026-12-02T10:30:00Z"))
        #expect(daemon.firings(of: "Iron").suffix(2).map(\.kind) == [.postponed, .snoozed])
    }
}
