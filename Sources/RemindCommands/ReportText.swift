import ReminderCore
import ReminderInterface
import Translation

/// The report's charts in the terminal, within 80 columns: each medication's amounts, as-needed weeks and stock,
/// the habit's strength, days, weekdays and streaks, and the calories, as lines of Unicode blocks (a column
/// per day, or per few days when the period is longer than the line) and, on a terminal, colour (the symbols
/// read without it).
enum ReportText {
    /// Columns a chart's line takes at most (after its 10-column name).
    static let chartWidth = 56

    /// The lines of the medications', the habit's and the calories' parts; none when the report has none.
    static func lines(_ report: Reminders.Report.Reply, colour: Bool) -> [String] {
        var lines: [String] = []
        for medication in report.medications ?? [] {
            let unit = medication.unit
            lines += ["", ReportCommand.shortened("\(medication.reminderName) (\(unit))", 80)]
            let amounts = medication.taken.map(\.amount)
            let total = amounts.reduce(0, +)
            lines.append(row(out.words(CommandMessages.taken), amounts, colour: colour ? "32" : nil))
            if let most = medication.taken.max(by: { $0.amount < $1.amount }), most.amount > 0 {
                lines.append("  " + out.words(ReportMessages.takenOnDays, count: amounts.count, amount(total, unit), amounts.filter { $0 > 0 }.count, amounts.count,
                                               amount(most.amount, unit), most.date))
            } else {
                lines.append("  " + out.words(ReportMessages.nothingLogged))
            }
            if let weeks = medication.asNeededWeeks {
                lines.append(row(out.words(ReportMessages.perWeek), weeks.map { Double($0.doses) }, colour: colour ? "35" : nil))
                if let most = weeks.max(by: { $0.doses < $1.doses }), most.doses > 0 {
                    let doses = weeks.map(\.doses).reduce(0, +)
                    let dosesInWords = out.words(ReportMessages.doseCount, count: doses, doses)
                    lines.append("  " + out.words(ReportMessages.asNeededWeeks, count: weeks.count, dosesInWords, weeks.count, most.doses, most.week))
                }
            }
            if let stock = medication.stock, let last = stock.last {
                lines.append(row(out.words(ReportMessages.stockRow), stock.map(\.left), colour: colour ? "36" : nil))
                let refills = stock.filter { $0.added > 0 }.map { out.words(ReportMessages.amountOn, out.words.decimal(SVGDrawing.number($0.added)), $0.date) }
                let left = out.words(ReportMessages.leftOn, amount(last.left, unit), last.date)
                lines.append(ReportCommand.wrapped(refills.isEmpty ? left : out.words(ReportMessages.refilled, left, refills.joined(separator: ", ")), width: 80, indent: 2))
            }
        }
        if let habits = report.habits { lines += self.habits(habits, colour: colour) }
        if let fitness = report.fitness {
            lines += ["", out.words(ReportMessages.caloriesADay)]
            let days = Double(max(1, fitness.days.count))
            for (name, values, code) in [(ReportMessages.eaten, fitness.days.map { Double($0.consumed) }, "33"), (ReportMessages.burned, fitness.days.map { Double($0.burned) }, "34"),
                                         (ReportMessages.net, fitness.days.map { Double($0.net) }, "0")] {
                let average = out.words(ReportMessages.average, SVGDrawing.number((values.reduce(0, +) / days).rounded()))
                lines.append(row(out.words(name), values, colour: colour && code != "0" ? code : nil) + " " + average)
            }
        }
        return lines
    }

