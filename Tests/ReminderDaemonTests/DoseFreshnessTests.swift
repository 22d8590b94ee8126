import Foundation
import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Before a dose with limits is allowed or refused, the desktop syncs and reads the collection: a painkiller
/// taken on the laptop a minute ago is counted (it was allowed before: the desktop knew the laptop's dose only at
/// its next sync). A sync that fails or hangs delays the decision by the bound at most, and the reply says so.
@Suite("Dose limits on every device's doses")
struct DoseFreshnessTests {
    /// The laptop (no sync command) and the desktop (its sync command is the test's: ``link`` plays vdirsyncer).
    final class Devices {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-fresh-\(UUID().uuidString)").path
        let laptop: TestDaemon
        let desktop: TestDaemon
        let runner = RecordingCommandRunner()
        let link: FolderSync

        init(syncWait: Duration = .seconds(10)) async throws {
            for name in ["laptop", "desktop"] { try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true) }
            var configuration = DaemonConfiguration()
            configuration.collection = root + "/laptop"
            laptop = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC", configuration: configuration)
            configuration.collection = root + "/desktop"
            (configuration.syncCommand, configuration.syncIntervalSeconds, configuration.syncWait) = (["/usr/bin/vdirsyncer", "sync"], nil, syncWait)
            desktop = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC", configuration: configuration, commands: runner)
            runner.attach(desktop.clock)
            link = FolderSync(root + "/laptop", root + "/desktop")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// The painkiller on both devices.
        func painkiller() async throws {
            try await laptop.add("Ibuprofen", ["asNeeded": true], ["dose": "400", "unit": "mg", "minInterval": "6h"])
            try link.sync()
            await desktop.folderChanged(root + "/desktop")
        }

        /// The desktop's syncs so far ended (they ran after its own changes).
        func syncsEnded() async throws {
            while runner.finish(.exited(0)) {}
            try await settled { await !desktop.current.syncRunning() }
        }

        /// Waits (briefly, in real time) for what another thread does.
        func settled(_ condition: () async -> Bool) async throws {
            for _ in 0..<1000 where !(await condition()) { try await Task.sleep(for: .milliseconds(10)) }
            #expect(await condition(), "not settled after 10 s")
        }
    }

    @Test func aDoseTakenOnTheLaptopIsCountedOnTheDesktopBeforeItAllowsAnother() async throws {
        let devices = try await Devices()
        try await devices.painkiller()
        await devices.laptop.advance(to: instant("2026-12-01T07:00:00Z"))
        await devices.desktop.advance(to: instant("2026-12-01T07:00:00Z"))
        try await devices.laptop.log("Ibuprofen")  // in the laptop's folder, not synced yet
        await devices.desktop.advance(to: instant("2026-12-01T07:01:00Z"))
        try await devices.syncsEnded()
        let runs = devices.runner.runs.count
        let desktop = devices.desktop
        let attempt = Task { try await desktop.call(Reminders.Done.self, .init(reminder: "Ibuprofen")) }
        try await devices.settled { devices.runner.runs.count > runs }  // the call runs the sync and waits for it
        try devices.link.sync()
        devices.runner.finish(.exited(0))
        await #expect { try await attempt.value } throws: { ($0 as? VarlinkError)?.name == "io.remindd.Reminders.DoseNotAllowed" }
        #expect(try await desktop.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.map(\.utc) == ["2026-12-01T07:00:00Z"])
    }

