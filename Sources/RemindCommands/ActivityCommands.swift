import ArgumentParser
import FoundationEssentials
import Glibc
import ReminderCore
import ReminderInterface
import VarlinkProtocol
import Translation


struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Log an intake, list a day's logs, or delete a log.",
        discussion: """
            'remindctl log NAME' is 'remindctl log add NAME'.

            Examples:
              remindctl log "Vitamin D"
              remindctl log Meds --at 07:45
              remindctl log Metformin --amount 1
              remindctl log list --date 2026-11-21
              remindctl log delete 42
            """,
        subcommands: [LogAddCommand.self, LogListCommand.self, LogDeleteCommand.self],
        defaultSubcommand: LogAddCommand.self
    )
}

/// The line that tells what a log did: `Logged Meds at Sun 08:05 (log 3): takes the 08:00 occurrence`;
/// `taken`: `Taken: Meds at ...` (done).
private func describe(_ log: IntakeValue, taken: Bool) -> String {
    let forced = log.forced == true
    let message =
        taken
        ? (forced ? CommandMessages.takenNowForced : CommandMessages.takenNow) : (forced ? CommandMessages.loggedForced : CommandMessages.logged)
    let name = doseText(log.amount, log.unit).map { out.words(CommandMessages.nameWithDose, log.reminderName, $0) } ?? log.reminderName
    var line = out.words(message, name, out.time(log.local), log.id)
    if let takes = log.takes { line = out.words(CommandMessages.takesOccurrence, line, out.clockTime(takes)) }
    if let suppresses = log.suppresses { line = out.words(CommandMessages.suppressesOccurrence, line, out.clockTime(suppresses)) }
    return line
}

struct LogAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Log an intake: it takes the occurrence whose window it falls in, and suppresses a later one of the day it was logged ahead of.",
        discussion: """
            --at takes a time today (07:45) or a local date-time (2026-11-21T07:45) in your zone (TZ, else \
            the system's), or an instant with offset. A time in the future is refused. A log cancels the pending snoozes \
            and repeats of the occurrence it takes.

            Examples:
              remindctl log "Vitamin D"
              remindctl log Meds --at 07:45
              remindctl log Metformin --amount 1      # one tablet of a two-tablet dose
              remindctl log Ibuprofen --force         # past its --min-interval or --max-per-day
            """
    )

    @Argument(help: "The reminder's id or name.", completion: .custom(Completions.reminders)) var reminder: String
    @Option(help: ArgumentHelp("When it happened (default: now).", valueName: "time")) var at: String?
    @Option(help: ArgumentHelp("How much was taken, in the unit of the reminder's dose (default: its dose).", valueName: "amount")) var amount: String?
    @Flag(help: "Log it even when the reminder's --min-interval or --max-per-day does not allow it (it is marked forced).") var force = false
    @Flag(help: "Print the logged entry as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        // A time ahead is refused here, in the user's language, as the daemon would refuse it.
        let context = CommandContext.current
        if let at, let instant = TimeText.instant(at, now: context.now(), zone: context.zone), instant > context.now() {
            throw CLIError(out.words(CommandMessages.intakeInTheFuture, out.time(instant, typed: at)))
        }
        let reply = try connection.call(
            Reminders.Log.self, .init(reminder: reminder, at: context.typedTime(at), amount: typedAmount(amount), force: force ? true : nil))
        if json { return try out.json(reply) }
        out.print(describe(reply.log, taken: false))
        if reply.cancelledSnoozes > 0 { out.print(out.words(CommandMessages.cancelledSnooze)) }
        if let unsynced = reply.unsynced { Output.warn(unsynced) }
    }
}

