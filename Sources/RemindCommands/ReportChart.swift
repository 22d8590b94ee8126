import ReminderCore
import ReminderInterface
import Translation

/// The report as pictures, drawn with ``SVGDrawing``: a section per part (the header; a bar per reminder on a
/// 0-100 % axis; each reminder's days as a heatmap; each medication's amounts, as-needed weeks and stock; the
/// habit's strength, days, weekdays and streaks; the calories). `svg` stacks them in one picture (PNG and PDF
/// are made from it); `html` puts each in one page. State colours also differ in lightness, for colour-blind
/// readers and greyscale printers.
enum ReportChart {
    /// Each state's colour (and its lightness, for the legend's order): missed darkest, then taken, taken late,
    /// skipped, taken before the reminder (logged ahead of its time), paused; not yet decided lightest.
    static let colours: [(state: String, label: Message, fill: String)] = [
        ("missed", CommandMessages.missed, "#7f1d1d"), ("taken", CommandMessages.taken, "#2f9e44"), ("taken-late", CommandMessages.takenLate, "#f59f00"),
        ("skipped", CommandMessages.skipped, "#74c0fc"), ("suppressed", ReportMessages.takenBeforeReminder, "#c3fae8"),
        ("paused", CommandMessages.paused, "#dee2e6"), ("due", ReportMessages.notYet, "#f1f3f5"),
    ]
    /// The habit's day states, darkest first.
    static let habitColours: [(state: String, label: Message, fill: String)] = [
        ("missed", CommandMessages.missed, "#7f1d1d"), ("active", ReportMessages.active, "#2f9e44"), ("recovered", ReportMessages.recovered, "#a9e34b"),
        ("frozen", ReportMessages.frozen, "#74c0fc"), ("rest", ReportMessages.rest, "#d0bfff"), ("open", ReportMessages.today, "#f1f3f5"),
    ]
    static let width = 720.0
    static let margin = 16.0
    static let barLeft = 220.0
    static let barWidth = 400.0
    static let cellWidth = 14.0
    static let cellHeight = 8.0
    static let gridLeft = 110.0

    /// A titled part of the report.
    struct Section {
        var title: String?
        var drawing: SVGDrawing
    }

    /// The whole report as one picture.
    static func svg(_ report: Reminders.Report.Reply) -> SVGDrawing {
        SVGDrawing.stacked(sections(report).map(\.drawing) + [SVGDrawing(width: width, height: margin)])
    }

    /// The report's sections, in order.
    static func sections(_ report: Reminders.Report.Reply) -> [Section] {
        var sections = [Section(title: nil, drawing: header(report))]
        if !report.reminders.isEmpty { sections.append(Section(title: out.words(ReportMessages.adherenceSection), drawing: bars(report.reminders))) }
        for reminder in report.reminders {
            sections.append(Section(title: reminder.reminderName, drawing: heatmap(reminder)))
        }
        for medication in report.medications ?? [] { sections += self.medication(medication) }
        if let habits = report.habits { sections += self.habits(habits) }
        if let fitness = report.fitness {
            sections.append(Section(title: out.words(ReportMessages.caloriesSection), drawing: dailyChart(
                title: out.words(ReportMessages.caloriesPerDay), labels: fitness.days.map(\.date),
                series: [Series(name: "eaten", values: fitness.days.map { Double($0.consumed) }, colour: "#f59f00", style: .bars),
                         Series(name: "burned", values: fitness.days.map { Double($0.burned) }, colour: "#1c7ed6", style: .bars),
                         Series(name: "net (eaten - burned)", values: fitness.days.map { Double($0.net) }, colour: "#212529", style: .line)])))
        }
        return sections
    }

    /// The report as one self-contained HTML page: each section's SVG inline, under its heading.
    static func html(_ report: Reminders.Report.Reply) -> String {
        let sections = sections(report)
        var page = [
            "<!DOCTYPE html>", #"<html lang="en">"#, "<head>", #"<meta charset="utf-8"/>"#,
            "<title>\(SVGDrawing.escaped(title(report)))</title>",
            "<style>body{font-family:'DejaVu Sans',Verdana,sans-serif;margin:2em auto;max-width:760px;color:#222}h2{font-size:1.1em;margin:1.5em 0 .3em}svg{max-width:100%;height:auto}</style>",
            "</head>", "<body>",
        ]
        for section in sections {
            if let title = section.title { page.append("<h2>\(SVGDrawing.escaped(title))</h2>") }
            page.append(section.drawing.render(declaration: false))
        }
        page += ["</body>", "</html>"]
        return page.joined(separator: "\n") + "\n"
    }

