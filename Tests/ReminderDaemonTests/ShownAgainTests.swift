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

    /// `done` in the very second a dose was announced: the log counts as at or before the occurrence, which made
    /// it "suppressed", and its notification stayed with its Taken button (found by the e2e test of showing
    /// again). It is taken: said, and not still due.
    @Test func doneInTheSecondOfTheAnnouncementTakesIt() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        _ = try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC", ["window": "2h", "repeat": "10m"])
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        #expect(daemon.firings(of: "Pills").count == 1)
        try await daemon.call("Done", ["reminder": "Pills"])
        #expect(daemon.announcer.occurrences.map(\.state) == [.taken])
        #expect(await daemon.current.stillDue().isEmpty)
        await daemon.advance(to: instant("2026-03-02T08:30:00Z"))
        #expect(daemon.firings(of: "Pills").count == 1, "no repeat")
    }

    /// The socket file whose return means the bus is back: where sd-bus connects.
    @Test func theBusSocketWatchedIsWhereSdBusConnects() {
        let socket = { (environment: [String: String]) in DesktopChannel.busSocket(environment: environment).map { "\($0.folder) \($0.name)" } }
        #expect(socket(["XDG_RUNTIME_DIR": "/run/user/1000"]) == "/run/user/1000 bus")
        #expect(socket(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/test/bus,guid=1234", "XDG_RUNTIME_DIR": "/run/user/1000"]) == "/tmp/test bus")
        #expect(socket(["DBUS_SESSION_BUS_ADDRESS": "unix:abstract=/tmp/dbus-x"]) == nil)
        #expect(socket(["DBUS_SESSION_BUS_ADDRESS": "tcp:host=127.0.0.1,port=5"]) == nil)
        #expect(socket([:]) == nil)
    }
}
