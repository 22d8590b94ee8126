import ArgumentParser
import FoundationEssentials
import Glibc
import ReminderCore
import ReminderInterface



struct StreakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streak",
        abstract: "Show the overall streak, freezes banked and habit strength.",
        discussion: """
            A day counts when anything was logged (remindctl log) or it is a rest day. A single missed day \
            is covered by a banked freeze (one is earned every 7 streak days, at most 5).

            With a goal: consecutive scheduled days on which every slot of that reminder was logged (days \
            without a slot and rest days are neutral).

            Examples:
              remindctl streak
              remindctl streak "Vitamin D"
              remindctl streak --json
            """
    )

    @Argument(help: "A reminder (id or name) for its own streak.", completion: .custom(Completions.reminders)) var goal: String?
    @Flag(help: "Print the streak as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        if let goal {
            let reminder = try connection.call(Reminders.Get.self, .init(reminder: goal)).reminder
            struct GoalStreakJSON: Encodable { let goal: String; let streak: Int }
            if json { return try out.json(GoalStreakJSON(goal: reminder.name, streak: reminder.streak)) }
            return out.print(out.words(StatusMessages.goalStreak, count: reminder.streak, reminder.name, reminder.streak))
        }
        let streak = try connection.call(Habits.Streak.self)
        if json { return try out.json(streak) }
        if let current = streak.current {
            out.print(out.words(StatusMessages.currentStreak, count: current.length, current.length, current.start))
        } else {
            out.print(out.words(StatusMessages.noStreak))
        }
        if let best = streak.best { out.print(out.words(StatusMessages.bestStreak, count: best.length, best.length, best.start, best.end)) }
        out.print(out.words(StatusMessages.freezes, streak.freezes))
        out.print(out.words(StatusMessages.strength, streak.strength))
        if let deadline = streak.mustLogBy { out.print(out.words(StatusMessages.keepGoing, deadline)) }
        if streak.recoveryAvailable { out.print(out.words(StatusMessages.recoverable)) }
    }
}

struct RestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rest",
        abstract: "Plan and review rest days (they keep and extend the streak).",
        subcommands: [RestMarkCommand.self, RestUnmarkCommand.self, RestListCommand.self, RestStatsCommand.self, RestTipsCommand.self]
    )
}

struct RestMarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark",
        abstract: "Mark a day, or a range of days, as rest days.",
        discussion: """
            Reasons: Recovery (default), Travel, Illness, Busy Day, Other. Dates can be past or up to a year ahead.

            Examples:
              remindctl rest mark 2026-11-24 --reason Illness
              remindctl rest mark --from 2026-12-20 --to 2026-12-27 --reason Travel
              remindctl rest mark 2026-11-22 --light "Light Walk" --light "Gentle Stretching"
            """
    )

    @Argument(help: "The day (YYYY-MM-DD); or use --from/--to.") var date: String?
    @Option(help: "First day of a range.") var from: String?
    @Option(help: "Last day of a range.") var to: String?
    @Option(help: "Recovery, Travel, Illness, Busy Day or Other.", completion: .custom(Completions.restReasons)) var reason: String?
    @Option(help: "A light activity (Gentle Stretching, Light Walk, Breathing Exercises, or your own); repeatable.") var light: [String] = []
    @Flag(help: "Print the dates marked as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        guard let first = date ?? from else { throw CLIError("give a day (remindctl rest mark 2026-11-24) or a range (--from 2026-12-20 --to 2026-12-27)") }
        guard date == nil || from == nil else { throw CLIError("give either a day or --from/--to, not both") }
        let reply = try connection.call(Habits.RestMark.self, .init(from: first, to: to, reason: reason, light: light.isEmpty ? nil : light))
        if json { return try out.json(reply.dates) }
        let already = reply.alreadyMarked ?? []
        if already.count == reply.dates.count {
            return out.print(already.count == 1 ? "\(already[0]) is a rest day already: nothing changed" : "All \(already.count) days were rest days already: nothing changed")
        }
        out.print(reply.dates.count == 1 ? "Marked \(reply.dates[0]) as a rest day" : "Marked \(reply.dates.count) rest days, \(reply.dates.first!) to \(reply.dates.last!)"
            + (already.isEmpty ? "" : " (\(already.count) of them were already)"))
    }
}