    /// The habit's part: strength, the days as a calendar (a row per weekday), weekdays, streaks.
    static func habits(_ habits: ReportHabitsValue, colour: Bool) -> [String] {
        var lines = ["", out.words(ReportMessages.habit)]
        lines.append(row(out.words(ReportMessages.strengthRow), habits.days.map { $0.strength * 100 }, colour: colour ? "32" : nil, maximum: 100)
            + (habits.days.last.map { " " + out.words(ReportMessages.percent, Int(($0.strength * 100).rounded())) } ?? ""))
        let symbols: [String: (String, String)] = [
            "active": ("■", "32"), "rest": ("r", "35"), "frozen": ("*", "34"), "recovered": ("+", "32"), "missed": ("✕", "1;31"), "open": ("-", "0"),
        ]
        let legend: [(String, Message)] = [
            ("■", ReportMessages.active), ("r", ReportMessages.rest), ("*", ReportMessages.frozen), ("+", ReportMessages.recovered),
            ("✕", CommandMessages.missed), ("-", ReportMessages.today),
        ]
        lines.append("  " + legend.map { "\($0.0) \(out.words($0.1))" }.joined(separator: "  "))
        lines += weekRows(habits.days.map { day in
            let (symbol, code) = symbols[day.state] ?? ("?", "0")
            return (day.date, colour && code != "0" ? "\u{1B}[\(code)m\(symbol)\u{1B}[0m" : symbol)
        })
        let most = max(1, habits.activeByWeekday.max() ?? 1)
        lines.append("  " + out.words(ReportMessages.byWeekday) + ":")
        for (index, weekday) in Weekday.mondayFirst.enumerated() {
            let count = habits.activeByWeekday[index]
            lines.append("  \(out.words.name(of: weekday, abbreviated: true))  " + ReportCommand.bar(Double(count) / Double(most), width: 30) + " \(count)")
        }
        if !habits.streaks.isEmpty {
            let longest = habits.streaks.map(\.length).max() ?? 1
            lines.append("  " + out.words(ReportMessages.longestStreaks) + ":")
            for streak in habits.streaks {
                let bar = ReportCommand.bar(Double(streak.length) / Double(longest), width: 30)
                lines.append("  " + out.words(CommandMessages.fromUntil, streak.start, streak.end) + "  " + bar + " " + out.words(ReportMessages.daysShort, streak.length))
            }
        }
        return lines
    }

    /// The most weeks a row of ``weekRows`` shows (80 columns).
    static let weeksShown = 70

    /// Days as seven rows, Monday to Sunday, a column per week: the last ``weeksShown`` weeks of them.
    static func weekRows(_ days: [(date: String, cell: String)]) -> [String] {
        guard let first = days.first.flatMap({ ISO8601.parseDate($0.date) }) else { return [] }
        let leading = first.weekday.mondayFirstIndex
        var grid = Array(repeating: [String](), count: 7)
        for index in 0..<leading { grid[index].append(" ") }
        for (index, day) in days.enumerated() { grid[(leading + index) % 7].append(day.cell) }
        let weeks = grid[0].count
        return Weekday.mondayFirst.enumerated().map { index, weekday in
            "  \(out.words.name(of: weekday, abbreviated: true))  " + grid[index].dropFirst(max(0, weeks - weeksShown)).joined()
        }
    }

    /// `2 tablets`, `400 mg`.
    static func amount(_ value: Double, _ unit: String) -> String {
        let dose = Dose(thousandths: Int64((value * 1000).rounded()), unit: unit)
        return out.words.decimal(out.words.dose(dose))
    }

    /// `  name      ▁▂▃▅▇ ...`: values as blocks, a column per value or the mean of a few, scaled to the largest
    /// (or `maximum`); a column of nothing but zeros is blank. Negative values lift the baseline to the lowest.
    static func row(_ name: String, _ values: [Double], colour code: String?, maximum: Double? = nil) -> String {
        let perColumn = max(1, (values.count + chartWidth - 1) / chartWidth)
        let columns = stride(from: 0, to: values.count, by: perColumn).map { start in
            let slice = values[start..<min(start + perColumn, values.count)]
            return (mean: slice.reduce(0, +) / Double(slice.count), any: slice.contains { $0 != 0 })
        }
        let lowest = min(0, columns.map(\.mean).min() ?? 0)
        let highest = maximum ?? max(columns.map(\.mean).max() ?? 0, lowest + 1e-9)
        let blocks = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let line = columns.map { column -> String in
            guard column.any || lowest < 0 else { return " " }
            let level = Int(((column.mean - lowest) / (highest - lowest) * 7).rounded())
            return blocks[max(0, min(7, level))]
        }.joined()
        let padded = (name + String(repeating: " ", count: max(1, 10 - name.count)))
        return "  " + padded + (code.map { "\u{1B}[\($0)m\(line)\u{1B}[0m" } ?? line)
    }
}
