import ArgumentParser
import ReminderCore
import ReminderInterface

private struct RoutineParameters: Encodable { let id: String }
private struct RoutineSelectParameters: Encodable { let id: String; let starts: String?; let remind: String? }
private struct RoutinesReply: Decodable { let routines: [RoutineValue] }
private struct RoutineReply: Decodable { let routine: RoutineValue }
private struct SelectionReply: Decodable { let selection: RoutineSelectionValue? }

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
        let routines = try connection.call("RoutineList", NoParameters(), as: RoutinesReply.self).routines
        if json { return try printJSON(routines) }
        printTable(["ID", "NAME", "LEVEL", "TRAINING DAYS", "DESCRIPTION"], routines.map {
            [$0.id, $0.name, $0.difficulty, String($0.days.filter { !$0.rest }.count), $0.description]
        })
    }
}

struct RoutineShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "A routine's week, Monday to Sunday (day 1 on Monday).",
        discussion: "Example:\n  remindctl routine show beginner-full-body")

    @Argument(help: "The routine id.") var id: String
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let routine = try connection.call("RoutineShow", RoutineParameters(id: id), as: RoutineReply.self).routine
        if json { return try printJSON(routine) }
        print("\(routine.name) (\(routine.difficulty)): \(routine.description)\n")
        let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        for (weekday, day) in zip(weekdays, routine.days) {
            let mark = day.rest ? Style.paint("rest ", "34") : Style.paint("train", "32;1")
            let what = day.rest ? day.description : day.exercises.joined(separator: ", ")
            print("\(weekday)  \(mark)  \(day.title) - \(what)\(day.notes.map { " (\($0))" } ?? "")")
        }
    }
}

struct RoutineSelectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "select", abstract: "Follow a routine; --remind adds reminders for its training days and plans its rest days.",
        discussion: "Example:\n  remindctl routine select beginner-full-body --starts 2026-11-23 --remind 18:00")

    @Argument(help: "The routine id.") var id: String
    @Option(help: "The date of day 1 (default today).") var starts: String?
    @Option(help: "Remind at this time on training days (HH:MM).") var remind: String?
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        guard let selection = try connection.call("RoutineSelect", RoutineSelectParameters(id: id, starts: starts, remind: remind), as: SelectionReply.self).selection else { return }
        print("Following \(selection.routine) from \(selection.starts)")
        if selection.remind != nil {
            print("Added \(selection.reminders.count) reminders and planned \(selection.restDays.count) rest days; 'remindctl routine clear' removes them")
        }
    }
}

struct RoutineCurrentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "current", abstract: "The routine you follow.", discussion: "Example:\n  remindctl routine current --json")

    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let selection = try connection.call("RoutineCurrent", NoParameters(), as: SelectionReply.self).selection
        if json { return try printJSON(selection) }
        guard let selection else { return print("No routine selected. See 'remindctl routine list'.") }
        print("Following \(selection.routine) since \(selection.starts)\(selection.remind.map { ", reminders at \($0)" } ?? "")")
    }
}

struct RoutineClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Stop following the routine; removes exactly the reminders and rest days it added.",
        discussion: "Example:\n  remindctl routine clear")

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        _ = try connection.call("RoutineClear", NoParameters(), as: EmptyReply.self)
        print("Routine cleared")
    }
}
