import Foundation
import ReminderCore
import ReminderScheduling
import Synchronization
import SystemdSupport
import Testing

@testable import ReminderDaemon

/// Command hooks run for real: a script that writes its environment, one that hangs, one that cannot run.
/// The scripts run as `/bin/sh SCRIPT`: a script just written could still be open for writing in a child
/// another test forked meanwhile, and executing it directly would then fail with ETXTBSY.
@Suite("Command hooks")
struct CommandHookTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-hooks-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func script(_ name: String, _ body: String, executable: Bool = true) throws -> String {
        let path = directory + "/" + name
        try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: executable ? 0o755 : 0o644], ofItemAtPath: path)
        return path
    }

    func firing(command: [String]?) throws -> FiringEvent {
        let zone = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        let rule = try RuleSpec(daily: true, at: "08:00").makeRule()
        let reminder = SchedulableReminder(id: 7, name: "Pills \"and\" $HOME", rule: rule, zone: zone, delivery: Delivery(command: command))
        let occurrence = rule.nextOccurrence(after: Instant(secondsSinceEpoch: 1_772_400_000), in: zone)!
        return FiringEvent(kind: .fired, firing: DueFiring(reminder: reminder, occurrence: occurrence, slotsDue: 1, lateSeconds: 0),
            handledAt: occurrence.instant.adding(seconds: 1))
    }

    /// Waits (up to 10 s) for a file to have content.
    func contents(of path: String) async throws -> String {
        for _ in 0..<200 {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasSuffix("END\n") { return text }
            try await Task.sleep(for: .milliseconds(50))
        }
        return ""
    }

    @Test func bothHooksRunWithTheReminderInTheirEnvironmentAndNoShell() async throws {
        let writer = try script("env.sh", "env > \"$1\"; echo END >> \"$1\"")
        let reports = Mutex<[String]>([])
        let hooks = CommandHookAnnouncer(
            onFire: ["/bin/sh", writer, directory + "/config.env"], journal: Journal(identifier: "remindd-test", socketPath: "/nonexistent"),
            report: { message in reports.withLock { $0.append(message.text) } })
        let event = try firing(command: ["/bin/sh", writer, directory + "/own.env"])
        hooks.announce(.firing(event))
        for file in ["config.env", "own.env"] {
            let lines = Set(try await contents(of: directory + "/" + file).split(separator: "\n").map(String.init))
            #expect(lines.isSuperset(of: [
                "REMINDER_ID=7", "REMINDER_NAME=Pills \"and\" $HOME", "REMINDER_SLOT=\(event.firing.slotID)",
                "SCHEDULED_UTC=\(event.firing.occurrence.instant)", "FIRED_UTC=\(event.handledAt)", "REMINDER_STATE=due",
            ]), "\(file)")
        }
        #expect(reports.withLock { $0 }.isEmpty)
    }

    @Test func aHangingHookIsKilledAtItsLimitWithoutHoldingUpAnother() async throws {
        let sleeper = try script("sleep.sh", "sleep 1000")
        let writer = try script("env.sh", "env > \"$1\"; echo END >> \"$1\"")
        let reports = Mutex<[String]>([])
        /// Whether the second hook had written its file when the first was killed.
        let secondHadRun = Mutex<Bool?>(nil)
        let ownFile = directory + "/own.env"
        let hooks = CommandHookAnnouncer(
            onFire: ["/bin/sh", sleeper], journal: Journal(identifier: "remindd-test", socketPath: "/nonexistent"), timeLimitMilliseconds: 5000,
            report: { message in
                secondHadRun.withLock { $0 = $0 ?? FileManager.default.fileExists(atPath: ownFile) }
                reports.withLock { $0.append(message.text) }
            })
        hooks.announce(.firing(try firing(command: ["/bin/sh", writer, ownFile])))
        #expect(try await contents(of: ownFile).contains("REMINDER_ID=7"))
        for _ in 0..<400 where reports.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(50)) }
        // The second hook ran while the first still hung: it did not wait for the kill at the limit.
        #expect(secondHadRun.withLock { $0 } == true)
        #expect(reports.withLock { $0 } == ["Hook /bin/sh for Pills \"and\" $HOME was still running after 5 s and was killed"])
        // The whole group went: no `sleep 1000` is left behind.
        #expect(try running(sleeper) == false)
    }

    /// Whether a process whose command line contains `text` runs.
    func running(_ text: String) throws -> Bool {
        let pgrep = Process()
        pgrep.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        pgrep.arguments = ["-f", text]
        pgrep.standardOutput = FileHandle.nullDevice
        try pgrep.run()
        pgrep.waitUntilExit()
        return pgrep.terminationStatus == 0
    }

    /// Outside a systemd unit no cgroup ends what the daemon started: it stops its hooks itself.
    @Test func hooksStillRunningWhenTheDaemonStopsAreKilled() async throws {
        let sleeper = try script("linger.sh", "sleep 1000")
        let reports = Mutex<[String]>([])
        let hooks = CommandHookAnnouncer(
            onFire: ["/bin/sh", sleeper], journal: Journal(identifier: "remindd-test", socketPath: "/nonexistent"), timeLimitMilliseconds: 60_000,
            report: { message in reports.withLock { $0.append(message.text) } })
        hooks.announce(.firing(try firing(command: nil)))
        for _ in 0..<200 where try running(sleeper) == false { try await Task.sleep(for: .milliseconds(50)) }
        #expect(try running(sleeper))
        hooks.stopRunning()
        for _ in 0..<200 where reports.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(reports.withLock { $0 } == ["Hook /bin/sh for Pills \"and\" $HOME was still running when remindd stopped and was killed"])
        #expect(try running(sleeper) == false)
    }

    @Test func aHookThatCannotRunOrFailsIsReported() async throws {
        let plain = try script("plain.sh", "exit 0", executable: false)
        let failing = try script("fail.sh", "exit 3")
        let reports = Mutex<[String]>([])
        let hooks = CommandHookAnnouncer(
            onFire: [plain], journal: Journal(identifier: "remindd-test", socketPath: "/nonexistent"),
            report: { message in reports.withLock { $0.append(message.text) } })
        hooks.announce(.firing(try firing(command: ["/bin/sh", failing])))
        for _ in 0..<200 where reports.withLock({ $0.count < 2 }) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(Set(reports.withLock { $0 }) == [
            "Hook \(plain) for Pills \"and\" $HOME could not start: Permission denied; check the path and that it is executable",
            "Hook /bin/sh for Pills \"and\" $HOME exited with status 3",
        ])
        #expect(HookCommand.problem([plain])?.contains("chmod +x") == true)
    }
}
