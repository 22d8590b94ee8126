import ArgumentParser
import FoundationEssentials
import Glibc
import ReminderCore
import ReminderInterface
import VarlinkProtocol
import Translation

struct SkipCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skip", abstract: "Skip the occurrence that is due, or else the next one (it will not be announced).",
        discussion: """
            A skipped occurrence is neither taken nor missed; 'today' and 'history' show it with the reason.

            Examples:
              remindctl skip Meds --reason "doctor said pause"
              remindctl skip "Evening walk"
            """)

    @Argument(help: "The reminder's id or name.", completion: .custom(Completions.reminders)) var reminder: String
    @Option(help: "Why (kept with it; up to 500 characters).") var reason: String?
    @Flag(help: "Print the skipped occurrence as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let occurrence = try connection.call(Reminders.Skip.self, .init(reminder: reminder, reason: reason)).occurrence
        if json { return try out.json(occurrence) }
        let line = out.words(CommandMessages.skippedLine, occurrence.reminderName, out.time(occurrence.local))
        out.print(reason.map { out.words(CommandMessages.withReason, line, $0) } ?? line)
        // Nothing was due: the next one was skipped, which may not be what was meant.
        if let time = Output.instant(occurrence.utc), time > CommandContext.current.now() {
            Output.warn(out.words(CommandMessages.skippedAhead, occurrence.reminderName))
        }
    }
}

struct UnskipCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unskip", abstract: "Undo the latest skip of an occurrence still ahead: it is announced at its time.",
        discussion: """
            For a skip made by mistake ('skip' with nothing due skips the next occurrence). A skip whose time has \
            come stays: log a dose taken then with 'remindctl log NAME --at TIME'.

            Examples:
              remindctl unskip Meds
              remindctl unskip Meds --json
            """)

    @Argument(help: "The reminder's id or name.", completion: .custom(Completions.reminders)) var reminder: String
    @Flag(help: "Print the occurrence as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let occurrence = try connection.call(Reminders.Unskip.self, .init(reminder: reminder)).occurrence
        if json { return try out.json(occurrence) }
        out.print(out.words(CommandMessages.unskippedLine, occurrence.reminderName, out.time(occurrence.local)))
    }
}
