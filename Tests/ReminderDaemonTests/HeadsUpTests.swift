import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import ReminderScheduling
import VarlinkProtocol
import Testing
import Translation

@testable import ReminderDaemon

/// `--before 15m`: a notice that long before each occurrence, on the manual clock. It is not an occurrence (not
/// missed, not taken), is not given for a dose already logged, and a length the rule cannot have is refused.
@Suite("Notices before occurrences in the daemon")
struct HeadsUpTests {
    func notices(_ daemon: TestDaemon) -> [HeadsUp] {
        daemon.announcer.events.compactMap { if case .headsUp(let notice) = $0 { notice } else { nil } }
    }

    @Test func aNoticeComesThatLongBeforeAndIsNoOccurrence() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        let added = try await daemon.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "UTC", ["before": "15m,30m", "dose": "500mg", "window": "1h"])
        #expect(added.delivery.notification.beforeMinutes == [15, 30])
        await daemon.advance(to: instant("2026-03-02T07:29:59Z"))
        #expect(notices(daemon).isEmpty)
        await daemon.advance(to: instant("2026-03-02T07:30:00Z"))
        await daemon.advance(to: instant("2026-03-02T07:45:00Z"))
        #expect(notices(daemon).map(\.minutesBefore) == [30, 15])
        #expect(notices(daemon).allSatisfy { $0.occurrence.instant == instant("2026-03-02T08:00:00Z") })
        #expect(daemon.firings(of: "Metformin").isEmpty && daemon.announcer.occurrences.isEmpty, "no firing, nothing missed or taken")
        let entry = JournalAnnouncer.entry(for: .headsUp(try #require(notices(daemon).last)), in: english)
        #expect(entry.message.hasPrefix("Coming up in 15m: Metformin, 500 mg (daily, Mon 08:00)"), "\(entry.message)")
        #expect(entry.fields.contains(.init(name: "REMINDER_ANNOUNCEMENT", value: "before")))
        #expect(entry.fields.contains(.init(name: "MESSAGE_ID", value: MessageID.comingUp)))
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        #expect(daemon.firings(of: "Metformin").map(\.kind) == [.fired], "the occurrence fires as ever")
        await daemon.advance(to: instant("2026-03-02T09:00:00Z"))
        #expect(daemon.announcer.occurrences.map(\.state) == [.missed], "one occurrence: the notices are none")
    }

    @Test func noNoticeForADoseAlreadyLogged() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "UTC", ["before": "15m"])
        await daemon.advance(to: instant("2026-03-02T07:40:00Z"))
        try await daemon.log("Metformin")
        await daemon.advance(to: instant("2026-03-02T07:45:00Z"))
        #expect(notices(daemon).isEmpty)
        await daemon.advance(to: instant("2026-03-03T07:45:00Z"))
        #expect(notices(daemon).count == 1, "the next day's is given")
    }

    @Test func aLengthTheRuleCannotHaveIsRefusedAndChangesNothing() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Water", ["daily": true, "at": "08:00,09:00"], timeZone: "UTC")
        for (before, says) in [("0m", "whole minutes from 1m to 7d"), ("1h", "as little as 1h apart"), ("15m,x", "such as 15m or 15m,1h"), ("90s", "whole minutes")] {
            let refused = await #expect(throws: VarlinkError.self) { try await daemon.call("Update", ["reminder": "Water", "before": .string(before)]) }
            #expect(refused?.string("message")?.contains(says) == true, "\(before): \(String(describing: refused?.string("message")))")
        }
        let shown = try await daemon.call(Reminders.Get.self, .init(reminder: "Water")).reminder
        #expect(shown.delivery.notification.beforeMinutes == nil)
        let refused = await #expect(throws: VarlinkError.self) {
            try await daemon.call("Add", ["name": "Hourly", "rule": .object(["daily": true, "at": "08:00,09:00"]), "before": "2h"])
        }
        #expect(refused?.string("message")?.contains("give less than that") == true)
    }
}

/// The messages as the tables write them.
private let english = UntranslatedCatalog()
