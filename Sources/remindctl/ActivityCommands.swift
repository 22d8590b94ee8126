import ArgumentParser
import FoundationEssentials
import Glibc
import ReminderCore
import ReminderInterface
import VarlinkProtocol

private struct LogParameters: Encodable { let reminder: String; let at: String? }
private struct SnoozeParameters: Encodable { let reminder: String; let minutes: Int }
private struct CountParameters: Encodable { let count: Int }
private struct HistoryParameters: Encodable { let since: String?; let reminder: String?; let limit: Int }
private struct FiringsReply: Decodable { let firings: [FiringValue] }
private struct FiringReply: Decodable { let firing: FiringValue }
private struct HistoryReply: Decodable { let entries: [HistoryEntryValue] }
private struct WatchReply: Decodable { let entry: HistoryEntryValue }

struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Log an intake: a firing on the same day at or after it is suppressed.",
        discussion: """
            --at takes a time today (07:45), a local date-time (2026-11-21T07:45) in the reminder's zone,
            or an instant with offset. A time in the future is refused.

            Examples:
              remindctl log "Vitamin D"
              remindctl log Meds --at 07:45
            """
    )

    @Argument(help: "The reminder's id or name.") var reminder: String
    @Option(help: ArgumentHelp("When it happened (default: now).", valueName: "time")) var at: String?
    @Flag(help: "Print the logged entry as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let reply = try connection.call("Log", LogParameters(reminder: reminder, at: at), as: LogReply.self)
        if json { return try printJSON(reply) }
        print("Logged \(reminder) at \(humanTime(reply.local))")
    }
}

struct SnoozeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze", abstract: "Announce a reminder's latest firing again after some minutes.",
        discussion: "Example:\n  remindctl snooze Meds --minutes 15")

    @Argument(help: "The reminder's id or name.") var reminder: String
    @Option(help: "Minutes until it is announced again (1-1440).") var minutes = 10
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let reply = try connection.call("Snooze", SnoozeParameters(reminder: reminder, minutes: minutes), as: FiringReply.self)
        print("Snoozed \(reply.firing.reminderName) (\(reply.firing.slot)) for \(minutes) min")
    }
}

