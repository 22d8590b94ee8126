import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Input that cannot be right is refused and changes nothing; a slot missed while the daemon was down is late.
@Suite("Input limits and downtime")
struct InputLimitTests {
    @Test func updateRefusesANameAddWouldRefuse() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"])
        for name in [String(repeating: "x", count: 100_000), "   "] {
            await #expect(throws: VarlinkError.self) { try await daemon.call("Update", ["reminder": "Pills", "name": .string(name)]) }
        }
        let reminder = try await daemon.call("Get", ["reminder": "Pills"], as: [String: ReminderValue].self)["reminder"]!
        #expect(reminder.name == "Pills")
    }

    @Test func restDaysMoreThanTenYearsBackAreRefused() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        await #expect(throws: VarlinkError.self) { try await daemon.call("RestMark", ["from": "0001-01-01"]) }
        await #expect(throws: VarlinkError.self) { try await daemon.call("RestMark", ["from": "2016-03-01"]) }
        try await daemon.call("RestMark", ["from": "2016-03-02"])
        let stats = try await daemon.call("FreezeHistory", as: [String: [FreezeEventValue]].self)
        #expect(stats["events"] != nil)
    }

    @Test func aSlotMissedByLessThanAMinuteWhileDownIsLate() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        daemon.clock.set(instant("2026-03-02T08:00:30Z"))
        try await daemon.restart()
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.late])
        #expect(daemon.firings(of: "Pills").first?.firing.lateSeconds == Int64(30))
    }
}
