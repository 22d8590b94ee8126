import Foundation
import Glibc
import ReminderCore
import ReminderDaemonTesting
import Synchronization
import Testing

@testable import ReminderDaemon

/// The daemon's services as remindd runs them (``Daemon/services(_:)``, the one composition root), in-process on
/// the manual clock: the folders' watch reads what is written after the start, SIGHUP runs the reload, SIGTERM
/// stops the group and the commands with it.
@Suite("The daemon's services")
struct DaemonServicesTests {
    /// Waits up to 60 s for `condition`, looking every 20 ms (10 s was once too short for the reload under the
    /// whole suite's load). - Returns: whether it came.
    func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<3000 {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func theFolderWatchReadsAnItemWrittenAfterTheStartSighupReloadsAndSigtermStopsTheCommands() async throws {
        let folder = try CalendarAlarmTests.Folder()
        defer { folder.remove() }
        var configuration = DaemonConfiguration()
        configuration.calendars = [folder.path]
        let commands = RecordingCommandRunner()
        let daemon = try await TestDaemon(
            now: instant("2026-12-01T00:00:00Z"), systemZone: "Europe/Berlin", configuration: configuration, commands: commands, readsFolders: false)
        let reloadFailure = Mutex<String?>(nil)
        let services = try daemon.runServices {
            // The executable reads its config file again; here, one without the calendar.
            do { try await daemon.current.reload(DaemonConfiguration()) } catch { reloadFailure.withLock { $0 = "\(error)" } }
        }
        // Read once started, then each change as inotify reports it: an event khal writes now is planned.
        try folder.write("dentist.ics", CalendarAlarmTests.event("Dentist", uid: "dentist@khal", start: "20261203T100000"))
        #expect(try await eventually { try await daemon.calendarFirings(count: 5).map(\.utc) == ["2026-12-03T08:45:00Z"] })
        services.send(.signal(SIGHUP))
        #expect(try await eventually { try await daemon.calendarAlarms().isEmpty }, "the reload ran")
        #expect(reloadFailure.withLock { $0 } == nil)
        #expect(!commands.stoppedAll)
        try await services.stop()
        #expect(commands.stoppedAll, "the commands still running are stopped with the daemon")
    }
}