struct LogListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the intake logged on a day, with the occurrence each log takes or suppresses.",
        discussion: "Examples:\n  remindctl log list\n  remindctl log list --date 2026-11-21 --reminder Meds --json", aliases: ["ls"])

    @Option(help: ArgumentHelp("The day (YYYY-MM-DD, default today).", valueName: "date")) var date: String?
    @Option(help: "Only this reminder (id or name).", completion: .custom(Completions.reminders)) var reminder: String?
    @Flag(help: "Print a JSON array of logs.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        if let date, ISO8601.parseDate(date) == nil { throw CLIError(out.words(CommandMessages.badDate, date)) }
        let logs = try connection.call(Reminders.Logs.self, .init(date: date, reminder: reminder)).logs
        if json { return try out.json(logs) }
        if logs.isEmpty {
            return out.print(date.map { out.words(CommandMessages.nothingLoggedOn, $0) } ?? out.words(CommandMessages.nothingLoggedToday))
        }
        out.table(
            out.headings(CommandMessages.id, CommandMessages.time, CommandMessages.reminder, CommandMessages.amount, CommandMessages.effect),
            logs.map { log in
                let effect =
                    log.takes.map { out.words(CommandMessages.takes, out.clockTime($0)) }
                    ?? log.suppresses.map { out.words(CommandMessages.suppresses, out.clockTime($0)) } ?? "-"
                return [
                    String(log.id), out.time(log.local), log.reminderName, doseText(log.amount, log.unit) ?? "-",
                    log.forced == true ? out.words(CommandMessages.forced, effect) : effect,
                ]
            })
    }
}

struct LogDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a log (by the id 'log list' shows): what it took is due again, what it suppressed fires.",
        discussion: "On a terminal it asks first (--yes does not).\n\nExample:\n  remindctl log delete 42 --yes", aliases: ["rm"])

    @Argument(help: "The log's id (see 'remindctl log list').") var id: Int64
    @Flag(help: "Do not ask for confirmation.") var yes = false
    @Flag(help: "Print the deleted log as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        guard confirmDeletion("log \(id)", yes: yes) else { return out.print(out.words(CommandMessages.nothingDeleted)) }
        let log = try connection.call(Reminders.DeleteLog.self, .init(id: id)).log
        if json { return try out.json(log) }
        var line = out.words(CommandMessages.deletedLog, log.id, log.reminderName, out.time(log.local))
        if let takes = log.takes { line = out.words(CommandMessages.noLongerTaken, line, out.clockTime(takes)) }
        if let suppresses = log.suppresses { line = out.words(CommandMessages.announcedAgain, line, out.clockTime(suppresses)) }
        out.print(line)
    }
}

