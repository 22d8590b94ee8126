import ArgumentParser
import FoundationEssentials
import Glibc
import ReminderCore
import ReminderInterface
import Synchronization

/// `remindctl report`: how well each reminder was kept over a period, as a table with a bar per reminder.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "How well each reminder was kept, with medications, habit and calories: text, SVG, PNG, PDF or HTML.",
        discussion: """
            Over --from to --to (YYYY-MM-DD; default the 90 days up to today), every enabled reminder with a \
            schedule, or those named. Taken on time: logged in its window or ahead of it; late: taken late after \
            it, with the median and 90th percentile minutes after its time; adherence: taken / (due - skipped). \
            Occurrences still due or ahead are not counted. Then each reminder's days as a heatmap; each \
            medication's amounts per day, as-needed doses per week and stock; and, for every reminder (no \
            --reminder), the calories, and with --habits the habit's strength, days, weekdays and streaks. The \
            header names who it is for (remindctl profile set --name). --json gives every figure.

            Examples:
              remindctl report
              remindctl report --from 2026-09-01 --to 2026-11-30 --reminder Metformin
              remindctl report --private > for-the-doctor.txt
              remindctl report --format pdf -o adherence.pdf
              remindctl report --habits --format html -o habit.html
              remindctl report --format html -o report.html
              remindctl report --format png | display
              remindctl report --json

            PNG and PDF are made from the SVG by rsvg-convert (Debian's librsvg2-bin).
            """)

    @Option(help: ArgumentHelp("The first day (default: 89 days before --to).", valueName: "date")) var from: String?
    @Option(help: ArgumentHelp("The last day (default: today).", valueName: "date")) var to: String?
    @Option(name: .customLong("reminder"), help: ArgumentHelp("A reminder's id or name (repeat for more).", valueName: "name"),
            completion: .custom(Completions.reminders)) var reminders: [String] = []
    @Option(name: .customLong("for"), help: ArgumentHelp("Only the reminders for this person (--for Anna; me: your own): their report alone.", valueName: "name"))
    var person: String?
    @Option(help: ArgumentHelp("text (the default), svg, png, pdf or html (the charts in one page).", valueName: "format"),
            completion: .list(formats))
    var format = "text"
    @Option(help: ArgumentHelp("The PDF's paper: a4 or letter (default: your locale's, LC_PAPER).", valueName: "paper"), completion: .list(["a4", "letter"]))
    var paper: String?
    @Option(name: .short, help: ArgumentHelp("Write to this file (created whole, or not at all) instead of standard output.", valueName: "file"))
    var output: String?
    @Flag(help: "Leave the reminders' names out (Medication 1, 2 ...), to share the report.") var `private` = false
    @Flag(help: "Add the habit's pages: strength, days, weekdays, streaks (--json has them always).") var habits = false
    @Flag(help: "Print the figures as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        for (flag, value) in [("--from", from), ("--to", to)] {
            if let value, ISO8601.parseDate(value) == nil { throw CLIError("invalid \(flag) \(quotedInput(value)): write YYYY-MM-DD, e.g. 2026-11-24") }
        }
        guard Self.formats.contains(format) else { throw CLIError("unknown --format \(quotedInput(format)): write \(Self.formats.dropLast().joined(separator: ", ")) or html") }
        let picture = PictureConverter.Format(rawValue: format)
        if picture != nil, output == nil, CommandContext.current.stdoutIsTerminal {
            throw CLIError("a \(format.uppercased()) is not for the terminal: give -o FILE, or pipe it to a program")
        }
        var report = try connection.call(Reminders.Report.self, .init(from: from, to: to, reminders: reminders.isEmpty ? nil : reminders, person: person))
        if `private` { Self.numbered(&report) }
        if json { return try out.json(report) }
        if person == nil, !`private` { Self.namingPeople(&report) }
        if !habits { report.habits = nil }  // the pages; --json keeps every figure
        let bytes: Data
        switch format {
        case "svg": bytes = Data(ReportChart.svg(report).render().utf8)
        case "html": bytes = Data(ReportChart.html(report).utf8)
        case "text":
            guard output != nil else { return try text(report) }
            // Into a file: collected as a pipe would get it (no colour).
            let collected = Collected()
            var context = CommandContext.current
            (context.write, context.stdoutIsTerminal) = ({ text in collected.text.withLock { $0 += text } }, false)
            try CommandContext.$current.withValue(context) { try text(report) }
            bytes = Data(collected.text.withLock { $0 }.utf8)
        case "pdf":
            let environment = CommandContext.current.environment
            let sheet = try paper.map(Self.paper) ?? ReportPages.Paper.fromLocale(environment)
            bytes = try PictureConverter.pdf(pages: ReportPages.pages(report, paper: sheet).map { $0.render(tooltips: false) }, paper: sheet, environment: environment)
        default:
            let drawing = ReportChart.svg(report)
            bytes = try PictureConverter.convert(drawing.render(tooltips: false), height: drawing.height, to: picture!, environment: CommandContext.current.environment)
        }
        guard let output else {
            if picture == nil { return out.print(String(decoding: bytes, as: UTF8.self), terminator: "") }
            return try writeAll(bytes, to: STDOUT_FILENO)
        }
        try Self.write(bytes, to: output)
    }

    /// `--paper`'s value.
    static func paper(_ text: String) throws -> ReportPages.Paper {
        guard let paper = ReportPages.Paper(rawValue: text.lowercased()) else { throw CLIError("unknown --paper \(quotedInput(text)): write a4 or letter") }
        return paper
    }

    /// The formats `--format` takes.
    static let formats = ["text", "svg", "png", "pdf", "html"]

    /// What the text report printed, kept for `-o`.
    private final class Collected: Sendable {
        let text = Mutex("")
    }

    /// The report as text, printed.
    private func text(_ report: Reminders.Report.Reply) throws {
        let days = Self.days(report)
        if let name = report.profileName { out.print(Self.shortened(out.words(ReportMessages.forPerson, name), 80)) }
        out.print(out.words(ReportMessages.textHeader, count: days, report.from, report.to, days, report.timeZone))
        out.print(out.words(ReportMessages.made, out.time(report.madeUtc)))
        defer { for line in ReportText.lines(report, colour: out.colour) { out.print(line) } }
        guard !report.reminders.isEmpty else { return out.print(out.words(ReportMessages.noReminders)) }
        out.print("")
        let headings = out.headings(
            CommandMessages.reminder, ReportMessages.dueHeading, ReportMessages.onTimeHeading, StatusMessages.lateHeading, ReportMessages.skippedHeading,
            ReportMessages.missedHeading, ReportMessages.adherenceHeading)
        out.table(headings, report.reminders.map { reminder in
            let adherence = reminder.adherence.map { Self.percent($0) + "  " + Self.bar($0, width: 12) } ?? "-"
            return [Self.shortened(reminder.reminderName, 20), String(reminder.due), String(reminder.onTime), String(reminder.late), String(reminder.skipped),
                    String(reminder.missed.count), adherence]
        })
        for reminder in report.reminders {
            var notes: [String] = []
            if let median = reminder.lateMinutesMedian, let p90 = reminder.lateMinutesP90 {
                notes.append(out.words(ReportMessages.lateNote, median, p90))
            }
            if !reminder.skipReasons.isEmpty {
                let reasons = reminder.skipReasons.map { "\($0.reason.isEmpty ? out.words(ReportMessages.noReason) : $0.reason) \($0.count)" }
                notes.append(out.words(ReportMessages.skippedNote, reasons.joined(separator: ", ")))
            }
            if !reminder.missed.isEmpty { notes.append(out.words(ReportMessages.missedNote, reminder.missed.map(Self.when).joined(separator: ", "))) }
            guard !notes.isEmpty else { continue }
            out.print(Self.shortened(reminder.reminderName, 79) + ":")
            for note in notes { out.print(Self.wrapped(note, width: 80, indent: 2)) }
        }
        for reminder in report.reminders {
            out.print("")
            out.print(Self.shortened(reminder.reminderName, 80))
            out.print(Heatmap.render(reminder.days, colour: out.colour), terminator: "")
        }
    }

    /// The report with its reminders numbered (Medication 1, 2 ...) instead of named, the same number for a
    /// reminder in every part.
    /// Each reminder for someone named with them (`Anna: Amoxicillin`), in every format, when the report holds
    /// more than one person's.
    static func namingPeople(_ report: inout Reminders.Report.Reply) {
        let people = Dictionary(report.reminders.compactMap { reminder in reminder.person.map { (reminder.reminderId, $0) } }) { first, _ in first }
        guard !people.isEmpty else { return }
        for index in report.reminders.indices { report.reminders[index].reminderName = report.reminders[index].shownName }
        for index in (report.medications ?? []).indices {
            if let person = people[report.medications![index].reminderId] {
                report.medications![index].reminderName = "\(person): \(report.medications![index].reminderName)"
            }
        }
    }

    static func numbered(_ report: inout Reminders.Report.Reply) {
        var numbers: [Int64: Int] = [:]
        func number(_ id: Int64) -> String {
            if numbers[id] == nil { numbers[id] = numbers.count + 1 }
            return "Medication \(numbers[id]!)"
        }
        for index in report.reminders.indices { report.reminders[index].reminderName = number(report.reminders[index].reminderId) }
        for index in (report.medications ?? []).indices { report.medications![index].reminderName = number(report.medications![index].reminderId) }
    }

    /// How many days the report covers.
    static func days(_ report: Reminders.Report.Reply) -> Int {
        (ISO8601.parseDate(report.to)?.dayNumber ?? 0) - (ISO8601.parseDate(report.from)?.dayNumber ?? 0) + 1
    }

    /// Writes `bytes` to `path` whole or not at all: to a temporary file beside it, then renamed over it.
    static func write(_ bytes: Data, to path: String) throws {
        let temporary = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        do {
            try bytes.write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            unlink(temporary)
            throw CLIError("cannot write \(path): give a file in a folder you can write to")
        }
    }

    /// `Thu 2026-11-05 20:00`: an ISO 8601 time on the user's clock, to the minute.
    static func when(_ iso: String) -> String {
        guard let instant = Output.instant(iso) else { return iso }
        let local = CommandContext.current.zone.localDateTime(at: instant)
        return "\(out.weekday(local.date)) \(local.date) " + ISO8601.pad(local.time.hour, 2) + ":" + ISO8601.pad(local.time.minute, 2)
    }

    /// `text` in lines of at most `width` columns, broken after commas, each indented by `indent` (the rest by
    /// two more).
    static func wrapped(_ text: String, width: Int, indent: Int) -> String {
        var lines: [String] = []
        var line = String(repeating: " ", count: indent)
        for (index, word) in text.split(separator: " ").enumerated() {
            if index > 0, line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent + 2) + word
            } else {
                line += (index > 0 ? " " : "") + word
            }
        }
        return (lines + [line]).joined(separator: "\n")
    }

    /// `name`, shortened with an ellipsis to `width` display columns (a table within 80 columns).
    static func shortened(_ name: String, _ width: Int) -> String {
        guard name.displayWidth > width else { return name }
        var shortened = ""
        for character in name {
            guard shortened.displayWidth + character.displayWidth < width else { break }
            shortened.append(character)
        }
        return shortened + "…"
    }

    /// `92.5%` as the user's language writes it (`92,5 %`).
    static func percent(_ value: Double) -> String {
        let tenths = Int((value * 1000).rounded())
        return out.words(ReportMessages.percent, out.words.decimal("\(tenths / 10).\(tenths % 10)"))
    }

    /// A bar of `width` cells in eighths of a cell (`█████▍`), padded with spaces.
    static func bar(_ value: Double, width: Int) -> String {
        let eighths = Int((max(0, min(1, value)) * Double(width * 8)).rounded())
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
        let cells = String(repeating: "█", count: eighths / 8) + partial
        return cells + String(repeating: " ", count: width - eighths / 8 - (partial.isEmpty ? 0 : 1))
    }
}

