import ReminderCore
import ReminderDaemonTesting
import VarlinkProtocol
import Testing

@testable import ReminderDaemon

/// What a notification server that appears is shown (``SchedulingService/stillDue()``): each reminder's
/// occurrence announced and still due, not one taken, skipped, snoozed or whose window closed.
@Suite("Shown again on a desktop that appears")
struct ShownAgainTests {
    @Test func onlyWhatIsStillDueIsShownAgain() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        for name in ["Pills", "Water", "Stretch"] {
            _ = try await daemon.add(name, ["daily": true, "at": "08:00"], timeZone: "UTC", ["window": "2h"])
        }
        #expect(await daemon.current.stillDue().isEmpty, "nothing announced yet")
        await daemon.advance(to: instant("2026-03-02T08:01:00Z"))
        #expect(await daemon.current.stillDue().map(\.firing.reminder.name).sorted() == ["Pills", "Stretch", "Water"])
        try await daemon.call("Log", ["reminder": "Water"])
        try await daemon.call("Snooze", ["reminder": "Stretch", "minutes": 5])
        let again = await daemon.current.stillDue()
        #expect(again.map(\.firing.reminder.name) == ["Pills"])
        #expect(again.first?.firing.occurrence.instant == instant("2026-03-02T08:00:00Z"))
        await daemon.advance(to: instant("2026-03-02T10:01:00Z"))
        #expect(await daemon.current.stillDue().isEmpty, "the windows closed: missed, not due")
    }
}