    /// `Report for Ana, 2026-08-27 to 2026-11-24`.
    static func title(_ report: Reminders.Report.Reply) -> String {
        report.profileName.map { out.words(ReportMessages.titleFor, $0, report.from, report.to) } ?? out.words(ReportMessages.title, report.from, report.to)
    }

    /// Who it is for, the period, the zone, when it was made.
    static func header(_ report: Reminders.Report.Reply) -> SVGDrawing {
        var drawing = SVGDrawing(width: width, height: 60)
        let days = ReportCommand.days(report)
        drawing.text(fitted(title(report), width: width - 2 * margin, size: 16), x: margin, y: 28, size: 16, weight: "bold")
        drawing.text(
            fitted("\(days) \(days == 1 ? "day" : "days"), \(report.timeZone); made \(report.madeUtc); adherence = taken / (due - skipped)", width: width - 2 * margin, size: 11),
            x: margin, y: 48, size: 11, fill: "#555")
        return drawing
    }

    /// A bar per reminder on a 0-100 % axis with nice ticks.
    static func bars(_ reminders: [ReportReminderValue]) -> SVGDrawing {
        var drawing = SVGDrawing(width: width, height: Double(reminders.count) * 26 + 46)
        var y = 10.0
        for reminder in reminders {
            drawing.text(fitted(reminder.reminderName, width: barLeft - margin - 8, size: 12), x: margin, y: y + 14, size: 12)
            drawing.rect(x: barLeft, y: y + 3, width: barWidth, height: 14, fill: "#f1f3f5")
            if let adherence = reminder.adherence {
                drawing.rect(x: barLeft, y: y + 3, width: barWidth * adherence, height: 14, fill: "#2f9e44", title: ReportCommand.percent(adherence))
                drawing.text(ReportCommand.percent(adherence), x: barLeft + barWidth + 8, y: y + 14, size: 12)
            } else {
                drawing.text("nothing due", x: barLeft + barWidth + 8, y: y + 14, size: 12, fill: "#555")
            }
            y += 26
        }
        drawing.line(x1: barLeft, y1: y + 2, x2: barLeft + barWidth, y2: y + 2, stroke: "#555")
        for tick in NiceScale(minimum: 0, maximum: 100, maximumTicks: 6).ticks {
            let x = barLeft + barWidth * tick / 100
            drawing.line(x1: x, y1: y + 2, x2: x, y2: y + 6, stroke: "#555")
            drawing.text(out.words(ReportMessages.percent, Int(tick)), x: x, y: y + 18, size: 10, anchor: .middle, fill: "#555")
        }
        return drawing
    }

    /// A legend of coloured squares in a row at `y`.
    static func legend(_ entries: [(label: String, fill: String)], in drawing: inout SVGDrawing, x left: Double, y: Double) {
        var x = left
        for entry in entries {
            drawing.rect(x: x, y: y - 9, width: 10, height: 10, fill: entry.fill)
            drawing.text(entry.label, x: x + 14, y: y, size: 10)
            x += 14 + SVGDrawing.textWidth(entry.label, size: 10) + 14
        }
    }

    /// Days a reminder's heatmap shows a row each; a longer period shows each day as one cell of a calendar.
    static let rowsAtMost = 120

