import Foundation
import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import SystemdSupport
import Testing
import Translation
import VarlinkProtocol

@testable import ReminderDaemon

/// A missed dose told to someone else: the config's `on-missed` and the reminder's `--escalate-exec` run once
/// per missed occurrence (not for one taken or skipped), also when it was decided at start for a window that
/// closed while the daemon was down, with the reminder, its dose, the scheduled time and the state in the
/// environment.
@Suite("Medication: escalation")
struct EscalationTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-escalate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// A script that writes its environment to `$1-$REMINDER_ID-$SCHEDULED_UTC-PID.env` (one file per run).
    private func writer() throws -> String {
        let path = directory + "/writer.sh"
        try "#!/bin/sh\nf=\"$1-$REMINDER_ID-$SCHEDULED_UTC-$$.env\"\nenv > \"$f.tmp\"; mv \"$f.tmp\" \"$f\"\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// The environments the commands wrote, by file name: once `count` files are there (at most 10 s), and a
    /// moment more for any run too many.
    private func written(count: Int) async throws -> [String: [String: String]] {
        func read() throws -> [String: [String: String]] {
            var found: [String: [String: String]] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasSuffix(".env") {
                let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
                found[name] = Dictionary(text.split(separator: "\n").compactMap { line in
                    line.firstIndex(of: "=").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
                }, uniquingKeysWith: { $1 })
            }
            return found
        }
        for _ in 0..<200 where try read().count < count { try await Task.sleep(for: .milliseconds(50)) }
        try await Task.sleep(for: .milliseconds(300))
        return try read()
    }

    @Test func aMissedDoseRunsOnMissedAndTheRemindersEscalationOnceAndATakenOneRunsNothing() async throws {
        let script = try writer()
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "Europe/Berlin")
        let pills = try await daemon.add("Pills", ["daily": true, "at": "08:00,20:00"], [
            "window": "1h", "dose": "2", "unit": "tablet", "escalateCommand": .array([.string(script), .string(directory + "/own")]),
        ])
        #expect(pills.delivery.escalation.command == [script, directory + "/own"])
        let commands = CommandQueue(launcher: ChildProcessLauncher(), maximumRunning: 4, maximumWaiting: 100, output: { _, _ in })
        let hooks = CommandHookAnnouncer(onFire: nil, onMissed: [script, directory + "/config"], commands: commands, report: { _ in })
        func runHooks() { for event in daemon.announcer.events { hooks.announce(event) } }

        // Tuesday: 08:00 missed (its window closed at 09:00); 20:00 taken.
        await daemon.advance(to: instant("2026-12-01T08:00:30Z"))
        await daemon.advance(to: instant("2026-12-01T19:00:10Z"))
        _ = try await daemon.call(Reminders.Done.self, .init(reminder: "Pills"))
        await daemon.advance(to: instant("2026-12-02T06:30:00Z"))
        // Wednesday: down from 07:30 to 10:00 local, across the 08:00 dose and its window: decided at start.
        daemon.clock.set(instant("2026-12-02T09:00:00Z"))
        try await daemon.restart()
        try await daemon.restart()  // and again: not decided twice
        await daemon.advance(to: instant("2026-12-02T09:30:00Z"))

        let missed = daemon.announcer.occurrences.filter { $0.state == .missed }
        #expect(missed.map(\.firing.occurrence.instant) == [instant("2026-12-01T07:00:00Z"), instant("2026-12-02T07:00:00Z")])
        runHooks()
        let written = try await written(count: 2 * missed.count)
        // Each missed occurrence: the config's command and the reminder's, once each; nothing for the taken one.
        let runs = Dictionary(grouping: written.keys) { String($0[..<$0.lastIndex(of: "-")!]) }.mapValues(\.count)
        let expected = missed.flatMap { event in ["config", "own"].map { "\($0)-\(pills.id)-\(event.firing.occurrence.instant)" } }
        #expect(runs == Dictionary(uniqueKeysWithValues: expected.map { ($0, 1) }))
        for (index, event) in missed.enumerated() {
            let prefix = "own-\(pills.id)-\(event.firing.occurrence.instant)-"
            let env = try #require(written.first { $0.key.hasPrefix(prefix) }?.value)
            #expect(env["REMINDER_STATE"] == "missed" && env["REMINDER_NAME"] == "Pills" && env["REMINDER_SLOT"] == event.firing.slotID)
            #expect(env["REMINDER_DOSE"] == "2" && env["REMINDER_UNIT"] == "tablet")
            #expect(env["WINDOW_END_UTC"] == event.windowEnd.description)
            #expect(env["REMINDER_DECIDED_LATE"] == (index == 0 ? "0" : "1"))  // Wednesday's was decided at start
            #expect(env["REMINDER_MESSAGE"]?.hasPrefix("Missed: Pills, 2 tablets (daily, ") == true)
        }
        commands.stopAll()
    }

    @Test func anOccurrenceNotTakenByItsDelayIsEscalatedOnceAcrossRestartsAndNotAgainWhenMissed() async throws {
        let script = try writer()
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        let pills = try await daemon.add("Pills", ["daily": true, "at": "08:00,20:00"], [
            "window": "2h", "dose": "1", "unit": "tablet", "escalateCommand": .array([.string(script), .string(directory + "/own")]),
            "escalateAfter": "30m",
        ])
        #expect(pills.delivery.escalation.afterSeconds == 1800)
        let commands = CommandQueue(launcher: ChildProcessLauncher(), maximumRunning: 4, maximumWaiting: 100, output: { _, _ in })
        let hooks = CommandHookAnnouncer(onFire: nil, onMissed: [script, directory + "/config"], commands: commands, report: { _ in })
        func escalations() -> [EscalationEvent] { daemon.announcer.events.compactMap { if case .escalation(let e) = $0 { e } else { nil } } }

        // Tuesday 08:00: not taken. Nothing at 08:29:59; escalated at 08:30; not again after two restarts.
        await daemon.advance(to: instant("2026-12-01T08:00:05Z"))
        await daemon.advance(to: instant("2026-12-01T08:29:59Z"))
        #expect(escalations().isEmpty)
        await daemon.advance(to: instant("2026-12-01T08:30:00Z"))
        #expect(escalations().map(\.at) == [instant("2026-12-01T08:30:00Z")])
        daemon.clock.set(instant("2026-12-01T08:45:00Z"))
        try await daemon.restart()
        try await daemon.restart()
        // Its window closes at 10:00: missed, and only the config's on-missed runs then (the reminder's ran).
        await daemon.advance(to: instant("2026-12-01T10:00:01Z"))
        #expect(escalations().count == 1)
        let missed = daemon.announcer.occurrences.filter { $0.state == .missed }
        #expect(missed.map(\.escalated) == [true])
        // Tuesday 20:00: taken at 20:10, so neither escalated at 20:30 nor missed.
        await daemon.advance(to: instant("2026-12-01T20:10:00Z"))
        _ = try await daemon.call(Reminders.Done.self, .init(reminder: "Pills"))
        await daemon.advance(to: instant("2026-12-01T22:00:01Z"))
        #expect(escalations().count == 1)
        // Wednesday 08:00: the daemon is down from 08:20 to 08:40, across the delay's end: escalated at start,
        // marked late; then taken at 08:50, so not missed.
        await daemon.advance(to: instant("2026-12-02T08:20:00Z"))
        daemon.clock.set(instant("2026-12-02T08:40:00Z"))
        try await daemon.restart()
        await daemon.advance(to: instant("2026-12-02T08:50:00Z"))
        _ = try await daemon.call(Reminders.Done.self, .init(reminder: "Pills"))
        await daemon.advance(to: instant("2026-12-02T10:00:01Z"))
        let all = escalations()
        #expect(all.map(\.at) == [instant("2026-12-01T08:30:00Z"), instant("2026-12-02T08:40:00Z")])
        #expect(all.map(\.late) == [false, true])
        #expect(daemon.announcer.occurrences.filter { $0.state == .missed }.count == 1)

        // The commands: the reminder's twice (each escalation, state overdue), the config's once (the missed note).
        for event in daemon.announcer.events { hooks.announce(event) }
        let written = try await written(count: 3)
        let runs = Dictionary(grouping: written.keys) { String($0[..<$0.lastIndex(of: "-")!]) }.mapValues(\.count)
        let tuesday = instant("2026-12-01T08:00:00Z"), wednesday = instant("2026-12-02T08:00:00Z")
        #expect(runs == ["own-\(pills.id)-\(tuesday)": 1, "own-\(pills.id)-\(wednesday)": 1, "config-\(pills.id)-\(tuesday)": 1])
        let late = try #require(written.first { $0.key.hasPrefix("own-\(pills.id)-\(wednesday)-") }?.value)
        #expect(late["REMINDER_STATE"] == "overdue" && late["REMINDER_ESCALATED_LATE"] == "1" && late["ESCALATED_UTC"] == "2026-12-02T08:40:00Z")
        #expect(late["REMINDER_DOSE"] == "1" && late["REMINDER_MESSAGE"]?.hasPrefix("Not taken 30m after its time: Pills, 1 tablet") == true)
        let entry = JournalAnnouncer.entry(for: .escalation(all[1]), in: english)
        let fields = Dictionary(uniqueKeysWithValues: entry.fields.map { ($0.name, $0.value) })
        #expect(fields["MESSAGE_ID"] == MessageID.escalated && fields["REMINDER_ESCALATED_LATE"] == "1" && entry.priority == .warning)
        commands.stopAll()
    }

    /// An escalation is noted before its command runs and confirmed after, as a firing is: a kill after it was
    /// noted but before it went out escalates at the next start, once; a kill after it went out but before its
    /// confirmation escalates nothing again (the journal has it). Over 30 kill cycles an escalation command ran
    /// twice when it was noted only after it ran.
    @Test(arguments: [true, false])
    func aKillAroundAnEscalationRunsItOnce(announcedBeforeTheKill: Bool) async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], [
            "window": "2h", "escalateCommand": .array(["/bin/true"]), "escalateAfter": "30m",
        ])
        await daemon.advance(to: instant("2026-12-01T08:29:00Z"))
        daemon.announcer.dropsAnnouncements = !announcedBeforeTheKill
        try daemon.setConfirmationsFail(true)
        await daemon.advance(to: instant("2026-12-01T08:30:00Z"))
        daemon.announcer.dropsAnnouncements = false
        try daemon.setConfirmationsFail(false)
        #expect(daemon.announcer.escalations.count == (announcedBeforeTheKill ? 1 : 0))
        daemon.clock.set(instant("2026-12-01T08:31:00Z"))
        try await daemon.restart()
        try await daemon.restart()
        await daemon.advance(to: instant("2026-12-01T10:00:01Z"))
        let escalations = daemon.announcer.escalations
        #expect(escalations.count == 1)
        #expect(escalations.first?.at == instant("2026-12-01T08:30:00Z") && escalations.first?.record != nil)
        #expect(daemon.announcer.occurrences.filter { $0.state == .missed }.map(\.escalated) == [true])
    }

    @Test func anEscalationDelayIsRefusedWithoutACommandOrPastTheWindow() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"))
        let script = try writer()
        func refusal(_ fields: [String: JSONValue]) async -> String? {
            do {
                _ = try await daemon.add("Pills", ["daily": true, "at": "08:00"], fields)
                return nil
            } catch {
                return (error as? VarlinkError)?.string("message")
            }
        }
        #expect(await refusal(["escalateAfter": "30m"])?.contains("add --escalate-exec") == true)
        #expect(await refusal(["escalateAfter": "half an hour", "escalateCommand": .array([.string(script)])])?.contains("such as") == true)
        #expect(await refusal(["escalateAfter": "2h", "window": "1h", "escalateCommand": .array([.string(script)])])?
            .contains("--escalate-after 2h is not before the window's end (1h)") == true)
        #expect(try await daemon.call(Reminders.List.self, .init()).reminders.allSatisfy { $0.name != "Pills" }, "nothing added")
        _ = try await daemon.add("Pills", ["daily": true, "at": "08:00"], ["window": "2h", "escalateCommand": .array([.string(script)]), "escalateAfter": "1h"])
        await #expect { _ = try await daemon.call(Reminders.Update.self, .init(reminder: "Pills", window: "1h")) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains("not before the window's end") == true
        }
        let cleared = try await daemon.call(Reminders.Update.self, .init(reminder: "Pills", delivery: .init(escalation: .init(escalateCommand: []))))
        #expect(cleared.reminder.delivery.escalation.command == nil && cleared.reminder.delivery.escalation.afterSeconds == nil && cleared.reminder.windowSeconds == 7200)
    }

    @Test func aBadEscalationCommandIsRefusedWithWhatToWrite() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"))
        await #expect { try await daemon.add("Pills", ["daily": true, "at": "08:00"], ["escalateCommand": .array(["mail-carer"])]) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains("not an absolute path") == true
        }
        #expect(try await daemon.call(Reminders.List.self, .init()).reminders.allSatisfy { $0.name != "Pills" })
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("on-missed = \"/bin/mail\"\n", file: "config.toml") }
        #expect(try DaemonConfiguration.parse("on-missed = [\"/bin/true\", \"x\"]\n", file: "config.toml").onMissed == ["/bin/true", "x"])
    }
}

/// The messages as the tables write them.
private let english = UntranslatedCatalog()