    /// #59 item 4: a gap between two medicines travels with them, and the iron taken on the laptop holds the
    /// levothyroxine back on the desktop.
    @Test func anIronTakenOnTheLaptopHoldsBackTheLevothyroxineKeptApartFromItOnTheDesktop() async throws {
        let devices = try await Devices()
        try await devices.laptop.add("Iron", ["asNeeded": true], ["dose": "1", "unit": "tablet"])
        try await devices.laptop.add(
            "Levothyroxine", ["asNeeded": true], ["dose": "50", "unit": "mcg", "apartFrom": .array([.object(["reminder": "Iron", "gap": "4h"])])])
        try devices.link.sync()
        await devices.desktop.folderChanged(devices.root + "/desktop")
        let desktop = devices.desktop
        let iron = try await desktop.call(Reminders.Get.self, .init(reminder: "Iron")).reminder
        #expect(iron.delivery.medication.apart == [DoseGap(reminder: "Levothyroxine", seconds: 14400)], "both sides travelled")
        await devices.laptop.advance(to: instant("2026-12-01T07:00:00Z"))
        await desktop.advance(to: instant("2026-12-01T07:00:00Z"))
        try await devices.laptop.log("Iron")
        await desktop.advance(to: instant("2026-12-01T07:01:00Z"))
        try await devices.syncsEnded()
        let runs = devices.runner.runs.count
        let attempt = Task { try await desktop.call(Reminders.Done.self, .init(reminder: "Levothyroxine")) }
        try await devices.settled { devices.runner.runs.count > runs }
        try devices.link.sync()
        devices.runner.finish(.exited(0))
        await #expect { try await attempt.value } throws: { error in
            let refusal = error as? VarlinkError
            return refusal?.string("limit") == "apart" && refusal?.string("otherUtc") == "2026-12-01T07:00:00Z"
        }
        try await devices.settled { await !desktop.current.syncRunning() }
    }

    @Test func aSyncThatFailsIsSaidAndTheDoseDecidedOnWhatTheDesktopHas() async throws {
        let devices = try await Devices()
        try await devices.painkiller()
        let desktop = devices.desktop
        await desktop.advance(by: 5)
        try await devices.syncsEnded()
        let runs = devices.runner.runs.count
        // Fails: said in the reply; allowed on what the desktop has.
        let failing = Task { try await desktop.call(Reminders.Done.self, .init(reminder: "Ibuprofen")) }
        try await devices.settled { devices.runner.runs.count == runs + 1 }
        devices.runner.finish(.exited(1))
        let failed = try await failing.value
        #expect(failed.unsynced?.contains("exit") == true && failed.unsynced?.contains("decided on the doses this device has") == true, "\(String(describing: failed.unsynced))")
        try await devices.settled { await !desktop.current.syncRunning() }
    }

    @Test func aSyncThatHangsDelaysTheDecisionByTheBoundAndIsSaid() async throws {
        let devices = try await Devices(syncWait: .milliseconds(300))
        try await devices.painkiller()
        let desktop = devices.desktop
        await desktop.advance(by: 5)
        try await devices.syncsEnded()
        // The reply comes after the bound, and says so; the limits still count the dose logged here.
        await desktop.advance(to: instant("2026-12-01T13:00:00Z"))
        let hung = try await desktop.call(Reminders.Log.self, .init(reminder: "Ibuprofen"))
        #expect(hung.unsynced?.contains("did not end within") == true, "\(String(describing: hung.unsynced))")
        await desktop.advance(to: instant("2026-12-01T13:01:00Z"))
        let refused = try await #require(throws: VarlinkError.self) { try await desktop.call(Reminders.Log.self, .init(reminder: "Ibuprofen")) }
        #expect(refused.name == "io.remindd.Reminders.DoseNotAllowed")
        #expect("\(refused)".contains("not synced"), "\(refused)")
        try await devices.syncsEnded()
        // Forced, or a reminder without limits: no sync is waited for (and nothing said).
        try await desktop.add("Vitamin D", ["daily": true, "at": "08:00"])
        try await devices.syncsEnded()
        let before = devices.runner.runs.count
        _ = try await desktop.call(Reminders.Log.self, .init(reminder: "Ibuprofen", force: true))
        let plain = try await desktop.call(Reminders.Log.self, .init(reminder: "Vitamin D"))
        #expect(devices.runner.runs.count == before && plain.unsynced == nil)
    }
}