    /// A reminder's days: a row per day, its occurrences left to right in time order (over ``rowsAtMost`` days,
    /// a calendar of each day's ``summary``).
    static func heatmap(_ reminder: ReportReminderValue) -> SVGDrawing {
        // From its first day with an occurrence: a reminder added during the period has no empty rows before it
        // (a new user's first day drew 90 of them).
        var reminder = reminder
        reminder.days = Array(reminder.days.drop { $0.states.isEmpty })
        // More occurrences a day than fit across (every 15 minutes): a calendar of days too.
        let columnsAtMost = Int((width - gridLeft - margin) / cellWidth)
        guard reminder.days.count <= rowsAtMost, reminder.days.allSatisfy({ $0.states.count <= columnsAtMost }) else {
            return calendar(title: out.words(ReportMessages.eachDay, reminder.reminderName), days: reminder.days.map { ($0.date, summary($0.states)) }, colours: colours)
        }
        let perDay = reminder.days.map(\.states.count).max() ?? 0
        var drawing = SVGDrawing(width: width, height: 76 + (perDay > 0 ? Double(reminder.days.count) * cellHeight : 8))
        drawing.text(fitted(reminder.reminderName, width: width - 2 * margin, size: 13), x: margin, y: 18, size: 13, weight: "bold")
        legend(colours.map { (out.words($0.label), $0.fill) }, in: &drawing, x: margin, y: 37)
        let y = 68.0
        guard perDay > 0 else {
            drawing.text("nothing scheduled in the period", x: gridLeft, y: y + 2, size: 10, fill: "#555")
            return drawing
        }
        // Columns as wide as their time labels need when few (two doses a day: 36 px), 14 px at the least.
        let step = max(cellWidth, min(36, (width - gridLeft - margin) / Double(perDay)))
        timeLabels(of: reminder.days, perDay: perDay, step: step, in: &drawing, y: y - 6)
        for (row, day) in reminder.days.enumerated() {
            let top = y + Double(row) * cellHeight
            // A date every week: rows are 8 px, labels 10 px tall.
            if row % 7 == 0 { drawing.text(day.date, x: gridLeft - 8, y: top + cellHeight, size: 9, anchor: .end, fill: "#555") }
            for (column, state) in day.states.enumerated() {
                let fill = colours.first { $0.state == state }?.fill ?? "#f1f3f5"
                let time = day.times.flatMap { column < $0.count ? " " + $0[column] : nil } ?? ""
                drawing.cell(x: gridLeft + Double(column) * step, y: top, width: step - 2, height: cellHeight - 1, fill: fill, title: "\(day.date)\(time): \(state)")
            }
        }
        return drawing
    }

    /// Each heatmap column's time over it (those of the last day with the most occurrences), every column
    /// whose label fits beside the one before.
    static func timeLabels(of days: [ReportReminderValue.Day], perDay: Int, step: Double, in drawing: inout SVGDrawing, y: Double) {
        guard let times = days.last(where: { $0.states.count == perDay })?.times, times.count == perDay else { return }
        var free = 0.0  // where the next label may start
        for (column, time) in times.enumerated() {
            let centre = gridLeft + Double(column) * step + (step - 2) / 2
            let half = SVGDrawing.textWidth(time, size: 8) / 2
            guard centre - half >= free else { continue }
            drawing.text(time, x: centre, y: y, size: 8, anchor: .middle, fill: "#555")
            free = centre + half + 4
        }
    }

    /// A medication's charts: the amount per day, the as-needed doses per week, the stock with its refills.
    static func medication(_ medication: ReportMedicationValue) -> [Section] {
        let name = medication.reminderName
        var sections = [Section(title: "\(name): taken", drawing: dailyChart(
            title: out.words(ReportMessages.takenPerDay, name, medication.unit), labels: medication.taken.map(\.date),
            series: [Series(
                name: medication.unit, values: medication.taken.map(\.amount), colour: "#2f9e44", style: .bars,
                describe: { [unit = medication.unit] in ReportText.amount(($0 * 100).rounded() / 100, unit) })]))]
        if let weeks = medication.asNeededWeeks {
            sections.append(Section(title: "\(name): as needed", drawing: dailyChart(
                title: out.words(ReportMessages.dosesPerWeek, name), labels: weeks.map(\.week),
                series: [Series(name: "doses", values: weeks.map { Double($0.doses) }, colour: "#7048e8", style: .bars)], counts: true)))
        }
        if let stock = medication.stock {
            sections.append(Section(title: "\(name): stock", drawing: dailyChart(
                title: out.words(ReportMessages.stockPerDay, name, medication.unit), labels: stock.map(\.date),
                series: [Series(name: "refilled", values: stock.map(\.added), colour: "#74c0fc", style: .bars, combined: .sum),
                         Series(name: "left", values: stock.map(\.left), colour: "#212529", style: .line, combined: .last)])))
        }
        return sections
    }

