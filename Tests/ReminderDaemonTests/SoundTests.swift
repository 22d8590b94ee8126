import Foundation
import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import VarlinkProtocol
import ReminderScheduling
import Synchronization
import SystemdSupport
import Testing
import Translation

@testable import ReminderDaemon

/// Which sound an announcement plays, through which player, and when none is: decided by ``SoundAnnouncer``
/// with the command runner recorded (the real sound server's recording is `Tests/e2e/test_sound.py`).
@Suite("Sounds")
struct SoundTests {
    let themes: String

    init() throws {
        themes = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-sounds-\(UUID().uuidString)").path
        let stereo = themes + "/freedesktop/stereo"
        try FileManager.default.createDirectory(atPath: stereo, withIntermediateDirectories: true)
        for name in ["alarm-clock-elapsed", "message-new-instant", "bell"] {
            try Data("OggS".utf8).write(to: URL(fileURLWithPath: "\(stereo)/\(name).oga"))
        }
    }

    func firing(_ name: String, _ delivery: Delivery, kind: FiringEvent.Kind = .fired) throws -> DaemonEvent {
        .firing(try firingEvent(name, delivery, kind: kind))
    }

    /// The firing itself, to change before it is announced (a test that matched it out of a ``DaemonEvent`` with
    /// `guard ... else { return }` passed without checking anything when it did not match).
    func firingEvent(_ name: String, _ delivery: Delivery, kind: FiringEvent.Kind = .fired) throws -> FiringEvent {
        let zone = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        let rule = try RuleSpec(daily: true, at: "08:00").makeRule()
        let reminder = SchedulableReminder(id: 7, name: name, rule: rule, zone: zone, delivery: delivery)
        let occurrence = try #require(rule.nextOccurrence(after: Instant(secondsSinceEpoch: 1_772_400_000), in: zone))
        return FiringEvent(kind: kind, firing: DueFiring(reminder: reminder, occurrence: occurrence, slotsDue: 1, lateSeconds: 0),
            handledAt: occurrence.instant.adding(seconds: 1))
    }

    func announcer(
        program: String = "/usr/bin/paplay", defaults: SoundAnnouncer.Defaults = .init(),
        speaker: Speaker? = Speaker(program: "/usr/bin/spd-say", language: "de", environment: [])
    ) -> (SoundAnnouncer, RecordingCommandRunner, Lines) {
        let runner = RecordingCommandRunner()
        let reports = Lines()
        let player = SoundPlayer(program: program, themeFolders: ["/nonexistent", themes], environment: ["PULSE_SERVER=unix:/run/test/native"])
        let sounds = SoundAnnouncer(
            player: player, speaker: speaker, defaults: defaults, words: english, commands: runner, report: { message in reports.withLock { $0.append(message.text) } })
        return (sounds, runner, reports)
    }

    static let dose = Delivery(medication: MedicationSettings(dose: Dose(thousandths: 500_000, unit: "mg")))

    @Test func aDosePlaysTheAlarmAndAnyOtherReminderTheMessageSound() throws {
        let (sounds, runner, _) = announcer()
        sounds.announce(try firing("Metformin", Self.dose))
        #expect(runner.runs.map(\.arguments) == [["/usr/bin/paplay", themes + "/freedesktop/stereo/alarm-clock-elapsed.oga"]])
        runner.finish(.exited(0))
        sounds.announce(try firing("Water", Delivery()))
        #expect(runner.runs.last?.arguments == ["/usr/bin/paplay", themes + "/freedesktop/stereo/message-new-instant.oga"])
        runner.finish(.exited(0))
        #expect(sounds.playsSounds)
    }

    @Test func aRepeatPlaysAgainAndWhatIsNotAnnouncedPlaysNothing() throws {
        let (sounds, runner, _) = announcer()
        for kind in [FiringEvent.Kind.fired, .repeated, .snoozed, .late] {
            sounds.announce(try firing("Metformin", Self.dose, kind: kind))
            runner.finish(.exited(0))
        }
        #expect(runner.runs.count == 4)
        sounds.announce(try firing("Metformin", Self.dose, kind: .suppressed))
        #expect(runner.runs.count == 4)
    }

    @Test func aReminderChoosesItsOwnSoundOrNoneAndTheConfigChoosesTheDefaults() throws {
        let (sounds, runner, _) = announcer(defaults: .init(dose: .named("bell"), reminder: .none))
        sounds.announce(try firing("Water", Delivery()))
        #expect(runner.runs.isEmpty, "reminder-sound = none")
        sounds.announce(try firing("Metformin", Self.dose))
        #expect(runner.runs.last?.arguments.last == themes + "/freedesktop/stereo/bell.oga")
        runner.finish(.exited(0))
        var silent = Self.dose
        silent.notification.sound = Sound.none
        sounds.announce(try firing("Metformin", silent))
        var file = Delivery()
        file.notification.sound = .file("/home/me/alarm.wav")
        sounds.announce(try firing("Water", file))
        #expect(runner.runs.map { $0.arguments.last } == [themes + "/freedesktop/stereo/bell.oga", "/home/me/alarm.wav"])
        sounds.setDefaults(.init())
        runner.finish(.exited(0))
        sounds.announce(try firing("Water", Delivery()))
        #expect(runner.runs.last?.arguments.last == themes + "/freedesktop/stereo/message-new-instant.oga")
    }