struct NextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next", abstract: "Show the next firings across all reminders.",
        discussion: "Examples:\n  remindctl next\n  remindctl next --count 3 --json")

    @Option(help: "How many firings.") var count = 10
    @Flag(help: "Print a JSON array of firings.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        guard count >= 1 else { throw CLIError("invalid --count \(count): give 1 or more") }
        let firings = try connection.call("Next", CountParameters(count: count), as: FiringsReply.self).firings
        if json { return try printJSON(firings) }
        if firings.isEmpty { return print("Nothing scheduled.") }
        printTable(["WHEN", "REMINDER", "SLOT"], firings.map { [humanTime($0.local), $0.reminderName, $0.slot] })
    }
}

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Handled firings, or with --from/--to, calories day by day.",
        discussion: """
            Without --from: the firings handled since --since (7d, 24h, 30m, a date or an instant): fired,
            suppressed, late, skipped (catch-up off), and missed (announced, nothing logged before the
            occurrence's window closed; see 'remindctl add --window'). With --from (and --to, default today): each day's workouts and
            calories burned, and the food eaten.

            Examples:
              remindctl history --since 7d
              remindctl history --reminder Meds --json
              remindctl history --from 2026-11-01 --to 2026-11-07
            """
    )

    @Option(help: ArgumentHelp("First day of a calorie history (YYYY-MM-DD).", valueName: "date")) var from: String?
    @Option(help: ArgumentHelp("Last day of a calorie history (default today).", valueName: "date")) var to: String?

    @Option(help: ArgumentHelp("How far back (default: 7d).", valueName: "when")) var since = "7d"
    @Option(help: "Only this reminder (id or name).") var reminder: String?
    @Option(help: "At most this many entries.") var limit = 100
    @Flag(help: "Print a JSON array of entries.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        if let from {
            return try dayHistory(from: from)
        }
        guard to == nil else { throw CLIError("--to goes with --from: remindctl history --from 2026-11-01 --to 2026-11-07") }
        let start = Self.instant(since)
        let entries = try connection.call("History", HistoryParameters(since: start, reminder: reminder, limit: limit), as: HistoryReply.self).entries
        if json { return try printJSON(entries) }
        if entries.isEmpty { return print("No firings since \(start).") }
        printTable(
            ["HANDLED (UTC)", "KIND", "REMINDER", "SLOT", "LATE"],
            entries.map { [$0.handledUtc, $0.kind + ($0.replanned ? " (re-planned)" : ""), $0.reminderName, $0.slot, $0.lateSeconds > 0 ? "\($0.lateSeconds)s" : "-"] })
    }

    private func dayHistory(from: String) throws {
        struct Range: Encodable { let from: String; let to: String? }
        struct Days: Decodable { let days: [DayValue] }
        let days = try connection.call("DayHistory", Range(from: from, to: to), as: Days.self).days
        if json { return try printJSON(days) }
        for day in days {
            let date = ISO8601.parseDate(day.date)!
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            let title = "\(date.weekday.displayName) \(date.day) \(months[date.month - 1])"
            if day.workouts.isEmpty {
                print("No workouts logged on \(title)\(day.consumed > 0 ? " (\(day.consumed) kcal eaten)" : "")")
            } else {
                let list = day.workouts.map { "\($0.name) \($0.minutes ?? 0) min" }.joined(separator: ", ")
                print("\(title): \(day.burned) kcal burned (\(list)); \(day.consumed) kcal eaten; net \(day.net)")
            }
        }
    }

    /// `7d`, `24h`, `30m` back from now as an ISO instant; anything else is passed on for the daemon to read.
    static func instant(_ text: String) -> String {
        TimeText.ago(text, now: SystemEnvironment.now())?.description ?? text
    }
}

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the daemon's state.",
        discussion: "Example:\n  remindctl status --json")

    @Flag(help: "Print the status as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let status = try connection.call("Status", NoParameters(), as: StatusValue.self)
        if json { return try printJSON(status) }
        print("remindd \(status.version): \(status.status)")
        print("reminders: \(status.reminders) (\(status.enabled) enabled)")
        print("store:     \(status.storePath)")
        print("journal:   \(status.journal ? "yes" : "no (firings go to stderr)")")
        print("zone:      \(status.systemTimeZone)")
    }
}

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print firings as the daemon handles them, until interrupted.",
        discussion: """
            Keeps watching across daemon restarts: when the connection is lost it says so on stderr and
            connects again (after 0.5 s, then up to every 10 s). Firings handled while it was away are in
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
                let client = try VarlinkConnection(path: connection.socketPath)
                if lost { Self.say("connected to remindd again") }
                lost = false
                delay = 0.5
                try watch(client)
                return
            } catch let error as VarlinkConnection.ConnectionError {
                if case .foreignPeer = error { throw CLIError("cannot talk to remindd: \(error)") }
                Self.say("\(lost ? "still no" : "lost the") connection to remindd (\(error)); trying again in \(delay) s")
            } catch let error as VarlinkError where error.name == RemindersAPI.method("WatchTooSlow") {
                Self.say("remindd dropped this watch for reading too slowly; trying again in \(delay) s")
            }
            lost = true
            usleep(useconds_t(delay * 1_000_000))
            delay = min(delay * 2, 10)
        }
    }

    private func watch(_ client: VarlinkConnection) throws {
        try client.stream(RemindersAPI.method("Watch")) { parameters in
            let entry = try parameters.decode(WatchReply.self).entry
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(entry), as: UTF8.self))
            } else {
                print("\(entry.handledUtc)  \(entry.kind)  \(entry.reminderName)  \(entry.slot)\(entry.detail.map { "  (\($0))" } ?? "")")
            }
            fflush(nil)  // every stream: one line per firing reaches a pipe at once
            return true
        }
    }

    /// A line on stderr, at once.
    private static func say(_ text: String) {
        let line = Array("remindctl: \(text)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