    /// The habit's charts: strength over time, the days as a calendar, active days by weekday, the streaks.
    static func habits(_ habits: ReportHabitsValue) -> [Section] {
        var sections = [Section(title: out.words(ReportMessages.strengthSection), drawing: dailyChart(
            title: out.words(ReportMessages.strengthChart), labels: habits.days.map(\.date),
            series: [Series(name: "strength", values: habits.days.map { $0.strength * 100 }, colour: "#2f9e44", style: .line, combined: .last)], fixedMaximum: 100))]
        sections.append(Section(title: out.words(ReportMessages.daysSection), drawing: calendar(
            title: out.words(ReportMessages.daysChart), days: habits.days.map { ($0.date, $0.state) }, colours: habitColours)))
        sections.append(Section(title: out.words(ReportMessages.byWeekday), drawing: dailyChart(
            title: out.words(ReportMessages.byWeekday), labels: Weekday.mondayFirst.map { out.words.name(of: $0, abbreviated: true) },
            series: [Series(name: "active days", values: habits.activeByWeekday.map(Double.init), colour: "#2f9e44", style: .bars)], counts: true,
            fromFirstData: false)))
        sections.append(Section(title: out.words(ReportMessages.streaksSection), drawing: streaks(habits.streaks)))
        return sections
    }

    /// Days as a contribution calendar: a column per week, a row per weekday (Monday on top), each day a cell in
    /// its state's colour; more weeks than fit in a row go on in another band below.
    static func calendar(title: String, days: [(date: String, state: String)], colours: [(state: String, label: Message, fill: String)]) -> SVGDrawing {
        let cell = 12.0
        let left = margin + 34
        guard let first = days.first.flatMap({ ISO8601.parseDate($0.date) }) else {
            var drawing = SVGDrawing(width: width, height: 40)
            drawing.text(out.words(ReportMessages.nothingLogged), x: margin, y: 24, size: 11, fill: "#555")
            return drawing
        }
        let leading = first.weekday.mondayFirstIndex
        let weeks = (leading + days.count + 6) / 7
        let perBand = Int((width - left - margin) / cell)
        let bands = (weeks + perBand - 1) / perBand
        let bandHeight = 7 * cell + 22
        var drawing = SVGDrawing(width: width, height: 44 + Double(bands) * bandHeight)
        drawing.text(fitted(title, width: width - 2 * margin, size: 13), x: margin, y: 18, size: 13, weight: "bold")
        legend(colours.map { (out.words($0.label), $0.fill) }, in: &drawing, x: margin, y: 36)
        for band in 0..<bands {
            let top = 48 + Double(band) * bandHeight
            // Every other weekday named: rows are 12 px, labels 9.
            for (row, weekday) in Weekday.mondayFirst.enumerated() where row % 2 == 0 {
                drawing.text(out.words.name(of: weekday, abbreviated: true), x: margin, y: top + Double(row) * cell + 9, size: 9, fill: "#555")
            }
        }
        var monthLabels: [(text: String, x: Double, y: Double)] = []
        for (index, day) in days.enumerated() {
            let position = leading + index
            let (week, weekday) = (position / 7, position % 7)
            let (band, column) = (week / perBand, week % perBand)
            let top = 48 + Double(band) * bandHeight
            let fill = colours.first { $0.state == day.state }?.fill ?? "#f1f3f5"
            drawing.cell(x: left + Double(column) * cell, y: top + Double(weekday) * cell, width: cell - 2, height: cell - 2, fill: fill, title: "\(day.date): \(day.state)")
            // A month's name under its first week, with room for it before the band's end.
            if weekday == 0 || index == 0, let date = ISO8601.parseDate(day.date), date.day <= 7, Double(column + 3) * cell < width - left - margin {
                monthLabels.append((date.month == 1 ? String(date.year) : out.words.name(ofMonth: date.month, abbreviated: true), left + Double(column) * cell, top + 7 * cell + 10))
            }
        }
        // After the cells, which then make one run.
        for label in monthLabels { drawing.text(label.text, x: label.x, y: label.y, size: 9, fill: "#555") }
        return drawing
    }

