import Foundation
import ReminderCore
import ReminderScheduling
import Synchronization
import SystemdSupport
import Testing

@testable import ReminderDaemon

/// Command hooks run for real, as children (the transient units of a user manager are run by
/// `Tests/e2e/test_systemd_user.py`): a script that writes its environment, one that hangs, one that cannot
/// run, one that leaves a process behind, one that prints megabytes, more than the queue holds.
/// The scripts run as `/bin/sh SCRIPT`: a script just written could still be open for writing in a child
/// another test forked meanwhile, and executing it directly would then fail with ETXTBSY.
/// Lines kept from any thread.
final class Lines: Sendable {
    private let lines = Mutex<[String]>([])
    func withLock<Result: Sendable>(_ body: (inout [String]) -> Result) -> Result { lines.withLock { body(&$0) } }
}

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
        let reminder = SchedulableReminder(id: 7, name: "Pills \"and\" $HOME", rule: rule, zone: zone, delivery: Delivery(hook: HookSettings(command: command)))
        let occurrence = rule.nextOccurrence(after: Instant(secondsSinceEpoch: 1_772_400_000), in: zone)!
        return FiringEvent(kind: .fired, firing: DueFiring(reminder: reminder, occurrence: occurrence, slotsDue: 1, lateSeconds: 0),
            handledAt: occurrence.instant.adding(seconds: 1))
    }

    /// An announcer whose hooks run as children; reports and output lines are kept.
    func hooks(
        onFire: [String]?, timeLimitMilliseconds: Int32 = 10_000, maximumRunning: Int = 4, maximumWaiting: Int = 2000,
        onReport: @escaping @Sendable () -> Void = {}
    ) -> (CommandHookAnnouncer, reports: Lines, output: Lines, commands: CommandQueue) {
        let reports = Lines()
        let output = Lines()
        let commands = CommandQueue(
            launcher: ChildProcessLauncher(), maximumRunning: maximumRunning, maximumWaiting: maximumWaiting,
            output: { line, _ in output.withLock { $0.append(line) } })
        let hooks = CommandHookAnnouncer(
            onFire: onFire, commands: commands, timeLimitMilliseconds: timeLimitMilliseconds,
            report: { message in
                onReport()
                reports.withLock { $0.append(message.text) }
            })
        return (hooks, reports, output, commands)
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
        let (hooks, reports, _, _) = hooks(onFire: ["/bin/sh", writer, directory + "/config.env"])
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
        let killedAt = Mutex<Date?>(nil)
        let sleeper = try script("sleep.sh", "echo $$ > \"$1\"; exec sleep 1000")
        let writer = try script("env.sh", "env > \"$1\"; echo END >> \"$1\"")
        let ownFile = directory + "/own.env"
        let pidFile = directory + "/sleeper.pid"
        let (hooks, reports, _, _) = hooks(onFire: ["/bin/sh", sleeper, pidFile], timeLimitMilliseconds: 5000) { killedAt.withLock { $0 = $0 ?? Date() } }
        hooks.announce(.firing(try firing(command: ["/bin/sh", writer, ownFile])))
        #expect(try await contents(of: ownFile).contains("REMINDER_ID=7"))
        for _ in 0..<400 where reports.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(50)) }
        // The second hook ran while the first still hung: it did not wait for the kill at the limit. (Its file's
        // time against the report's, not when this test saw it: a test's sleep may wake seconds late under load.)
        let written = try FileManager.default.attributesOfItem(atPath: ownFile)[.modificationDate] as? Date
        #expect(written.map { $0 < killedAt.withLock { $0 } ?? .distantPast } == true)
        #expect(reports.withLock { $0 } == ["Hook /bin/sh for Pills \"and\" $HOME was still running after 5 s and was killed"])
        // Killed with it: no `sleep 1000` is left behind.
        let pid = try #require(try await pid(in: pidFile))
        #expect(await gone(pid))
    }

    /// A hook killed at its limit takes along what it moved to a session of its own with `setsid` (a process-group
    /// kill missed it, and it ran on after remindd stopped).
    @Test func aHookKilledAtItsLimitTakesItsSetsidChildrenAlong() async throws {
        let pidFile = directory + "/setsid.pid"
        let starter = try script("setsid.sh", "setsid /bin/sh -c 'echo $$ > \"$0\"; exec sleep 1000' \"$1\" &\nexec sleep 1000")
        let (hooks, reports, _, _) = hooks(onFire: ["/bin/sh", starter, pidFile], timeLimitMilliseconds: 1000)
        hooks.announce(.firing(try firing(command: nil)))
        let pid = try #require(try await pid(in: pidFile))
        for _ in 0..<200 where reports.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(reports.withLock { $0 }.first?.contains("was still running after 1 s and was killed") == true)
        #expect(await gone(pid))
    }

    /// A hook that ends at once, leaving a child running in a session of its own (`setsid ... &`): the child
    /// goes when the hook ends (it ran on after remindd stopped, its parent gone and no group to kill).
    @Test func whatAHookLeavesRunningInASessionOfItsOwnGoesWhenItEnds() async throws {
        let pidFile = directory + "/left.pid"
        let starter = try script("leave.sh", "setsid /bin/sh -c 'echo $$ > \"$0\"; exec sleep 1000' \"$1\" &\nwhile [ ! -s \"$1\" ]; do sleep 0.05; done\nexit 0")
        let (hooks, reports, _, _) = hooks(onFire: ["/bin/sh", starter, pidFile], timeLimitMilliseconds: 60_000)
        hooks.announce(.firing(try firing(command: nil)))
        let pid = try #require(try await pid(in: pidFile))
        #expect(await gone(pid))
        #expect(reports.withLock { $0 }.isEmpty)
    }

    /// The sync command's output (vdirsyncer's line per item copied, every run) is logged only when a run fails,
    /// and not again while it keeps failing (said once); a hook's output always is.
    @Test(arguments: [(UserCommand.OutputLogging.onFailure, 0, false), (.onFailure, 1, true), (.never, 1, false), (.always, 0, true)])
    func aCommandsOutputIsLoggedAsItsPolicySays(_ logging: UserCommand.OutputLogging, status: Int, logged: Bool) async throws {
        let output = Lines()
        let commands = CommandQueue(launcher: ChildProcessLauncher(), maximumRunning: 1, maximumWaiting: 10, output: { line, _ in output.withLock { $0.append(line) } })
        let chatty = try script("chatty.sh", "echo 'Copying (uploading) item a'; echo 'Copying (uploading) item b'; exit \(status)")
        let ended = AsyncStream<CommandOutcome>.makeStream()
        commands.run(UserCommand(arguments: ["/bin/sh", chatty], environment: [], purpose: "sync command", timeLimitMilliseconds: 10_000, logsOutput: logging)) {
            ended.continuation.yield($0)
        }
        var outcomes = ended.stream.makeAsyncIterator()
        #expect(await outcomes.next() == .exited(Int32(status)))
        #expect(output.withLock { $0 } == (logged ? ["Copying (uploading) item a", "Copying (uploading) item b"] : []))
    }

    /// The pid a script wrote to `path` (waiting up to 10 s for it).
    func pid(in path: String) async throws -> Int32? {
        for _ in 0..<200 {
            // Not there yet, or half-written: look again.
            if let text = try? String(contentsOfFile: path, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return pid
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Whether process `pid` has ended within 10 s: no longer in /proc, or a zombie (dead, waiting for whoever
    /// adopted it to reap it). Read from /proc, not with pgrep: spawning pgrep hundreds of times under the
    /// whole suite's load was itself slow and flaky.
    func gone(_ pid: Int32) async -> Bool {
        for _ in 0..<200 {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }  // no file: gone
            if let close = stat.lastIndex(of: ")"), stat[close...].dropFirst(2).first.map({ "ZX".contains($0) }) == true { return true }
            try? await Task.sleep(for: .milliseconds(50))  // cancelled: the next look decides
        }
        return false
    }

    /// Outside a systemd unit no cgroup ends what the daemon started: it stops its hooks itself.
    @Test func hooksStillRunningWhenTheDaemonStopsAreKilled() async throws {
        let sleeper = try script("linger.sh", "echo $$ > \"$1\"; exec sleep 1000")
        let pidFile = directory + "/linger.pid"
        // A time limit the test never reaches: under the whole suite's load its waits took over 60 s, the limit it
        // had, and the command was reported killed at it instead.
        let (hooks, reports, _, commands) = hooks(onFire: ["/bin/sh", sleeper, pidFile], timeLimitMilliseconds: 3_600_000)
        hooks.announce(.firing(try firing(command: nil)))
        let pid = try #require(try await pid(in: pidFile))  // it runs
        commands.stopAll()
        for _ in 0..<200 where reports.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(reports.withLock { $0 } == ["Hook /bin/sh for Pills \"and\" $HOME was still running when remindd stopped and was killed"])
        #expect(await gone(pid))
    }

    /// A command that ended just before the daemon stops is reported before `stopAll` returns (the daemon then
    /// says it stopped): a sound that could not be played was said after "remindd stopped".
    @Test func whatACommandEndedJustBeforeTheStopSaysIsSaidBeforeStopAllReturns() async throws {
        let commands = CommandQueue(launcher: ChildProcessLauncher(), output: { _, _ in })
        let entered = DispatchSemaphore(value: 0)
        let said = Lines()
        commands.run(UserCommand(arguments: ["/bin/sh", "-c", "exit 1"], environment: [], purpose: "sound", timeLimitMilliseconds: 10_000)) { outcome in
            entered.signal()
            usleep(300_000)  // the report on its way while the daemon stops
            said.withLock { $0.append("\(outcome)") }
        }
        #expect(entered.wait(timeout: .now() + 10) == .success)
        commands.stopAll()
        #expect(said.withLock { $0 } == ["exited(1)"])
    }

    @Test func aHookThatCannotRunOrFailsIsReported() async throws {
        let plain = try script("plain.sh", "exit 0", executable: false)
        let failing = try script("fail.sh", "exit 3")
        let (hooks, reports, _, _) = hooks(onFire: [plain])
        hooks.announce(.firing(try firing(command: ["/bin/sh", failing])))
        for _ in 0..<200 where reports.withLock({ $0.count < 2 }) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(Set(reports.withLock { $0 }) == [
            "Hook \(plain) for Pills \"and\" $HOME could not start: Permission denied; check the path and that it is executable",
            "Hook /bin/sh for Pills \"and\" $HOME exited with status 3",
        ])
        #expect(HookCommand.problem([plain])?.contains("chmod +x") == true)
    }

    /// A hook that starts a background process and exits takes it along: nothing it started outlives it.
    @Test func whatAHookLeavesRunningEndsWithIt() async throws {
        let pidFile = directory + "/left-behind.pid"
        let starter = try script("background.sh", "/bin/sh -c 'echo $$ > \"$0\"; exec sleep 1000' \"$1\" &\nwhile [ ! -s \"$1\" ]; do sleep 0.01; done\necho started")
        let (hooks, reports, output, _) = hooks(onFire: ["/bin/sh", starter, pidFile])
        hooks.announce(.firing(try firing(command: nil)))
        for _ in 0..<200 where output.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(output.withLock { $0 } == ["started"])
        let pid = try #require(try await pid(in: pidFile))
        #expect(await gone(pid))
        #expect(reports.withLock { $0 }.isEmpty)
    }

    /// A hook that prints megabytes logs at most the limit, and one line saying how much was left out.
    @Test func aHooksOutputIsCapped() async throws {
        let talker = try script("talk.sh", "yes 'a line of output' | head -c 3000000")
        let (hooks, reports, output, _) = hooks(onFire: ["/bin/sh", talker])
        hooks.announce(.firing(try firing(command: nil)))
        for _ in 0..<400 where output.withLock({ $0.last?.contains("not logged") != true }) { try await Task.sleep(for: .milliseconds(50)) }
        let lines = output.withLock { $0 }
        #expect(lines.count == CommandQueue.outputLineLimit + 1)
        #expect(lines.dropLast().allSatisfy { $0 == "a line of output" })
        let logged = CommandQueue.outputLineLimit * 17
        #expect(lines.last == "hook /bin/sh for Pills \"and\" $HOME: \(3_000_000 - logged) more bytes of output not logged (at most 100 lines or 32 KiB of a run are)")
        #expect(reports.withLock { $0 }.isEmpty)
    }

    /// At most `maximumRunning` hooks run at once; beyond `maximumWaiting` waiting they are dropped, each reported.
    @Test func hooksAreBoundedAndWhatIsDroppedIsReported() async throws {
        let counter = try script(
            "count.sh", "mkdir \"$1/running-$$\"; ls \"$1\" | grep -c running- >> \"$1/counts\"; sleep 0.2; rmdir \"$1/running-$$\"; echo done")
        try FileManager.default.createDirectory(atPath: directory + "/runs", withIntermediateDirectories: true)
        let (hooks, reports, output, _) = hooks(onFire: ["/bin/sh", counter, directory + "/runs"], maximumRunning: 2, maximumWaiting: 5)
        let event = try firing(command: nil)
        for _ in 0..<12 { hooks.announce(.firing(event)) }
        for _ in 0..<200 where output.withLock({ $0.count }) + reports.withLock({ $0.count }) < 12 { try await Task.sleep(for: .milliseconds(50)) }
        let ran = output.withLock { $0.count }
        let dropped = reports.withLock { $0 }
        #expect(ran + dropped.count == 12)
        #expect(dropped.count >= 12 - 5 - 2)
        #expect(Set(dropped) == ["Hook /bin/sh for Pills \"and\" $HOME was not run: too many hooks were already waiting (5; 2 run at once)"])
        let counts = try String(contentsOfFile: directory + "/runs/counts", encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
        #expect(counts.count == ran && counts.max() ?? 0 <= 2)
    }
}