/// A reminder's days as a grid, a week per row (Monday first), each day its occurrences' states in time order:
/// a symbol for each (read without colour), and on a terminal a colour that also differs in lightness.
enum Heatmap {
    static let symbols: [String: (symbol: String, colour: String)] = [
        "taken": ("■", "32"), "suppressed": ("□", "2;32"), "taken-late": ("◆", "33"), "skipped": ("·", "34"), "missed": ("✕", "1;31"),
        "paused": ("‖", "2"), "due": ("-", "0"), "upcoming": ("-", "0"),
    ]
    /// A state's symbol, coloured on a terminal.
    static func cell(_ state: String, colour: Bool) -> String {
        let (symbol, code) = symbols[state] ?? ("?", "0")
        return colour && code != "0" ? "\u{1B}[\(code)m\(symbol)\u{1B}[0m" : symbol
    }

    /// The most occurrences a day may have to be drawn (80 columns: 7 days of 9 cells and the date).
    static let maximumPerDay = 8

    /// Days shown a week per row; a longer period shows each day as one symbol, a column per week.
    static let weeksAtMost = 26

    static func render(_ days: [ReportReminderValue.Day], colour: Bool) -> String {
        let perDay = days.map(\.states.count).max() ?? 0
        guard perDay > 0 else { return "  " + out.words(ReportMessages.nothingScheduled) + "\n" }
        // A long period, or more a day than fit in a week's row: each day one symbol, a column per week.
        guard days.count <= weeksAtMost * 7, perDay <= maximumPerDay else {
            let weeks = (days.count + 6) / 7
            let note = weeks > ReportText.weeksShown ? out.words(ReportMessages.lastWeeks, ReportText.weeksShown) : ""
            return (["  " + out.words(ReportMessages.eachDayNote, note)] + ReportText.weekRows(days.map { day in
                (day.date, cell(ReportChart.summary(day.states), colour: colour))
            })).joined(separator: "\n") + "\n"
        }
        // Paused only in a period that has a pause.
        let shown = symbols.filter { $0.key != "upcoming" && ($0.key != "paused" || days.contains { $0.states.contains("paused") }) }
        var lines = ["  " + shown.sorted { $0.key < $1.key }.map { "\($0.value.symbol) \(out.state($0.key))" }.joined(separator: "  ")]
        guard let first = days.first.flatMap({ ISO8601.parseDate($0.date) }) else { return "\n" }
        let leading = first.weekday.mondayFirstIndex
        var cells = Array(repeating: String(repeating: " ", count: perDay), count: leading)
        for day in days {
            let drawn = day.states.map { cell($0, colour: colour) }
            cells.append(drawn.joined() + String(repeating: " ", count: perDay - day.states.count))
        }
        let monday = LocalDate(dayNumber: first.dayNumber - leading)
        for (week, start) in stride(from: 0, to: cells.count, by: 7).enumerated() {
            let row = cells[start..<min(start + 7, cells.count)].joined(separator: " ")
            lines.append(LocalDate(dayNumber: monday.dayNumber + 7 * week).description + "  " + String(row.reversed().drop { $0 == " " }.reversed()))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
