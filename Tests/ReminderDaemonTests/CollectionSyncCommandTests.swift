import Foundation
import ReminderCore
import ReminderInterface
import Testing

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// The collection's `sync-command` on a manual clock: run shortly after a local change (changes meanwhile go
/// in the same run), one at a time, before an announced occurrence is repeated or decided (at most once a
/// minute); a failure is reported once; a sync that hangs delays no firing.
@Suite("Sync command")
struct CollectionSyncCommandTests {
    private func daemon(_ runner: RecordingCommandRunner, interval: Int64? = DaemonConfiguration.defaultSyncIntervalSeconds) async throws -> (TestDaemon, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-sync-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var configuration = DaemonConfiguration()
        configuration.collection = folder
        configuration.syncCommand = ["/usr/bin/vdirsyncer", "sync", "remindd"]
        configuration.syncIntervalSeconds = interval
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "Europe/Berlin", configuration: configuration, commands: runner)
        runner.attach(daemon.clock)
        return (daemon, folder)
    }

    /// Waits (briefly, in real time) for the service to take a finished run in: it comes back on another thread.
    private func settled(_ condition: () async -> Bool) async throws {
        for _ in 0..<1000 where !(await condition()) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await condition(), "not settled after 10 s")
    }

    @Test func aBurstOfChangesIsOneRunTwoSecondsAfterTheFirstAndAChangeDuringARunIsOneMoreAfterIt() async throws {
        let runner = RecordingCommandRunner()
        let (daemon, folder) = try await daemon(runner)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await daemon.advance(by: 5)  // the start published the rest check-in: one run
        #expect(runner.runs.count == 1)
        runner.finish(.exited(0))
        try await settled { await !daemon.current.syncRunning() }
        let before = runner.runs.count
        for name in ["A", "B", "C"] { try await daemon.add(name, ["daily": true, "at": "08:00"]) }
        #expect(runner.runs.count == before)
        await daemon.advance(by: 2)
        #expect(runner.runs.count == before + 1)
        #expect(runner.runs.last?.arguments == ["/usr/bin/vdirsyncer", "sync", "remindd"])
        #expect(runner.runs.last?.timeLimitMilliseconds == 120_000)
        #expect(runner.runs.last?.at == daemon.clock.now())

        try await daemon.add("D", ["daily": true, "at": "09:00"])
        await daemon.advance(by: 3)
        #expect(runner.runs.count == before + 1)  // one at a time
        runner.finish(.exited(0))
        try await settled { await !daemon.current.syncRunning() }
        await daemon.advance(by: 1)
        #expect(runner.runs.count == before + 2)  // the change made meanwhile
    }

    /// A dose logged on another device came here only when something here synced (533 s once): `sync-interval`
    /// (5 minutes by default) runs it after the last run ended; "off" does not.
    @Test func withNothingChangingTheSyncRunsEveryIntervalAndNotWhenOff() async throws {
        let runner = RecordingCommandRunner()
        let (daemon, folder) = try await daemon(runner)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await daemon.advance(by: 5)
        #expect(runner.runs.count == 1)
        runner.finish(.exited(0))
        try await settled { await !daemon.current.syncRunning() }
        let ended = daemon.clock.now()
        await daemon.advance(to: ended.adding(seconds: 299))
        #expect(runner.runs.count == 1)
        await daemon.advance(to: ended.adding(seconds: 300))
        #expect(runner.runs.count == 2 && runner.runs.last?.at == ended.adding(seconds: 300))
        runner.finish(.exited(1))  // a failed run: the next after the interval all the same
        try await settled { await !daemon.current.syncRunning() }
        await daemon.advance(by: 300)
        #expect(runner.runs.count == 3)

        let quiet = RecordingCommandRunner()
        let (off, offFolder) = try await self.daemon(quiet, interval: nil)
        defer { try? FileManager.default.removeItem(atPath: offFolder) }
        await off.advance(by: 5)
        quiet.finish(.exited(0))
        try await settled { await !off.current.syncRunning() }
        await off.advance(by: 3600)
        #expect(quiet.runs.count == 1)
    }

    @Test func aFailingSyncIsReportedOnceAndAHangingOneDelaysNoFiring() async throws {
        let runner = RecordingCommandRunner()
        let (daemon, folder) = try await daemon(runner)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await daemon.advance(by: 5)
        while runner.finish(.exited(1)) {}
        try await settled { await !daemon.current.syncRunning() }
        try await daemon.add("A", ["daily": true, "at": "08:00"])
        await daemon.advance(by: 3)
        runner.finish(.exited(1))
        try await settled { await !daemon.current.syncRunning() }
        try await daemon.add("B", ["daily": true, "at": "08:00"])
        await daemon.advance(by: 3)
        runner.finish(.killedAtTimeLimit)
        try await settled { await !daemon.current.syncRunning() }
        #expect(runner.runs.count == 3)
        let failures = daemon.announcer.messages.filter { $0.hasPrefix("Sync command") }
        #expect(failures.count == 1, "\(failures)")
        #expect(failures.first?.contains("/usr/bin/vdirsyncer sync remindd exited with status 1; reminders fire from what this device has") == true)

        // Hanging: never finished. The firing is on time all the same.
        try await daemon.add("C", ["daily": true, "at": "08:00"])
        await daemon.advance(to: instant("2026-12-01T07:00:00Z"))
        #expect(daemon.firings(of: "C").map(\.kind) == [.fired])
        #expect(daemon.firings(of: "C").first?.handledAt == instant("2026-12-01T07:00:00Z"))
    }

    @Test func aSyncRunsBeforeARepeatOrTheWindowEndAtMostOnceAMinute() async throws {
        let runner = RecordingCommandRunner()
        let (daemon, folder) = try await daemon(runner, interval: nil)  // only the runs before decisions
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin", ["window": "30m", "repeat": "10m"])
        await daemon.advance(by: 5)
        while runner.finish(.exited(0)) {}
        try await settled { await !daemon.current.syncRunning() }
        let before = runner.runs.count
        for minute in ["07:10", "07:20", "07:31"] {
            await daemon.advance(to: instant("2026-12-01T\(minute):00Z"))
            while runner.finish(.exited(0)) {}
            try await settled { await !daemon.current.syncRunning() }
        }
        // 45 s before each repeat (08:10, 08:20) and before the window's end (08:30).
        let times = runner.runs.dropFirst(before).map { ISO8601.format($0.at, offsetSeconds: 0, zulu: true) }
        #expect(times == ["2026-12-01T07:09:15Z", "2026-12-01T07:19:15Z", "2026-12-01T07:29:15Z"], "\(times)")
    }
}

