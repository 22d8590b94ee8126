import ArgumentParser
import ReminderCore
import ReminderInterface

/// `remindctl pause`: pause a reminder (or all) with dates, and list the pauses.
struct PauseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause", abstract: "Pause reminders with dates: a hospital stay, a holiday, an empty pack.",
        discussion: """
            While paused, an occurrence is not announced, never missed and never escalated; 'today', 'history', \
            the report and the streaks count it apart (a paused day neither breaks nor extends a streak), and the \
            pause travels to your other devices with the reminder. 'remindctl resume' ends it early.

            Examples:
              remindctl pause Metformin --until 2026-12-08 --reason hospital
              remindctl pause --all --from 2026-12-20 --until 2027-01-03 --reason holiday
              remindctl pause list
            """,
        subcommands: [PauseSetCommand.self, PauseListCommand.self], defaultSubcommand: PauseSetCommand.self)
}

struct PauseSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Pause a reminder, or every reminder with --all (the default of 'pause').",
        discussion: """
            Times are in your zone: a date (from its midnight) or a date and time. A pause ends after now, starts \
            at most 31 days back (a hospital stay that began yesterday: the doses since are paused, not missed), \
            lasts at most a year, and pauses that overlap become one.

            Examples:
              remindctl pause Metformin --until 2026-12-08T08:00
              remindctl pause set list --until 2026-12-01   # a reminder named "list"
            """)

    @OptionGroup var which: OneOrAll
    @Option(help: ArgumentHelp("When the pause starts (default: now): 2026-12-01 or 2026-12-01T08:00.", valueName: "time")) var from: String?
    @Option(help: ArgumentHelp("When it ends: 2026-12-08 or 2026-12-08T08:00.", valueName: "time")) var until: String
    @Option(help: "Why (a hospital stay, a holiday ...; up to 200 characters).") var reason: String?
    @Flag(help: "Print the reply as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let context = CommandContext.current
        let reply = try connection.call(
            Reminders.Pause.self,
            .init(reminder: which.reminder, all: which.all ? true : nil, from: context.typedTime(from), until: context.typedTime(until) ?? until, reason: reason))
        if json { return try out.json(reply) }
        let (begins, ends) = (out.time(reply.from), out.time(reply.until))
        let name = reply.reminders.first?.name ?? which.reminder ?? ""
        out.print(which.all ? out.words(CommandMessages.pausedCount, reply.count, begins, ends) : out.words(CommandMessages.pausedLine, name, begins, ends))
        if reply.loggedWithin > 0 { out.print(out.words(CommandMessages.loggedWithinPause, reply.loggedWithin)) }
    }
}

struct PauseListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the pauses running and ahead (with --all, also those ended).",
        discussion: "Examples:\n  remindctl pause list\n  remindctl pause list --json", aliases: ["ls"])

    @Flag(help: "Also the pauses that ended.") var all = false
    @Flag(help: "Print a JSON array of pauses.") var json = false
    @OptionGroup var connection: ConnectionOptions

    /// One pause of one reminder.
    struct Listed: Encodable {
        let reminderId: Int64
        let reminderName: String
        let from: String
        let until: String
        let reason: String?
    }

    func run() throws {
        let now = CommandContext.current.now()
        let listed = try connection.allReminders().flatMap { reminder in
            (reminder.delivery.pause.pauses ?? []).filter { all || (Output.instant($0.until) ?? now) > now }.map {
                Listed(reminderId: reminder.id, reminderName: reminder.name, from: $0.from, until: $0.until, reason: $0.reason)
            }
        }
        if json { return try out.json(listed) }
        if listed.isEmpty { return out.print(out.words(CommandMessages.noPauses)) }
        out.table(
            out.headings(CommandMessages.reminder, CommandMessages.from, CommandMessages.until, CommandMessages.reason),
            listed.map { [$0.reminderName, out.time($0.from), out.time($0.until), $0.reason ?? "-"] })
    }
}

/// `remindctl resume`: end a pause now.
struct ResumeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume", abstract: "End a reminder's pause now (or every reminder's with --all).",
        discussion: """
            A pause running ends now and pauses ahead are removed; those that ended stay in the reports.

            Examples:
              remindctl resume Metformin
              remindctl resume --all
            """)

    @OptionGroup var which: OneOrAll
    @Flag(help: "Print the reply as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let reply = try connection.call(Reminders.Resume.self, .init(reminder: which.reminder, all: which.all ? true : nil))
        if json { return try out.json(reply) }
        let name = reply.reminders.first?.name ?? which.reminder ?? ""
        out.print(which.all ? out.words(CommandMessages.resumedCount, reply.count) : out.words(CommandMessages.resumedLine, name))
    }
}

/// One reminder by id or name, or `--all` (pause and resume): exactly one of them.
struct OneOrAll: ParsableArguments {
    @Argument(help: "The reminder's id or name (or --all).", completion: .custom(Completions.reminders)) var reminder: String?
    @Flag(help: "Every reminder (not the calendars' alarms).") var all = false

    func validate() throws {
        guard (reminder != nil) != all else { throw ValidationError("name one reminder, or give --all for every reminder") }
    }
}