struct DoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done", abstract: "Mark the occurrence that is due as taken (logs an intake now).",
        discussion: """
            Refused when nothing of the reminder is due (it fired and nothing is logged yet): use \
            'remindctl log' to record an intake at any time. Its snoozes and repeats stop.

            With --late: the most recent missed occurrence of the last two days is taken late (what "Taken \
            late" on the Missed notification does): an intake now, made for it, which covers and suppresses no \
            other occurrence; a goal's streak counts it.

            Several reminders are taken in turn (each said, a refusal said and the rest taken all the same, exit \
            status 1 when one was refused); --all-due takes every occurrence due now (what "Take all" on the \
            notification does).

            Examples:
              remindctl done Meds
              remindctl done Metformin Ramipril
              remindctl done --all-due
              remindctl done Meds --late
              remindctl done Metformin --amount 1
              remindctl done Ibuprofen                # taken as needed: a dose now, within its limits
            """, aliases: ["taken"])

    @Argument(help: "The reminders' ids or names (several: each is taken in turn).", completion: .custom(Completions.reminders)) var reminders: [String] = []
    @Flag(help: "Take every occurrence due now.") var allDue = false
    @Option(help: ArgumentHelp("How much was taken, in the unit of the reminder's dose (default: its dose).", valueName: "amount")) var amount: String?
    @Flag(help: "Take the most recent missed occurrence late.") var late = false
    @Flag(help: "Log it even when the reminder's --min-interval or --max-per-day does not allow it (it is marked forced).") var force = false
    @Flag(help: "Print the log (with --late: the occurrence) as JSON; several as a list.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if allDue, !reminders.isEmpty { throw ValidationError(out.words(CommandMessages.allDueOrNames)) }
        if !allDue, reminders.isEmpty { throw ValidationError(out.words(CommandMessages.nameOrAllDue)) }
        if (allDue || reminders.count > 1), amount != nil || late { throw ValidationError(out.words(CommandMessages.oneForAmountOrLate)) }
    }

    func run() throws {
        let keys = allDue
            ? try connection.call(Reminders.Occurrences.self, .init(date: nil)).occurrences.filter { $0.state == "due" }.map { String($0.reminderId) }
            : reminders
        if keys.count == 1, !allDue { return try takeOne(keys[0]) }
        var replies: [Reminders.Done.Reply] = []
        var refused = false
        for key in keys {
            do {
                let reply = try connection.call(Reminders.Done.self, .init(reminder: key, force: force ? true : nil))
                replies.append(reply)
                if !json { out.print(describe(reply.log, taken: true)) }
                if let unsynced = reply.unsynced { Output.warn(unsynced) }
            } catch {
                refused = true
                FileHandleOutput.standardError(out.words(CommandMessages.error, "\(error)") + "\n")
            }
        }
        if json { try out.json(replies) } else if keys.isEmpty { out.print(out.words(CommandMessages.nothingDueToTake)) }
        if refused { throw ExitCode.failure }
    }

    /// One reminder: its due occurrence taken now, or with --late its missed one.
    private func takeOne(_ reminder: String) throws {
        if late, let amount { throw CLIError(out.words(CommandMessages.lateWithAmount, reminder, amount)) }
        if late {
            let occurrence = try connection.call(Reminders.TakeLate.self, .init(reminder: reminder)).occurrence
            if json { return try out.json(occurrence) }
            let line = out.words(CommandMessages.takenLateLine, occurrence.reminderName, out.time(occurrence.local))
            return out.print(occurrence.loggedUtc.map { out.words(CommandMessages.loggedAt, line, out.clock($0)) } ?? line)
        }
        let reply = try connection.call(Reminders.Done.self, .init(reminder: reminder, amount: typedAmount(amount), force: force ? true : nil))
        if json { return try out.json(reply) }
        out.print(describe(reply.log, taken: true))
        if let unsynced = reply.unsynced { Output.warn(unsynced) }
    }
}

struct SnoozeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze", abstract: "Announce the due occurrence again in some minutes, or postpone the next one.",
        discussion: """
            With an occurrence due (fired, nothing logged): it is announced again in --minutes. Otherwise \
            the next occurrence is postponed by --minutes: not announced at its time, only then. A second \
            snooze of the same occurrence replaces the first; a log or a skip cancels it. 'remindctl next' \
            lists pending snoozes. A snooze must end inside the occurrence's window.

            Examples:
              remindctl snooze Meds
              remindctl snooze Meds --minutes 30 --json
            """)

    @Argument(help: "The reminder's id or name.", completion: .custom(Completions.reminders)) var reminder: String
    @Option(parsing: .unconditional, help: "Minutes until it is announced (1-1440).") var minutes = 10
    @Flag(help: "Print the snooze as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        guard (1...1440).contains(minutes) else { throw CLIError(out.words(CommandMessages.badMinutes, minutes)) }
        let reply = try connection.call(Reminders.Snooze.self, .init(reminder: reminder, minutes: minutes))
        if json { return try out.json(reply) }
        let name = reply.occurrence.reminderName
        var line = out.words(
            reply.postponed ? CommandMessages.postponedLine : CommandMessages.snoozedLine, name, out.clockTime(reply.occurrence.local), out.time(reply.until))
        if let replaced = reply.replaced { line = out.words(CommandMessages.replacesSnooze, line, out.clockTime(replaced)) }
        out.print(line)
    }
}