    /// A day's occurrences in one state, for a calendar of a long period: missed if any was, else taken late,
    /// skipped, taken (logged ahead only when all were), paused (when all were), else not yet.
    static func summary(_ states: [String]) -> String {
        for state in ["missed", "taken-late", "skipped"] where states.contains(state) { return state }
        if !states.isEmpty, states.allSatisfy({ $0 == "paused" }) { return "paused" }
        if !states.isEmpty, states.allSatisfy({ $0 == "suppressed" }) { return "suppressed" }
        return states.contains { $0 == "taken" || $0 == "suppressed" } ? "taken" : "due"
    }

    /// The longest streaks as bars, newest first, each with its days.
    static func streaks(_ streaks: [ReportHabitsValue.Streak]) -> SVGDrawing {
        var drawing = SVGDrawing(width: width, height: 36 + Double(max(1, streaks.count)) * 20 + 8)
        drawing.text(out.words(ReportMessages.longestStreaks), x: margin, y: 18, size: 13, weight: "bold")
        guard let longest = streaks.map(\.length).max() else {
            drawing.text(out.words(ReportMessages.noStreak), x: margin, y: 44, size: 11, fill: "#555")
            return drawing
        }
        let left = margin + 180
        let span = width - left - margin - 70
        for (row, streak) in streaks.enumerated() {
            let y = 36 + Double(row) * 20
            drawing.text("\(streak.start) to \(streak.end)", x: margin, y: y + 12, size: 10, fill: "#555")
            drawing.rect(x: left, y: y + 2, width: max(2, span * Double(streak.length) / Double(longest)), height: 12, fill: "#2f9e44")
            drawing.text("\(streak.length) \(streak.length == 1 ? "day" : "days")", x: left + span * Double(streak.length) / Double(longest) + 6, y: y + 12, size: 10)
        }
        return drawing
    }

    /// A series of a ``dailyChart``.
    struct Series {
        enum Style { case bars, line }
        /// How a slot stands for several, when there are more than a chart draws: their mean (a value per day
        /// stays one), their sum (refills), or the last (a level at the end of the slot).
        enum Combined { case mean, sum, last }
        var name: String
        var values: [Double]
        var colour: String
        var style: Style
        var combined = Combined.mean
        /// A value in words for its tooltip ("2 tablets"); nil: the number and `name`.
        var describe: (@Sendable (Double) -> String)? = nil

        func words(_ value: Double) -> String { describe?(value) ?? "\(out.words.decimal(SVGDrawing.number(value))) \(name)" }
    }

    /// The most slots a ``dailyChart`` draws (a bar 2 px wide); more are combined a few to a slot.
    static let slotsAtMost = 300

