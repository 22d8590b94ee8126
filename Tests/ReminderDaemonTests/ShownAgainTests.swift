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

    /// A day of doses taken, skipped and snoozed, then a restart (every login, boot, language change): nothing of
    /// it is due, so nothing is shown again. (Before: every dose announced that day came back "(shown again)",
    /// Taken button and all, while `today` said taken.)
    @Test func aDayTakenThenARestartShowsNothing() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T05:00:00Z"))
        for (name, at) in [("Metformin", "06:00,12:00,18:00"), ("Ramipril", "07:00"), ("Water", "08:00"), ("Stretch", "09:00")] {
            _ = try await daemon.add(name, ["daily": true, "at": .string(at)], timeZone: "UTC", ["window": "12h", "repeat": "30m"])
        }
        await daemon.advance(to: instant("2026-03-02T06:00:30Z"))
        try await daemon.call("Done", ["reminder": "Metformin"])
        await daemon.advance(to: instant("2026-03-02T07:01:00Z"))
        try await daemon.call("Done", ["reminder": "Ramipril"])
        await daemon.advance(to: instant("2026-03-02T08:01:00Z"))
        try await daemon.call("Skip", ["reminder": "Water"])
        await daemon.advance(to: instant("2026-03-02T12:00:30Z"))
        try await daemon.call("Done", ["reminder": "Metformin"])
        try await daemon.call("Snooze", ["reminder": "Stretch", "minutes": 60])
        #expect(await daemon.current.stillDue().isEmpty)
        try await daemon.restart()
        #expect(await daemon.current.stillDue().isEmpty, "taken, skipped and snoozed are not due after a restart")
        // And the repeats stay quiet: nothing taken or skipped is announced again in the afternoon; the snooze
        // ends at 13:00:30 and Stretch is announced again then.
        let before = daemon.announcer.firings.count
        await daemon.advance(to: instant("2026-03-02T16:00:00Z"))
        #expect(Set(daemon.announcer.firings.dropFirst(before).map(\.firing.reminder.name)) == ["Stretch"], "no repeat of a dose taken")
        // The one still due after a restart is still shown.
        try await daemon.restart()
        #expect(await daemon.current.stillDue().map(\.firing.reminder.name) == ["Stretch"])
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