struct NextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next", abstract: "Show the next firings across all reminders, pending snoozes included.",
        discussion: "Examples:\n  remindctl next\n  remindctl next --count 3 --json")

    /// How many firings without `--count`.
    static let defaultCount = 10

    @Option(help: "How many firings.") var count = NextCommand.defaultCount
    @Flag(help: "Print a JSON array of firings.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws { try Self.show(count: count, json: json, daemon: connection) }

    /// What `next` prints (also run without argument-parser: ``FrequentCommands``).
    static func show(count: Int, json: Bool, daemon: some DaemonConnecting) throws {
        guard count >= 1 else { throw CLIError(out.words(CommandMessages.badCount, count)) }
        let reply = try daemon.call(Reminders.Next.self, .init(count: count))
        let firings = reply.firings
        if json { return try out.json(firings) }
        printAsNeeded(reply.asNeeded ?? [])
        if firings.isEmpty { return out.print(out.words(CommandMessages.nothingScheduled)) }
        // As systemctl list-timers: when in the user's zone (the reminder's own time noted where its zone
        // differs), and how long until then.
        out.table(out.headings(CommandMessages.when, CommandMessages.left, CommandMessages.reminder, CommandMessages.slot), firings.map { firing in
            let instant = Output.instant(firing.utc)
            var name = nameWithDose(firing.shownName, firing.dose, firing.unit)
            if firing.snoozed == true { name = out.words(CommandMessages.snoozedMark, name) }
            return [
                out.time(firing.utc) + out.ownZoneNote(local: firing.local, zoneName: nil), instant.map(out.left) ?? "-",
                name + (firing.calendar.map { " [\($0)]" } ?? ""), firing.slot,
            ]
        })
    }
}

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "What happened to each occurrence: fired, announced again, taken, taken late, skipped, missed.",
        discussion: """
            The story since --since (7d, 24h, 30m, a date or a time in your zone), newest first: each firing \
            (fired, late, suppressed, postponed; "announced again" counts its repeats and snoozes), each log \
            (taken, taken late, logged ahead: suppresses a later occurrence; logged: neither), each skip and \
            each missed occurrence (its window closed with nothing logged; see 'remindctl add --window'). \
            LATE is how long after the occurrence. Calories day by day are 'remindctl calories' \
            ('history --from' still shows them, for one more release).

            Examples:
              remindctl history --since 7d
              remindctl history --reminder Meds --json
            """
    )

    @Option(help: ArgumentHelp("Old form of 'remindctl calories --from' (kept for one release).", visibility: .hidden)) var from: String?
    @Option(help: ArgumentHelp("Old form of 'remindctl calories --to'.", visibility: .hidden)) var to: String?

    @Option(help: ArgumentHelp("How far back: 7d, 24h, 30m, a date or a time (default: 7d).", valueName: "when")) var since: String?
    @Option(help: ArgumentHelp("Only this reminder (id or name).", valueName: "reminder"), completion: .custom(Completions.reminders)) var reminder: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("At most this many entries (default: 100).", valueName: "n")) var limit: Int?
    @Flag(help: "Print a JSON array of entries.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        if let from {
            let firingOptions = [since.map { _ in "--since" }, reminder.map { _ in "--reminder" }, limit.map { _ in "--limit" }].compactMap { $0 }
            guard firingOptions.isEmpty else {
                throw CLIError("\(firingOptions.joined(separator: " and ")) and --from cannot be combined: --from shows calories by day (remindctl calories), \(firingOptions[0]) filters the history")
            }
            Output.warn("'history --from' is now 'remindctl calories --from'; this form goes in the next release")
            return try CaloriesCommand.printDays(from: from, to: to, json: json, connection: connection)
        }
        guard to == nil else { throw CLIError("--to goes with 'remindctl calories --from': remindctl calories --from 2026-11-01 --to 2026-11-07") }
        let start = try Self.instant(CommandContext.current.typedTime(since) ?? "7d")
        let entries = try connection.call(Reminders.History.self, .init(since: start, reminder: reminder, limit: limit ?? 100)).entries
        if json { return try out.json(entries) }  // UTC stays in JSON
        if entries.isEmpty { return out.print(out.words(StatusMessages.nothingSince, out.time(start))) }
        out.table(
            out.headings(CommandMessages.when, StatusMessages.whatHeading, CommandMessages.reminder, StatusMessages.occurrenceHeading, StatusMessages.lateHeading),
            entries.map { entry in
                [out.time(entry.handledUtc), Self.what(entry), entry.shownName, out.clockTime(entry.scheduledUtc), Self.lateness(entry.lateSeconds)]
            })
    }

    /// The WHAT column: the kind in words, with the repeats and the clock going back.
    static func what(_ entry: HistoryEntryValue) -> String {
        let kinds: [String: Message] = [
            "fired": StatusMessages.fired, "late": StatusMessages.late, "postponed": StatusMessages.postponed, "logged-ahead": StatusMessages.loggedAhead,
            "logged": StatusMessages.logged,
        ]
        var text = kinds[entry.kind].map { out.words($0) } ?? out.state(entry.kind)
        text += doseText(entry.amount, entry.unit).map { ", \($0)" } ?? ""
        if entry.forced == true { text = out.words(StatusMessages.forcedPast, text) }
        if let again = entry.announcedAgain {
            text = out.words(StatusMessages.announcedAgain, text, again)
            if let last = entry.lastAnnouncedUtc { text = out.words(StatusMessages.lastAnnounced, text, out.clock(last)) }
        }
        if entry.replanned { text = out.words(StatusMessages.replanned, text) }
        return text
    }

    /// How late, in words a person reads at a glance: `-`, `45 s`, `6 min`, `1 h 5 min`, `2 d 3 h` (it said `381s`).
    static func lateness(_ seconds: Int64) -> String {
        switch seconds {
        case ...0: return "-"
        case ..<60: return "\(seconds) s"
        case ..<3600: return "\(seconds / 60) min"
        case ..<86400: return "\(seconds / 3600) h" + (seconds % 3600 >= 60 ? " \(seconds % 3600 / 60) min" : "")
        default: return "\(seconds / 86400) d" + (seconds % 86400 >= 3600 ? " \(seconds % 86400 / 3600) h" : "")
        }
    }

    /// `7d`, `24h`, `30m` back from now as an ISO instant; a date or an instant is passed on for the daemon
    /// to read in its zone; anything else is refused here.
    static func instant(_ text: String) throws -> String {
        if let ago = TimeText.ago(text, now: CommandContext.current.now()) { return ago.description }
        guard ISO8601.parseDate(text) != nil || ISO8601.parseInstant(text) != nil else {
            throw CLIError("invalid --since \(quotedInput(text)): write a length back from now (7d, 24h, 30m), a date (2026-11-01) or a time (2026-11-01T08:00)")
        }
        return text
    }
}

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the daemon's state.",
        discussion: """
            --format waybar prints one JSON line for a status bar: text (what is due now, else the next \
            reminder), tooltip (what is due, missed today, how many of today's are done, the next), and class \
            and alt: due, overdue (due for 10 minutes or more), missed (today) or idle.

            Examples:
              remindctl status --json
              remindctl status --format waybar
            """)

    /// What `--format` prints.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, waybar
    }

    @Flag(help: "Print the status as JSON.") var json = false
    /// What `--format` is when not given.
    static let defaultFormat = Format.text

    @Option(help: ArgumentHelp("text, or waybar: one JSON line for a status bar's custom module.", valueName: "format")) var format = StatusCommand.defaultFormat
    @OptionGroup var connection: ConnectionOptions

    func run() throws { try Self.show(json: json, format: format, daemon: connection) }

    /// What `status` prints (also run without argument-parser: ``FrequentCommands``).
    static func show(json: Bool, format: Format, daemon: some DaemonConnecting) throws {
        let status = try daemon.call(Reminders.Status.self)
        if format == .waybar {
            let today = try daemon.call(Reminders.Occurrences.self, .init(date: nil))
            let line = StatusBarLine(occurrences: today.occurrences, next: status.next, now: CommandContext.current.now(), output: out)
            return try out.jsonLine(line)
        }
        if json { return try out.json(status) }
        var headline = out.words(StatusMessages.headline, count: status.reminders, status.version, status.reminders)
        if let next = status.next { headline = out.words(StatusMessages.headlineNext, headline, next.shownName, out.near(next.utc)) }
        out.print(headline)
        out.print(out.words(StatusMessages.remindersLine, status.reminders, status.enabled))
        out.print(out.words(StatusMessages.storeLine, status.storePath))
        out.print(out.words(status.journal ? StatusMessages.journalYes : StatusMessages.journalNo))
        out.print(out.words(StatusMessages.zoneLine, status.timeZone, zoneReason(status)))
        let user = CommandContext.current.zone
        if user.identifier != status.timeZone {
            out.print(out.words(StatusMessages.yourZoneLine, user.identifier, CommandContext.current.zoneSource))
        }
        if let next = status.next, let instant = Output.instant(next.utc) {
            out.print(out.words(StatusMessages.nextLine, out.time(instant), out.left(until: instant), next.shownName))
        }
        if let collection = status.collection {
            out.print(collection.heldBecause.map { out.words(StatusMessages.collectionHeld, collection.folder, $0) } ?? out.words(StatusMessages.collectionLine, collection.folder))
        }
    }
}

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print firings as the daemon handles them, until interrupted.",
        discussion: """
            Keeps watching across daemon restarts: when the connection is lost it says so on stderr and \
            connects again (after 0.5 s, then up to every 10 s). Firings handled while it was away are in \
            'remindctl history'.

            Examples:
              remindctl watch
              remindctl watch --json | jq -c .
              remindctl watch --exit-on-disconnect    # exit with status 1 when the daemon goes away
            """)

    @Flag(help: "Print one JSON object per line.") var json = false
    @Flag(help: "Exit with status 1 when the connection to the daemon is lost, instead of connecting again.")
    var exitOnDisconnect = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        if exitOnDisconnect { return try connection.withConnection(watch) }
        var delay = 0.5
        var lost = false
        while true {
            do {
                let client = try CommandContext.current.connect(connection.socketPath)
                if lost { Output.warn("connected to remindd again") }
                lost = false
                delay = 0.5
                try watch(client)
                return
            } catch let error as VarlinkConnection.ConnectionError {
                if case .foreignPeer = error { throw CLIError("cannot talk to remindd: \(error)") }
                Output.warn("\(lost ? "still no" : "lost the") connection to remindd (\(error)); trying again in \(delay) s")
            } catch let error as VarlinkError where error.name == Reminders.interface + "." + RemindErrors.WatchTooSlow.errorName {
                Output.warn("remindd dropped this watch for reading too slowly; trying again in \(delay) s")
            }
            lost = true
            usleep(useconds_t(delay * 1_000_000))
            delay = min(delay * 2, 10)
        }
    }

    private func watch(_ client: any VarlinkClient) throws {
        try client.stream(Reminders.Watch.self, NoFields()) { reply in
            let entry = reply.entry
            if json {
                try out.jsonLine(entry)  // UTC stays in JSON
            } else {
                let when = Output.instant(entry.handledUtc).map(out.time) ?? entry.handledUtc
                out.print("\(when)  \(entry.kind)  \(entry.reminderName)  \(entry.slot)\(entry.detail.map { "  (\($0))" } ?? "")")
            }
            return true
        }
    }

}