    /// A chart of values along labelled slots (days, weeks, weekdays): a y axis with nice ticks from zero (or
    /// below, for negative values), the labels spaced so they do not overlap, bars side by side in each slot
    /// and lines through the slots' middles, with a legend.
    static func dailyChart(
        title: String, labels periodLabels: [String], series periodSeries: [Series], fixedMaximum: Double? = nil, counts: Bool = false, fromFirstData: Bool = true
    ) -> SVGDrawing {
        let (labels, series, perSlot) = slotted(periodLabels, periodSeries, fromFirstData: fromFirstData)
        let title = perSlot == 1 ? title : title + ", \(perSlot) days a slot"
        let plotHeight = 150.0
        let (plotLeft, plotTop) = (margin + 48, 46.0)
        let plotWidth = width - plotLeft - margin
        var drawing = SVGDrawing(width: width, height: plotTop + plotHeight + 30)
        drawing.text(fitted(title, width: width - 2 * margin, size: 13), x: margin, y: 18, size: 13, weight: "bold")
        legend(series.map { ($0.name, $0.colour) }, in: &drawing, x: margin, y: 36)
        let all = series.flatMap(\.values)
        let scale = NiceScale(minimum: min(0, all.min() ?? 0), maximum: fixedMaximum ?? max(all.max() ?? 1, 1), maximumTicks: 5, minimumStep: counts ? 1 : 0)
        func y(_ value: Double) -> Double { plotTop + plotHeight * (1 - (value - scale.lower) / (scale.upper - scale.lower)) }
        for tick in scale.ticks {
            drawing.line(x1: plotLeft, y1: y(tick), x2: plotLeft + plotWidth, y2: y(tick), stroke: tick == 0 ? "#555" : "#e9ecef")
            drawing.text(out.words.decimal(SVGDrawing.number(tick)), x: plotLeft - 6, y: y(tick) + 3.5, size: 9, anchor: .end, fill: "#555")
        }
        let count = max(1, labels.count)
        let slot = plotWidth / Double(count)
        let bars = series.filter { $0.style == .bars }
        // Bars side by side, centred in their slot, at most 40 px wide (a chart of few slots).
        let barWidth = max(0.5, min(40, (slot * 0.8) / Double(max(1, bars.count))))
        let barsLeft = (slot - barWidth * Double(bars.count)) / 2
        for (index, bar) in bars.enumerated() {
            for (slotIndex, value) in bar.values.enumerated() where value != 0 {
                let x = plotLeft + Double(slotIndex) * slot + barsLeft + Double(index) * barWidth
                let (top, bottom) = (y(max(0, value)), y(min(0, value)))
                drawing.rect(x: x, y: top, width: barWidth, height: max(0.5, bottom - top), fill: bar.colour, title: "\(labels[slotIndex]): \(bar.words(value))")
            }
        }
        for line in series where line.style == .line {
            let points = line.values.enumerated().map { (x: plotLeft + (Double($0.offset) + 0.5) * slot, y: y($0.element)) }
            drawing.polyline(points, stroke: line.colour)
            // A line of one point is a dot.
            if let only = points.first, points.count == 1 {
                drawing.rect(x: only.x - 3, y: only.y - 3, width: 6, height: 6, fill: line.colour, title: "\(labels[0]): \(line.words(line.values[0]))")
            }
        }
        // A label every few slots, as many as fit with room to spare.
        let labelWidth = (labels.map { SVGDrawing.textWidth($0, size: 9) }.max() ?? 0) + 12
        let every = max(1, Int((labelWidth / slot).rounded(.up)))
        for index in stride(from: 0, to: labels.count, by: every) {
            let x = plotLeft + (Double(index) + 0.5) * slot
            drawing.line(x1: x, y1: plotTop + plotHeight, x2: x, y2: plotTop + plotHeight + 4, stroke: "#555")
            guard x + labelWidth / 2 <= width else { continue }
            drawing.text(labels[index], x: x, y: plotTop + plotHeight + 16, size: 9, anchor: .middle, fill: "#555")
        }
        return drawing
    }

    /// The chart's slots: from the first day with data (when `fromFirstData`: a medication started in the period
    /// shows no empty weeks before it), and in a long period `perSlot` days to a slot, labelled by the first of
    /// them and combined as each series combines.
    private static func slotted(_ periodLabels: [String], _ periodSeries: [Series], fromFirstData: Bool) -> (labels: [String], series: [Series], perSlot: Int) {
        let first = fromFirstData ? (periodLabels.indices.first { index in periodSeries.contains { index < $0.values.count && $0.values[index] != 0 } } ?? 0) : 0
        let allLabels = Array(periodLabels.dropFirst(first))
        let allSeries = periodSeries.map { one in
            var trimmed = one
            trimmed.values = Array(one.values.dropFirst(first))
            return trimmed
        }
        let perSlot = max(1, (allLabels.count + slotsAtMost - 1) / slotsAtMost)
        let labels = stride(from: 0, to: allLabels.count, by: perSlot).map { allLabels[$0] }
        let series = allSeries.map { one in
            var combined = one
            combined.values = stride(from: 0, to: one.values.count, by: perSlot).map { start in
                let part = one.values[start..<min(start + perSlot, one.values.count)]
                switch one.combined {
                case .mean: return part.reduce(0, +) / Double(part.count)
                case .sum: return part.reduce(0, +)
                case .last: return part.last ?? 0
                }
            }
            return combined
        }
        return (labels, series, perSlot)
    }

    /// `text`, shortened with an ellipsis to fit `width` at `size`.
    static func fitted(_ text: String, width: Double, size: Double) -> String {
        guard SVGDrawing.textWidth(text, size: size) > width else { return text }
        var shortened = text
        while !shortened.isEmpty, SVGDrawing.textWidth(shortened + "…", size: size) > width { shortened.removeLast() }
        return shortened + "…"
    }
}
