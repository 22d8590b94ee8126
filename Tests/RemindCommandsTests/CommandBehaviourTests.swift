import ArgumentParser
import Foundation
import ReminderCore
@testable import RemindCommands
import Testing
import VarlinkProtocol

/// What a user reads from particular commands: times in their own zone, time left, plurals, refusals and
/// suggestions, and what is sent to the daemon.
@Suite struct CommandBehaviourTests {
    /// `remindctl ui` finds remindd-web's port in what the user manager says its socket listens on (a drop-in
    /// moved it), the first loopback address; nothing usable gives nil (then the default).
    @Test func theUIPortIsReadFromTheSocketUnitsListenAddresses() {
        #expect(UICommand.port(listening: "127.0.0.1:47151 (Stream)\n[::1]:47151 (Stream)\n") == 47151)
        #expect(UICommand.port(listening: "[::1]:8080 (Stream)") == 8080)
        #expect(UICommand.port(listening: "") == nil)
        #expect(UICommand.port(listening: "0.0.0.0:80 (Stream)") == nil, "not on loopback: not remindd-web's unit as shipped")
        #expect(UICommand.port(listening: "127.0.0.1:99999 (Stream)") == nil)
    }

    var harness = CommandHarness(daemon: StubDaemon(replies: Samples.replies))

    @Test func nextShowsTheUsersZoneTimeLeftAndTheRemindersOwnTimeWhereItDiffers() throws {
        var berlin = harness
        berlin.zone = try #require(Self.zone("Europe/Berlin"))
        let lines = berlin.run("next").output.split(separator: "\n").map(String.init)
        #expect(lines[0] == "WHEN                                        LEFT         REMINDER    SLOT")
        // 09:00 UTC is 10:00 in Berlin; it is 07:45 UTC now: 1h 15min left. The reminder's own +00:00 differs
        // from Berlin's +01:00, so its own time is noted.
        #expect(lines[1].hasPrefix("Sun 2026-11-22 10:00 +01:00 (09:00 +00:00)  in 1h 15min  Vitamin D"))
        #expect(lines[2].hasPrefix("Sun 2026-11-22 11:00 +01:00 (19:00 +09:00)  in 2h 15min  Call Akiko"))
        // In UTC, the first agrees (no note) and the Tokyo one is noted.
        let utc = harness.run("next").output
        #expect(utc.contains("Sun 2026-11-22 09:00 +00:00                 in 1h 15min  Vitamin D"))
        #expect(utc.contains("Sun 2026-11-22 10:00 +00:00 (19:00 +09:00)  in 2h 15min  Call Akiko"))
    }