struct RestUnmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unmark", abstract: "Remove a rest day.", discussion: "Example:\n  remindctl rest unmark 2026-11-24")

    @Argument(help: "The day (YYYY-MM-DD).") var date: String
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        _ = try connection.call(Habits.RestUnmark.self, .init(date: date))
        out.print(out.words(HabitMessages.restUnmarked, date))
    }
}

struct RestListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List rest days with their reasons: past ones and those planned.",
        discussion: """
            Examples:
              remindctl rest list
              remindctl rest list --from 2026-12-01 --to 2026-12-31
              remindctl rest list --from 2026-11-22 --json    # the planned ones, for a script
            """)

    @Option(help: "The first day (YYYY-MM-DD; default: the first rest day).") var from: String?
    @Option(help: "The last day (YYYY-MM-DD; default: the last one planned).") var to: String?
    @Flag(help: "Print the rest days as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let days = try connection.call(Habits.RestList.self, .init(from: from, to: to)).restDays
        if json { return try out.json(days) }
        if days.isEmpty { return out.print(out.words(from == nil && to == nil ? HabitMessages.noRestDays : HabitMessages.noRestDaysInRange)) }
        let rows = days.map { day in
            [day.date, day.reason, out.words(day.planned ? HabitMessages.planned : HabitMessages.past), day.light.joined(separator: ", ")]
        }
        out.table(out.headings(HabitMessages.dateHeading, HabitMessages.reasonHeading, CommandMessages.when, HabitMessages.lightHeading), rows)
    }
}

struct RestStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Rest days this month; active and rest days this week.", discussion: "Example:\n  remindctl rest stats --json")

    @Flag(help: "Print the figures as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let stats = try connection.call(Habits.RestStats.self)
        if json { return try out.json(stats) }
        out.print(out.words(HabitMessages.restThisMonth, stats.restDaysThisMonth))
        let (active, rest) = (stats.activeDaysThisWeek, stats.restDaysThisWeek)
        out.print(out.words(HabitMessages.thisWeek, out.words(HabitMessages.activeDays, count: active, active), out.words(HabitMessages.restDays, count: rest, rest)))
    }
}

struct RestTipsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tips", abstract: "Why and how often to rest.")

    func run() {
        out.print("""
            Rest is part of training: muscles grow during rest, not during the workout.
              Beginners:     2-3 rest days a week
              Intermediate:  1-2 rest days a week
              Advanced:      1 rest day a week
            Light activities keep you moving on a rest day: Gentle Stretching, a Light Walk, Breathing Exercises.
            Mark rest days ahead (remindctl rest mark --from ... --to ...): they keep and extend your streak.
            """)
    }
}

struct FreezeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "freeze", abstract: "Streak freezes: earned every 7 streak days, used on a single missed day.",
        subcommands: [FreezeHistoryCommand.self])
}

struct FreezeHistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Freezes earned and used.", discussion: "Example:\n  remindctl freeze history --json")

    @Flag(help: "Print the events as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let events = try connection.call(Habits.FreezeHistory.self).events
        if json { return try out.json(events) }
        if events.isEmpty { return out.print(out.words(HabitMessages.noFreezes)) }
        let headings = out.headings(HabitMessages.dateHeading, HabitMessages.eventHeading, HabitMessages.bankedHeading, CommandMessages.streak)
        out.table(headings, events.map { e in
            let said = ["earned": HabitMessages.earned, "used": HabitMessages.used, "max-reached": HabitMessages.maxReached][e.kind].map { out.words($0) } ?? e.kind
            return [e.date, said, String(e.banked), out.words(HabitMessages.streakDays, count: e.streak, e.streak)]
        })
    }
}

struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Restore the most recently broken streak (once, ever).",
        discussion: "The missed days become recovered days; freezes are not restored.\n\nExample:\n  remindctl recover --yes"
    )

    @Flag(help: "Do not ask for confirmation.") var yes = false
    @Flag(help: "Print the restored streak as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        if !yes {
            guard CommandContext.current.stdinIsTerminal else { throw CLIError("recovery can be used only once, ever: confirm with --yes") }
            out.print(out.words(HabitMessages.recoverOnce), terminator: "")
            guard let answer = readLine(), answer.lowercased().hasPrefix("y") else { return out.print(out.words(HabitMessages.nothingChanged)) }
        }
        let restored = try connection.call(Habits.Recover.self).streak
        if json { return try out.json(restored) }
        out.print(out.words(HabitMessages.restored, count: restored.length, restored.length, restored.start))
    }
}