/// #61 item 0: a dose ticked on the phone came here only with the next `sync-interval` run (296 s once): while
/// an announced dose waits, the sync runs every 30 s, then less often the longer it waits; once taken, the
/// interval again.
@Suite("Sync pace while a dose waits")
struct SyncPaceDaemonTests {
    @Test func anAnnouncedDoseIsSyncedEvery30SecondsThenLessOftenAndTakenTheIntervalAgain() async throws {
        let runner = RecordingCommandRunner()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-pace-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = DaemonConfiguration()
        configuration.collection = folder
        configuration.syncCommand = ["/usr/bin/vdirsyncer", "sync"]
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "Europe/Berlin", configuration: configuration, commands: runner)
        runner.attach(daemon.clock)
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin")
        func runsUntil(_ end: Instant) async throws -> [String] {
            let before = runner.runs.count
            while daemon.clock.now() < end {
                await daemon.advance(to: min(await daemon.current.nextSync() ?? end, end))
                while runner.finish(.exited(0)) {}
                for _ in 0..<1000 where await daemon.current.syncRunning() { try await Task.sleep(for: .milliseconds(10)) }
            }
            return runner.runs.dropFirst(before).map { ISO8601.format($0.at, offsetSeconds: 0, zulu: true) }
        }
        // Before the dose: the interval (5 minutes after the last run).
        let idle = try await runsUntil(instant("2026-12-01T07:00:00Z"))
        #expect(idle.count <= 13, "\(idle)")
        let first = try await runsUntil(instant("2026-12-01T07:05:00Z"))
        // The first within 30 s of the firing (2 s after it, for what the firing wrote), then every 30 s.
        #expect(first.first.map { instant($0).secondsSinceEpoch - instant("2026-12-01T07:00:00Z").secondsSinceEpoch }.map { (1...30).contains($0) } == true, "\(first)")
        #expect(first.count >= 10 && secondsBetween(Array(first.prefix(10))).allSatisfy { $0 == 30 }, "\(first)")
        // After 20 minutes waiting, about every 2 minutes.
        let later = try await runsUntil(instant("2026-12-01T07:30:00Z"))
        let gaps = secondsBetween(later)
        #expect(gaps.suffix(3).allSatisfy { (120...180).contains($0) }, "\(later)")
        // Taken: the next run is the interval's.
        _ = try await daemon.call(Reminders.Log.self, .init(reminder: "Pills"))
        let taken = try await runsUntil(instant("2026-12-01T07:45:00Z"))
        let takenGaps = secondsBetween(taken)
        #expect(!takenGaps.isEmpty && takenGaps.allSatisfy { $0 == 300 }, "\(taken)")
    }

    private func secondsBetween(_ times: [String]) -> [Int64] {
        zip(times.dropFirst(), times).map { (later: String, earlier: String) -> Int64 in
            instant(later).secondsSinceEpoch - instant(earlier).secondsSinceEpoch
        }
    }
}