    /// `today` at 00:10 lists a dose of yesterday's (23:50, in a reminder's UTC-12) still due first, saying it is
    /// yesterday's, then today's own at its time.
    @Test func todaySaysWhichDoseIsYesterdaysStillDue() throws {
        var replies = Samples.replies
        let carried = #"{"reminderId": 2, "reminderName": "Insulin", "slot": "2@2026-11-21T11:50", "local": "2026-11-21T11:50:00-12:00", "utc": "2026-11-21T23:50:00Z", "state": "due", "windowEndUtc": "2026-11-22T00:50:00Z"}"#
        replies["io.remindd.Reminders.Occurrences"] = #"{"date": "2026-11-22", "occurrences": [\#(carried), \#(Samples.occurrence)]}"#
        var midnight = CommandHarness(daemon: StubDaemon(replies: replies))
        midnight.now = Instant(secondsSinceEpoch: 1_795_306_200)  // 2026-11-22 00:10 UTC
        let lines = midnight.run("today").output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("yesterday 23:50 (11:50 -12:00)") && $0.hasSuffix("due") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("09:00 ") && $0.contains("Vitamin D") }, "\(lines)")
    }

    @Test func timeLeftCountsLikeListTimers() {
        let out = Output(context: CommandContext(
            connect: { _ in StubDaemon() }, write: { _ in }, environment: [:], stdoutIsTerminal: false, stdinIsTerminal: false,
            now: { Instant(secondsSinceEpoch: 1000) }, zone: TimeZoneRules(identifier: "UTC", fixedOffset: 0)))
        #expect(out.left(until: Instant(secondsSinceEpoch: 1045)) == "in 45s")
        #expect(out.left(until: Instant(secondsSinceEpoch: 1000 + 2 * 3600 + 14 * 60 + 5)) == "in 2h 14min")
        #expect(out.left(until: Instant(secondsSinceEpoch: 1000 + 3 * 86400 + 60)) == "in 3d")
        #expect(out.left(until: Instant(secondsSinceEpoch: 1000)) == "now")
        #expect(out.left(until: Instant(secondsSinceEpoch: 700)) == "5min ago")
    }

    @Test func historyAndStatusShowLocalTimesWithTheirOffset() throws {
        var newYork = harness
        newYork.zone = try #require(Self.zone("America/New_York"))
        let history = newYork.run("history").output
        #expect(history.contains("Sat 2026-11-21 04:00 -05:00  fired  Vitamin D"))
        let status = newYork.run("status").output
        #expect(status.contains("next:      Sun 2026-11-22 04:00 -05:00 (in 1h 15min) Vitamin D"))
    }

    /// What the rule and the parts get wrong together is refused as the daemon refuses it, before connecting.
    @Test func aDefinitionWrongAsAWholeIsRefusedBeforeConnecting() {
        let harness = CommandHarness(daemon: StubDaemon(replies: Samples.replies))
        let refusals = [
            (["--daily", "--at", "08:00", "--window", "1h", "--escalate-exec", "/bin/true", "--escalate-after", "2h"],
             "--escalate-after 2h is not before the window's end (1h)"),
            (["--every", "1h", "--start", "2026-11-23T08:00", "--before", "1h"], "--before 1h is not after the occurrence before"),
            (["--once", "2026-11-21T10:00"], "this reminder would never fire: --once 2026-11-21T10:00 is in the past"),
            (["--daily", "--at", "08:00", "--steps", "40mg until 2026-11-01"], "this reminder would never fire"),
        ]
        for (flags, message) in refusals {
            let outcome = harness.run(["add", "Pills"] + flags)
            #expect(outcome.error?.contains(message) == true, "\(flags): \(outcome.error ?? "accepted")")
        }
        #expect(harness.daemon.calls.isEmpty, "nothing sent: \(harness.daemon.calls.map(\.method))")
        // A window longer than the delay, and no window at all (the occurrence's own end): accepted, and sent.
        #expect(harness.run("add", "Pills", "--daily", "--at", "08:00", "--window", "2h", "--escalate-exec", "/bin/true", "--escalate-after", "1h").error == nil)
        #expect(harness.daemon.calls.map(\.method).contains("io.remindd.Reminders.Add"))
    }

    @Test func pluralsAreRight() {
        #expect(plural(1, "day") == "1 day")
        #expect(plural(2, "day") == "2 days")
        #expect(plural(0, "entry", "entries") == "0 entries")
        #expect(harness.run("recover", "--yes").output == "Streak restored: 3 days since 2026-11-20\n")
    }

    @Test func mistypedCommandsAndNamesGetSuggestions() {
        #expect(RemindCtl.unknownSubcommand(["stauts"]) == "unknown command 'stauts': did you mean 'remindctl status'?")
        #expect(RemindCtl.unknownSubcommand(["rest", "mrak", "2026-11-24"]) == "unknown command 'mrak': did you mean 'remindctl rest mark'?")
        #expect(RemindCtl.unknownSubcommand(["frobnicate"])?.hasPrefix("unknown command 'frobnicate': see 'remindctl --help' (add, list") == true)
        // A reminder named where a subcommand could be is not a mistake (log's default subcommand is add).
        #expect(RemindCtl.unknownSubcommand(["log", "Vitamin D"]) == nil)
        #expect(RemindCtl.unknownSubcommand(["status", "--json"]) == nil)

        let missing = VarlinkError(name: "io.remindd.Reminders.ReminderNotFound", parameters: ["reminder": "Vitamn D"])
        let typo = CommandHarness(daemon: StubDaemon(replies: Samples.replies, errors: ["io.remindd.Reminders.Get": missing]))
        #expect(typo.run("show", "Vitamn D").error == "Error: no reminder 'Vitamn D': see 'remindctl list' for names and ids (did you mean 'Vitamin D'?)")
    }

    /// `next` and `status` are read without argument-parser (a status bar runs them every few seconds): the same
    /// command, the same output; anything else (help, version, completion, a mistake) is left to the whole tree,
    /// which answers as it always did.
    @Test func frequentCommandsParsedDirectlyDoWhatTheWholeTreeDoes() {
        let accepted = [["next"], ["next", "--count", "1", "--json"], ["next", "--json", "--count=2"], ["next", "--count", "0"],
                        ["next", "--socket=/run/remindd.sock", "--count", "3"], ["status"], ["status", "--json"],
                        ["status", "--format", "waybar", "--socket", "/run/remindd.sock"], ["status", "--format=text"]]
        for arguments in accepted {
            #expect(FrequentCommands.parse(arguments) != nil, "\(arguments)")
            let (direct, whole) = (harness.run(arguments, directly: true), harness.run(arguments))
            #expect(direct.output == whole.output && direct.error == whole.error, "\(arguments)")
            #expect(!whole.output.isEmpty || whole.error != nil, "\(arguments)")
        }
        let refused = [["next", "--help"], ["next", "-h"], ["next", "help"], ["status", "--version"], ["next", "--bogus"], ["next", "--count"],
                       ["next", "--count", "x"], ["next", "extra"], ["status", "--format", "polybar"], ["status", "--generate-completion-script", "bash"],
                       ["next", "--count", "1", "--count", "2"], ["next", "--count", "-1"], ["next", "--count="], ["next", "--json=yes"],
                       ["next", "--json", "--json"], ["status", "--count", "1"], ["next", "--format", "text"], ["next", "--socket"],
                       ["list"], [], ["--version"]]
        for arguments in refused { #expect(FrequentCommands.parse(arguments) == nil, "\(arguments)") }
    }

    /// The options read without argument-parser are each command's own, as its help lists them: one added to the
    /// command and not read there would send every line with it to the whole tree (slower, not wrong), one read
    /// there and gone from the command would be taken without complaint.
    @Test func frequentCommandsReadExactlyTheOptionsTheirHelpLists() {
        let commands: [(String, any ParsableCommand.Type)] = [("next", NextCommand.self), ("status", StatusCommand.self)]
        for (name, command) in commands {
            let help = command.helpMessage(columns: 200)
            let listed = Set(help.split(whereSeparator: { " ,\n[]<>=".contains($0) }).filter { $0.hasPrefix("--") }.map(String.init))
            let read = FrequentCommands.optionNames[name].map { $0.flags.union($0.valued) } ?? []
            #expect(listed.subtracting(["--help"]) == read, "\(name): \(listed)")
        }
    }

    @Test func conflictingAndUnreadableOptionsAreRefusedBeforeAnyCall() {
        let daemon = StubDaemon(replies: Samples.replies)
        let harness = CommandHarness(daemon: daemon)
        #expect(harness.run("history", "--from", "2026-11-01", "--since", "3d").error
            == "Error: --since and --from cannot be combined: --from shows calories by day (remindctl calories), --since filters the history")
        #expect(harness.run("history", "--since", "3w").error
            == "Error: invalid --since '3w': write a length back from now (7d, 24h, 30m), a date (2026-11-01) or a time (2026-11-01T08:00)")
        #expect(harness.run("routine", "select", "x", "--start", "2026-11-23", "--starts", "2026-11-23").error
            == "Error: --start is given twice (once under its old name): give it once")
        #expect(daemon.calls.isEmpty)
    }

    @Test func routineSelectSendsStartAndAtAndTheOldSpellingsStillWork() {
        let daemon = StubDaemon(replies: Samples.replies)
        let harness = CommandHarness(daemon: daemon)
        #expect(harness.run("routine", "select", "beginner-full-body", "--start", "2026-11-23", "--at", "18:00").error == nil)
        #expect(harness.run("routine", "select", "beginner-full-body", "--starts", "2026-11-23", "--remind", "18:00").error == nil)
        let sent: JSONValue = .object(["id": "beginner-full-body", "start": "2026-11-23", "at": "18:00"])
        #expect(daemon.calls.map(\.method) == ["io.remindd.Routines.Select", "io.remindd.Routines.Select"])
        #expect(daemon.calls.map(\.parameters) == [sent, sent])
    }

    @Test func csvHasAHeaderLocalTimesWithOffsetsAndRFC4180Quoting() {
        let intake = harness.run("export", "--format", "csv", "--what", "intake").output
        #expect(intake == "id,reminder,time,utc,late-for,amount,unit\r\n7,Vitamin D,2026-11-22T08:00:00+01:00,2026-11-22T07:00:00Z,,0.5,capsule\r\n8,Vitamin D,2026-11-22T08:00:00+00:00,2026-11-22T08:00:00Z,2026-11-21T09:00:00+01:00,,\r\n")
        let food = harness.run("export", "--format", "csv", "--what", "food").output
        #expect(food == "id,name,kcal,time\r\n4,\"Oatmeal, \"\"large\"\"\",350,2026-11-22T07:00:00+00:00\r\n")
        let days = harness.run("export", "--format", "csv", "--what", "days").output
        #expect(days == "date,consumed,burned,net\r\n2026-11-22,350,290,60\r\n")
        let occurrences = harness.run("export", "--format", "csv", "--what", "occurrences").output.split(separator: "\r\n")
        #expect(occurrences == [
            "reminder,slot,scheduled,state,decided,detail",
            "Vitamin D,reminder-1-09-00,2026-11-21T09:00:00+01:00,missed,2026-11-21T11:00:00+01:00,",
            "Vitamin D,,2026-11-21T09:00:00+01:00,taken-late,2026-11-22T09:00:00+01:00,log 8",
            "Vitamin D,reminder-1-09-00,2026-11-22T09:00:00+01:00,fired,2026-11-22T09:00:00+01:00,",
        ])
        #expect(harness.run("export", "--format", "csv").error?.hasPrefix("Error: --format csv needs --what: intake, occurrences, workouts, food or days\n") == true)
        #expect(harness.run("export", "--what", "food").error?.hasPrefix("Error: --what goes with --format csv (the JSON backup holds everything)\n") == true)
    }

    @Test func theBackupIsWrittenAsOneDocumentFromThePagesWithItsHeaderFirst() throws {
        let text = harness.run("export").output
        let document = try VarlinkWire.decode(JSONValue.self, from: Array(text.utf8))
        guard case .object(let fields) = document, case .object(let tables)? = fields["tables"] else { Issue.record("not a backup: \(text)"); return }
        #expect(fields["format"] == "remindd-backup" && fields["version"] == 1 && fields["schema"] == "v8-repeats-and-skips")
        #expect(Set(tables.keys) == ["reminder", "intake", "firing", "outcome", "food", "restDay", "workout"])
        guard case .array(let intake)? = tables["intake"] else { Issue.record("no intake"); return }
        #expect(intake.map { row -> JSONValue? in if case .object(let fields) = row { fields["id"] } else { nil } } == [7, 8])  // two pages, one array
        #expect(tables["restDay"] == .array([]))
        // The header comes before the rows: an import decides from it before reading any.
        let header = try #require(text.range(of: "\"schema\""))
        #expect(header.lowerBound < (text.range(of: "\"tables\"")?.lowerBound ?? text.startIndex))
    }

    /// remindctl reads the file itself (the service's sandbox hides the caller's /tmp) and sends it in parts
    /// of at most 512 KiB, then imports the upload with the merge flag.
    @Test func importSendsTheFileInPartsThenTheMergeFlag() throws {
        let daemon = StubDaemon(replies: Samples.replies)
        let harness = CommandHarness(daemon: daemon)
        let folder = NSTemporaryDirectory() + "remindctl-import-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }  // a temporary folder; nothing depends on it
        let contents = Data((0..<1_200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        #expect(FileManager.default.createFile(atPath: folder + "/backup.json", contents: contents))

        let output = harness.run("import", folder + "/backup.json", "--merge").output
        #expect(output == "Imported \(folder)/backup.json:\nTABLE     ADDED  SKIPPED\nreminder  1      0\nintake    2      0\n")
        let uploads = daemon.calls.filter { $0.method == "io.remindd.Backup.Upload" }
        let parts = try uploads.enumerated().map { index, call -> Data in
            guard case .object(let fields) = call.parameters, case .string(let data)? = fields["data"] else { throw CLIError("no data") }
            #expect(fields["name"] == "backup.json")
            #expect(fields["upload"] == (index == 0 ? nil : "u1"))
            return try #require(Data(base64Encoded: data))
        }
        #expect(parts.count == 3 && parts.allSatisfy { $0.count <= 512 * 1024 })
        #expect(parts.reduce(Data(), +) == contents)
        #expect(daemon.calls.last?.parameters == .object(["upload": "u1", "label": .string(folder + "/backup.json"), "merge": true]))
    }

    /// `update NAME --at 10:00` changes the times and keeps the days; `--weekly` changes the days and keeps
    /// the times (it was refused with "no schedule given").
    @Test func updateChangesThePartOfTheRuleItIsGivenAndKeepsTheRest() {
        let daemon = StubDaemon(replies: Samples.replies.merging([
            "io.remindd.Reminders.Get": #"{"reminder": {"id": 1, "name": "Pills", "rule": {"weekly": "mon,wed", "at": "08:00", "until": "2027-06-30"}, "summary": "weekly", "effectiveTimeZone": "UTC", "enabled": true, "streak": 0, "urgency": "normal", "snoozeMinutes": 10}, "ladder": []}"#,
        ]) { $1 })
        let harness = CommandHarness(daemon: daemon)
        #expect(harness.run("update", "Pills", "--at", "10:00").error == nil)
        #expect(daemon.calls.last?.parameters == .object(["reminder": "Pills", "rule": .object(["weekly": "mon,wed", "at": "10:00", "until": "2027-06-30"])]))
        #expect(harness.run("update", "Pills", "--daily").error == nil)
        #expect(daemon.calls.last?.parameters == .object(["reminder": "Pills", "rule": .object(["daily": true, "at": "08:00", "until": "2027-06-30"])]))
        // What the merged rule cannot be is said before anything changes.
        let refused = harness.run("update", "Pills", "--at", "25:00")
        #expect(refused.error?.hasPrefix("Error: ") == true && daemon.calls.last?.method == "io.remindd.Reminders.Get")
    }

    /// "In 20 minutes": `--in 20m` and `--once +20m` are a one-shot that far from now, sent as that (the daemon
    /// makes it a date-time by its clock, as it checks it: made here, `--in 1s` was refused as past when the call
    /// took longer than what was left of the second) in the caller's zone, which the reminder is given.
    @Test func aOneShotCanBeGivenAsALengthFromNow() throws {
        let daemon = StubDaemon(replies: Samples.replies)
        var harness = CommandHarness(daemon: daemon)
        harness.zone = TimeZoneRules(identifier: "Etc/GMT-1", fixedOffset: 3600)  // the shell's TZ, an hour east
        let now = harness.now  // 2026-11-22T07:45:00Z
        for arguments in [["--in", "20m"], ["--once", "+20m"]] {
            #expect(harness.run(["add", "Tea"] + arguments).error == nil)
            #expect(daemon.calls.last?.parameters == .object(["name": "Tea", "rule": .object(["once": "+20m"]), "timeZone": "Etc/GMT-1"]))
        }
        #expect(harness.run("add", "Tea", "--in", "1d1h30m", "--tz", "UTC").error == nil)
        #expect(daemon.calls.last?.parameters == .object(["name": "Tea", "rule": .object(["once": "+1d1h30m"]), "timeZone": "UTC"]))
        // At 01:40 EST in New York's repeated hour, "in 10 minutes" is not refused as past before connecting
        // (01:50 read in New York is 01:50 EDT; the daemon gives the reminder the fixed offset that reads it right).
        var autumn = CommandHarness(daemon: daemon)
        (autumn.now, autumn.zone) = (Instant(secondsSinceEpoch: 1_793_515_200), try #require(Self.zone("America/New_York")))
        #expect(autumn.run("add", "Tea", "--in", "10m").error == nil)
        // An update given only --in changes the rule (it was "nothing to change").
        #expect(harness.run("update", "Pills", "--in", "2h").error == nil)
        #expect(daemon.calls.last?.method == "io.remindd.Reminders.Update")
        if case .object(let sent)? = daemon.calls.last?.parameters, case .object(let rule)? = sent["rule"] {
            #expect(rule["once"] == "+2h")
        } else {
            Issue.record("no rule sent: \(String(describing: daemon.calls.last))")
        }
        for (arguments, words) in [
            (["--in", "0m"], "invalid length '0m'"), (["--in", "400d"], "up to 366d"), (["--in", "20m", "--once", "+5m"], "give one of them"),
        ] {
            #expect(harness.run(["add", "Tea"] + arguments).error?.contains(words) == true, "\(arguments)")
        }
        #expect(now == harness.now)
    }

    /// A negative number is a value the daemon refuses with its range, not "Missing value for '--kcal'".
    @Test func aNegativeNumberIsReadAsTheOptionsValue() throws {
        let food = try #require(try RemindCtl.parseAsRoot(["food", "add", "Tea", "--kcal", "-5"]) as? FoodAddCommand)
        #expect(food.kcal == -5)
        let workout = try #require(try RemindCtl.parseAsRoot(["workout", "add", "running", "--minutes", "-30"]) as? WorkoutAddCommand)
        #expect(workout.minutes == -30)
        let snooze = try #require(try RemindCtl.parseAsRoot(["snooze", "Pills", "--minutes", "-1"]) as? SnoozeCommand)
        #expect(snooze.minutes == -1)
    }

    /// `--note` was answered with "did you mean '--once'?": it is answered with what to do instead.
    @Test func anOptionRemindctlDoesNotHaveIsAnsweredWithWhatToDoInstead() {
        for arguments in [["log", "Pills", "--note", "with food"], ["add", "Tea", "--in", "5m", "--note=green"]] {
            #expect(RemindCtl.optionItDoesNotHave(arguments)?.hasPrefix("remindctl keeps no notes: a skip takes a reason") == true)
        }
        #expect(RemindCtl.optionItDoesNotHave(["add", "--", "--note"]) == nil)  // a name after --
        #expect(RemindCtl.optionItDoesNotHave(["add", "Tea", "--once", "+5m"]) == nil)
    }

    /// `history` said a skip's lateness as `381s`.
    @Test func historySaysHowLateInWords() {
        #expect([0, 45, 381, 3600, 3900, 86400, 97200].map { HistoryCommand.lateness(Int64($0)) }
            == ["-", "45 s", "6 min", "1 h", "1 h 5 min", "1 d", "1 d 3 h"])
    }

    /// Tab completes the values of --preset, --intensity, --reason (rest) and --tz, not only options and names.
    @Test func optionValuesComplete() throws {
        #expect(Completions.presets([], 0, "").contains("Twice a Day"))
        #expect(Completions.intensities([], 0, "") == ["light", "moderate", "vigorous"])
        #expect(Completions.restReasons([], 0, "").contains("Busy Day"))
        #expect(Completions.zones([], 0, "Europe/Ber") == ["Europe/Berlin"])
    }

    @Test func importRefusesWhatItCannotReadBeforeAsking() {
        let daemon = StubDaemon(replies: Samples.replies)
        let result = CommandHarness(daemon: daemon).run("import", "/nonexistent/backup.json")
        #expect(result.error == "Error: cannot read /nonexistent/backup.json: no such file")
        #expect(daemon.calls.isEmpty)
    }

    @Test func renamedCommandsKeepTheirOldNamesHiddenForOneRelease() {
        #expect(RemindCtl.currentSpelling(["remove", "Vitamin D"]) == (["delete", "Vitamin D"], "'remove' is now 'delete'; the old name goes in the next release"))
        #expect(RemindCtl.currentSpelling(["workout", "edit", "3"]).arguments == ["workout", "update", "3"])
        #expect(RemindCtl.currentSpelling(["add", "remove"]).note == nil)  // a reminder named "remove"
        let help = harness.run("--help").error ?? ""  // help comes as argument-parser's clean exit
        #expect(help.contains("delete, rm") && !help.contains("remove,"))
    }

    /// Issue 12's "(default: 7d). (default: 7d)": a default is said once.
    @Test func historyHelpSaysItsDefaultOnce() {
        let help = harness.run("history", "--help").error ?? ""
        #expect(help.components(separatedBy: "(default: 7d)").count == 2)
    }

    @Test func versionComesFromTheOneConstant() {
        #expect(RemindCtl.configuration.version == "remindctl \(RemindVersion.current)")
    }

    static func zone(_ name: String) -> TimeZoneRules? {
        guard let bytes = try? Array(String(contentsOfFile: "/usr/share/zoneinfo/" + name, encoding: .isoLatin1).unicodeScalars.map { UInt8($0.value) }) else { return nil }
        return try? TimeZoneRules(identifier: name, tzif: bytes)
    }
}