    /// A firing announced during quiet hours, quietly: no sound (the journal and hooks as always).
    @Test func aQuietFiringPlaysNothing() throws {
        let (sounds, runner, _) = announcer()
        var event = try firingEvent("Water", Delivery())
        event.quiet = true
        sounds.announce(.firing(event))
        #expect(runner.runs.isEmpty)
    }

    /// config.toml's quiet-hours, on the manual clock in the followed zone: a reminder without a dose is
    /// announced quietly (the journal says so), a dose is not, and `--quiet-hours` turns either around.
    @Test func quietHoursQuietWhatTheySayInTheFollowedZone() async throws {
        var configuration = DaemonConfiguration()
        configuration.quietHours = QuietHours("22:00-07:00")
        let daemon = try await TestDaemon(now: Instant(secondsSinceEpoch: 1_772_400_000), systemZone: "Europe/Berlin", configuration: configuration)
        for (name, flags) in [("Water", [:]), ("Pills", ["dose": "1", "unit": "tablet"]), ("Stretch", ["quietHours": "ignore"]),
                              ("Vitamin", ["dose": "1", "unit": "tablet", "quietHours": "respect"])] as [(String, [String: JSONValue])] {
            try await daemon.call("Add", ["name": .string(name), "rule": .object(["daily": true, "at": "23:30"])].merging(flags) { $1 })
            try await daemon.call("Add", ["name": .string(name + " morning"), "rule": .object(["daily": true, "at": "07:00"])].merging(flags) { $1 })
        }
        await daemon.advance(by: 2 * 86400)
        let quiet = { (name: String) in daemon.announcer.firings.filter { $0.firing.reminder.name == name }.map(\.quiet) }
        #expect(quiet("Water").first == true && quiet("Pills").first == false)
        #expect(quiet("Stretch").first == false && quiet("Vitamin").first == true)
        #expect(quiet("Water morning").first == false, "07:00 Berlin is past the end")
        let entry = JournalAnnouncer.entry(for: .firing(try #require(daemon.announcer.firings.first { $0.firing.reminder.name == "Water" })), in: english)
        #expect(entry.message.hasSuffix("(quiet hours: no sound)") && entry.fields.contains { $0.name == "REMINDER_QUIET" && $0.value == "1" })
    }

    /// A burst of 10,000 firings is heard as one sound, not queued 10,000 times; the next announcement after it
    /// ended plays again.
    @Test func aBurstPlaysOneSoundAtATime() throws {
        let (sounds, runner, _) = announcer()
        let event = try firing("Metformin", Self.dose)
        for _ in 0..<10_000 { sounds.announce(event) }
        #expect(runner.runs.count == 1)
        runner.finish(.exited(0))
        sounds.announce(event)
        #expect(runner.runs.count == 2)
    }

    /// A player that fails (no sound server), a name the theme lacks, no player at all: each said once in the
    /// journal, not at every firing; a sound that plays again clears it.
    @Test func whatCannotBePlayedIsSaidOnce() throws {
        let (sounds, runner, reports) = announcer()
        for _ in 0..<3 {
            sounds.announce(try firing("Metformin", Self.dose))
            runner.finish(.exited(1))
        }
        #expect(runner.runs.count == 1, "none tried for a minute after a failure")
        #expect(reports.withLock { $0 }.count == 1)
        #expect(reports.withLock { $0 }.first?.contains("could not be played") == true)
        var unknown = Delivery()
        unknown.notification.sound = .named("no-such-sound")
        let named = SoundAnnouncer(
            player: SoundPlayer(program: "/usr/bin/paplay", themeFolders: [themes], environment: []), defaults: .init(), words: english, commands: RecordingCommandRunner(),
            report: { message in reports.withLock { $0.append(message.text) } })
        named.announce(try firing("Water", unknown))
        named.announce(try firing("Water", unknown))
        #expect(reports.withLock { $0 }.count == 2)
        #expect(reports.withLock { $0 }.last?.contains("'no-such-sound' is not in the sound theme") == true)
        let none = SoundAnnouncer(player: nil, defaults: .init(), words: english, commands: runner, report: { message in reports.withLock { $0.append(message.text) } })
        none.announce(try firing("Metformin", Self.dose))
        none.announce(try firing("Metformin", Self.dose))
        #expect(reports.withLock { $0 }.count == 3 && !none.playsSounds)
        #expect(reports.withLock { $0 }.last?.contains("pulseaudio-utils") == true)
    }

    /// Without a sound server, a burst does not start a player per firing: after a failure none is tried for a
    /// minute (of the firings' time), then one is.
    @Test func afterAFailureNoneIsTriedForAMinute() throws {
        let (sounds, runner, _) = announcer()
        let first = try firingEvent("Metformin", Self.dose)
        sounds.announce(.firing(first))
        runner.finish(.exited(1))
        var later = first
        later.handledAt = first.handledAt.adding(seconds: 59)
        sounds.announce(.firing(later))
        #expect(runner.runs.count == 1)
        later.handledAt = first.handledAt.adding(seconds: 60)
        sounds.announce(.firing(later))
        #expect(runner.runs.count == 2)
    }

    /// canberra-gtk-play looks a theme's name up itself; the daemon's PULSE_SERVER reaches the player.
    @Test func thePlayerIsFoundInPathAndCanberraTakesANameItself() throws {
        let (sounds, runner, _) = announcer(program: "/usr/bin/canberra-gtk-play")
        var unknown = Delivery()
        unknown.notification.sound = .named("phone-incoming-call")
        sounds.announce(try firing("Call", unknown))
        #expect(runner.runs.last?.arguments == ["/usr/bin/canberra-gtk-play", "-i", "phone-incoming-call"])
        let bin = themes + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: bin + "/paplay", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
        let found = try #require(SoundPlayer.find(environment: ["PATH": "/nonexistent:" + bin, "XDG_DATA_DIRS": "/a:/b", "PULSE_SERVER": "unix:/x", "HOME": "/home/me"]))
        #expect(found.program == bin + "/paplay")
        #expect(found.themeFolders == ["/home/me/.local/share/sounds", "/a/sounds", "/b/sounds"])
        #expect(found.environment == ["PULSE_SERVER=unix:/x"])
        #expect(SoundPlayer.find(environment: ["PATH": "/nonexistent"]) == nil)
    }

    /// `--sound FILE` is refused unless the file is a sound remindd can play; nothing is changed.
    @Test func aSoundFileThatIsNotOneIsRefused() async throws {
        let daemon = try await TestDaemon(now: Instant(secondsSinceEpoch: 1_772_400_000))
        let script = themes + "/not-a-sound.oga"
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: script))
        for (path, message) in [(themes + "/missing.oga", "does not exist"), (script, "is not a sound file"), (themes, "is not a file")] {
            await #expect { try await daemon.call("Add", ["name": "Pills", "rule": .object(["daily": true, "at": "08:00"]), "sound": .string(path)]) } throws: {
                "\($0)".contains(message)
            }
        }
        let good = themes + "/freedesktop/stereo/bell.oga"
        let added = try await daemon.call("Add", ["name": "Pills", "rule": .object(["daily": true, "at": "08:00"]), "sound": .string(good)], as: [String: ReminderValue].self)
        #expect(added["reminder"]?.delivery.notification.sound == good)
    }

    /// #57 item 5: a `--sound` file swapped for a FIFO between the check's `stat` and its blocking `open` held the
    /// Add call, and every call after it, for as long as no writer came. The file is now opened without blocking
    /// and its type read from the opened descriptor: with a FIFO and a sound file swapped in its place all the
    /// while, every check answers (a FIFO or a missing file refused, the sound accepted), none waits.
    @Test(.timeLimit(.minutes(1))) func aFIFOInPlaceOfTheSoundHoldsNoCall() async throws {
        let folder = themes + "/swap"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/alarm.oga"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(SoundPlayer.problem(withFile: path)?.contains("is not a file") == true)
        unlink(path)
        let sound = themes + "/freedesktop/stereo/bell.oga"
        let rounds = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        // A thread of its own, not a task: on a busy two-core machine a task on the shared pool could wait
        // behind other tests for the whole deadline and never swap.
        let swapper = Thread {
            while !stop.load(ordering: .relaxed) {
                let round = rounds.load(ordering: .relaxed)
                let next = folder + "/next-\(round)"
                if round % 2 == 0 { mkfifo(next, 0o600) } else { link(sound, next) }
                rename(next, path)
                rounds.add(1, ordering: .relaxed)
            }
            stop.store(false, ordering: .relaxed)
        }
        swapper.start()
        // Checked while the swaps go on, until both were seen: a FIFO refused and the sound accepted. Before, a
        // check that met the FIFO between its stat and its open never returned.
        var (refused, accepted) = (false, false)
        let deadline = ContinuousClock.now + .seconds(20)
        while !(refused && accepted), ContinuousClock.now < deadline {
            guard rounds.load(ordering: .relaxed) > 1 else {
                await Task.yield()
                continue
            }
            let problem = SoundPlayer.problem(withFile: path)
            if problem?.contains("is not a file") == true { refused = true }
            if problem == nil { accepted = true }
        }
        stop.store(true, ordering: .relaxed)
        while stop.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(refused && accepted, "a FIFO refused: \(refused), the sound accepted: \(accepted)")
    }

    // MARK: Speech

    @Test func aSpokenDoseIsSaidAfterItsSoundInTheLocalesLanguage() throws {
        let (sounds, runner, _) = announcer(defaults: .init(speak: .doses))
        sounds.announce(try firing("Metformin", Self.dose))
        #expect(runner.runs.count == 1, "the sound first")
        runner.finish(.exited(0))
        #expect(runner.runs.last?.arguments == ["/usr/bin/spd-say", "--wait", "--language", "de", "--", "Time for Metformin, 500 milligrams."])
        runner.finish(.exited(0))
        sounds.announce(try firing("Water", Delivery()))
        runner.finish(.exited(0))
        #expect(runner.runs.count == 3 && !runner.finish(.exited(0)), "speak = doses: the water is not said")
    }

    @Test func nothingIsSaidWithoutSpeakAndASoundlessReminderIsSaidAtOnce() throws {
        let (sounds, runner, _) = announcer()
        sounds.announce(try firing("Metformin", Self.dose))
        runner.finish(.exited(0))
        #expect(runner.runs.count == 1, "speak = none by default")
        var spoken = Delivery()
        spoken.notification.speak = true
        spoken.notification.sound = Sound.none
        sounds.announce(try firing("Stretch", spoken))
        #expect(runner.runs.last?.arguments.last == "Time for Stretch.")
        runner.finish(.exited(0))
        var unspoken = Self.dose
        unspoken.notification.speak = false
        let (all, allRunner, _) = announcer(defaults: .init(speak: .all))
        all.announce(try firing("Metformin", unspoken))
        allRunner.finish(.exited(0))
        #expect(allRunner.runs.count == 1, "--no-speak over speak = all")
    }

    /// A burst of five doses while the alarm plays: one sentence after it, three named and the rest counted.
    @Test func aBurstIsOneSentence() throws {
        let (sounds, runner, _) = announcer(defaults: .init(speak: .doses))
        for name in ["Metformin", "Ramipril", "Vitamin D", "Aspirin", "Statin"] { sounds.announce(try firing(name, Self.dose)) }
        #expect(runner.runs.count == 1)
        runner.finish(.exited(0))
        #expect(runner.runs.last?.arguments.last == "Time for Metformin, 500 milligrams; Ramipril, 500 milligrams; Vitamin D, 500 milligrams; and 2 more.")
        sounds.announce(try firing("Late one", Self.dose))
        #expect(runner.runs.count == 2, "while speaking nothing else starts")
    }

    @Test func noSpeechDispatcherIsSaidOnceAndAQuietFiringSaysNothing() throws {
        let (sounds, runner, reports) = announcer(defaults: .init(speak: .all), speaker: nil)
        for _ in 0..<2 {
            sounds.announce(try firing("Metformin", Self.dose))
            runner.finish(.exited(0))
        }
        #expect(reports.withLock { $0 }.filter { $0.contains("speech-dispatcher is not installed") }.count == 1)
        let (quiet, quietRunner, _) = announcer(defaults: .init(speak: .all))
        var event = try firingEvent("Water", Delivery())
        event.quiet = true
        quiet.announce(.firing(event))
        #expect(quietRunner.runs.isEmpty)
    }

    @Test func theVoiceReadsTheLanguageOfTheWordsAndADoseIsSaidInWords() {
        // The language of the catalog in use: a locale remindd has no translation for reads English words in English.
        #expect(GettextCatalog.language(ofHeader: "Project-Id-Version: remindd\nLanguage: de\nMIME-Version: 1.0\n") == "de")
        #expect(GettextCatalog.language(ofHeader: "") == "en" && GettextCatalog.language(ofHeader: "Language: \n") == "en")
        #expect(UntranslatedCatalog().language == "en")
        if let speaker = Speaker.find(environment: ["PATH": "/usr/bin"], language: "fr") {
            #expect(speaker.arguments(saying: "Bonjour") == ["/usr/bin/spd-say", "--wait", "--language", "fr", "--", "Bonjour"])
        }
        #expect(Speaker.spoken(Dose(thousandths: 1000, unit: "mg"), in: english) == "1 milligram")
        #expect(Speaker.spoken(Dose(thousandths: 2000, unit: "tablet"), in: english) == "2 tablets")
    }
}

/// The messages as the tables write them.
private let english = UntranslatedCatalog()