struct AchievementsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "achievements", abstract: "Achievements unlocked and still to get.", discussion: "Example:\n  remindctl achievements --json")

    @Flag(help: "Print the achievements as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let achievements = try connection.call(Habits.Achievements.self).achievements
        if json { return try out.json(achievements) }
        let xp = achievements.filter { $0.unlocked != nil }.map(\.xp).reduce(0, +)
        out.table(["", out.words(HabitMessages.achievementHeading), "XP", out.words(HabitMessages.unlockedHeading)], achievements.map { a in
            [a.unlocked == nil ? " " : "✓", a.title, String(a.xp), a.unlocked ?? a.requirement]
        })
        out.print("\n" + out.words(HabitMessages.totalXP, xp))
    }
}

struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "A month of habit days, like cal: active, rest, frozen, missed, today.",
        discussion: """
            Colours on a terminal (NO_COLOR turns them off); symbols everywhere.

            Examples:
              remindctl calendar
              remindctl calendar --month 2026-11
            """
    )

    @Option(help: "The month, YYYY-MM (default: this month).") var month: String?
    @Flag(help: "Print the month as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let value = try connection.call(Habits.Calendar.self, .init(month: month))
        if json { return try out.json(value) }
        out.print(CalendarView.render(value, colour: out.colour), terminator: "")
    }
}

/// The `cal`-like month grid of `remindctl calendar`.
enum CalendarView {
    static let symbols: [String: (symbol: String, colour: String)] = [
        "active": ("#", "32"), "rest": ("R", "34"), "frozen": ("*", "36"), "recovered": ("+", "35"),
        "missed": (".", "31"), "open": ("?", "33"), "planned": ("r", "34"), "future": (" ", "0"), "none": (" ", "0"),
    ]

    static func render(_ value: CalendarValue, colour: Bool) -> String {
        let parts = value.month.split(separator: "-")
        let title = "\(out.words.name(ofMonth: Int(parts.last ?? "1") ?? 1, abbreviated: false)) \(parts[0])"
        let width = 7 * 4 - 1
        var lines: [String] = []
        lines.append(String(repeating: " ", count: max(0, (width - title.displayWidth) / 2)) + title)
        lines.append(out.words(StatusMessages.calendarLine, count: value.freezes, value.streak, value.freezes, value.strength))
        // Monday first, each name in two columns as cal writes them (`Mo`, `Di`, `Lu`).
        let monday = [Weekday.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
        let header = monday.map { day in
            let short = String(out.words.name(of: day, abbreviated: true).prefix(2))
            return " " + short + String(repeating: " ", count: max(0, 3 - short.displayWidth))
        }.joined()
        lines.append(String(header.reversed().drop { $0 == " " }.reversed()))
        guard let first = value.days.first.flatMap({ ISO8601.parseDate($0.date) }) else { return lines.joined(separator: "\n") + "\n" }
        let leading = (first.weekday.rawValue + 5) % 7  // Monday = 0
        var cells = Array(repeating: "    ", count: leading)
        for day in value.days {
            let number = Int(day.date.suffix(2))!
            let (symbol, code) = symbols[day.state] ?? ("?", "0")
            var cell = (number < 10 ? " " : "") + "\(number)" + symbol
            if colour {
                cell = "\u{1B}[\(day.today ? code + ";1;7" : code)m\(cell)\u{1B}[0m"
            }
            // The marker goes before today's number: after it, it read as the next day's ("23#<24").
            cells.append((day.today ? ">" : " ") + cell)
        }
        for start in stride(from: 0, to: cells.count, by: 7) {
            let row = cells[start..<min(start + 7, cells.count)].joined()
            lines.append(String(row.reversed().drop { $0 == " " }.reversed()))
        }
        lines.append(out.words(StatusMessages.calendarLegend))
        return lines.joined(separator: "\n") + "\n"
    }
}
