import ArgumentParser
import ReminderCore
import ReminderInterface


struct RoutineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routine", abstract: "Recommended weekly routines: training days and rest days.",
        discussion: "Routines are TOML files in share/remindd/routines and ~/.config/remindd/routines.",
        subcommands: [RoutineListCommand.self, RoutineShowCommand.self, RoutineSelectCommand.self, RoutineCurrentCommand.self, RoutineClearCommand.self])
}

struct RoutineListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List routines.", discussion: "Example:\n  remindctl routine list")

    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let routines = try connection.call(Routines.List.self).routines
        if json { return try out.json(routines) }
        out.table(["ID", "NAME", "LEVEL", "TRAINING DAYS", "DESCRIPTION"], routines.map {
            [$0.id, $0.name, $0.difficulty, String($0.days.filter { !$0.rest }.count), $0.description]
        })
    }
}

struct RoutineShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "A routine's week, Monday to Sunday (day 1 on Monday).",
        discussion: "Example:\n  remindctl routine show beginner-full-body")

    @Argument(help: "The routine id.", completion: .custom(Completions.routines)) var id: String
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let routine = try connection.call(Routines.Show.self, .init(id: id)).routine
        if json { return try out.json(routine) }
        out.print("\(routine.name) (\(routine.difficulty)): \(routine.description)\n")
        let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        for (weekday, day) in zip(weekdays, routine.days) {
            let mark = day.rest ? out.paint("rest ", .blue) : out.paint("train", .greenBold)
            let what = day.rest ? day.description : day.exercises.joined(separator: ", ")
            out.print("\(weekday)  \(mark)  \(day.title) - \(what)\(day.notes.map { " (\($0))" } ?? "")")
        }
    }
}

struct RoutineSelectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "select", abstract: "Follow a routine; --at adds reminders for its training days and plans its rest days.",
        discussion: "Example:\n  remindctl routine select beginner-full-body --start 2026-11-23 --at 18:00")

    @Argument(help: "The routine id.", completion: .custom(Completions.routines)) var id: String
    @Option(help: ArgumentHelp("The date of day 1 (YYYY-MM-DD, default today).", valueName: "date")) var start: String?
    @Option(help: ArgumentHelp("Remind at this time on training days (HH:MM).", valueName: "time")) var at: String?
    /// The spellings of remindd 0.1, kept for one release.
    @Option(name: .customLong("starts"), help: .hidden) var oldStart: String?
    @Option(name: .customLong("remind"), help: .hidden) var oldAt: String?
    @Flag(help: "Print the selection as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let selection = try connection.call(Routines.Select.self, .init(id: id, start: try alias(start, old: oldStart, "--start"), at: try alias(at, old: oldAt, "--at")))
            .selection
        if json { return try out.json(selection) }
        out.print("Following \(selection.routine) from \(selection.start)")
        if selection.at != nil {
            out.print("Added \(selection.reminders.count) reminders and planned \(selection.restDays.count) rest days; 'remindctl routine clear' removes them")
        }
    }
}

struct RoutineCurrentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "current", abstract: "The routine you follow.", discussion: "Example:\n  remindctl routine current --json")

    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let selection = try connection.call(Routines.Current.self).selection
        if json { return try out.json(selection) }
        guard let selection else { return out.print("No routine selected. See 'remindctl routine list'.") }
        out.print("Following \(selection.routine) since \(selection.start)\(selection.at.map { ", reminders at \($0)" } ?? "")")
    }
}

struct RoutineClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Stop following the routine; removes exactly the reminders and rest days it added.",
        discussion: "Example:\n  remindctl routine clear")

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        _ = try connection.call(Routines.Clear.self)
        out.print("Routine cleared")
    }
}
