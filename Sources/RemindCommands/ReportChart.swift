import ReminderCore
import ReminderInterface

/// The adherence report as an SVG picture: a bar per reminder on a 0-100 % axis, then each reminder's days as a
/// heatmap (a row per day, a column per occurrence of the day) in colours that also differ in lightness, for
/// colour-blind readers and greyscale printers.
enum ReportChart {
    /// Each state's colour (and its lightness, for the legend's order): missed darkest, then taken, taken late,
    /// skipped, logged ahead; not yet decided lightest.
    static let colours: [(state: String, label: String, fill: String)] = [
        ("missed", "missed", "#7f1d1d"), ("taken", "taken", "#2f9e44"), ("taken-late", "taken late", "#f59f00"),
        ("skipped", "skipped", "#74c0fc"), ("suppressed", "logged ahead", "#c3fae8"), ("due", "not yet", "#f1f3f5"),
    ]
    static let width = 720.0
    static let margin = 16.0
    static let barLeft = 220.0
    static let barWidth = 400.0
    static let cellWidth = 14.0
    static let cellHeight = 8.0
    static let gridLeft = 110.0

    static func svg(_ report: Reminders.Report.Reply) -> SVGDrawing {
        let reminders = report.reminders
        let perDay = reminders.map { $0.days.map(\.states.count).max() ?? 0 }
        let gridHeights = reminders.indices.map { 64 + Double(reminders[$0].days.count) * cellHeight * (perDay[$0] > 0 ? 1 : 0) }
        let barsHeight = Double(reminders.count) * 26 + 36
        var drawing = SVGDrawing(width: width, height: 70 + barsHeight + gridHeights.reduce(0, +) + margin)
        let days = (ISO8601.parseDate(report.to)?.dayNumber ?? 0) - (ISO8601.parseDate(report.from)?.dayNumber ?? 0) + 1
        drawing.text("Adherence, \(report.from) to \(report.to) (\(days) \(days == 1 ? "day" : "days"), \(report.timeZone))", x: margin, y: 28, size: 16, weight: "bold")
        drawing.text("Made \(report.madeUtc); taken / (due - skipped)", x: margin, y: 48, size: 11, fill: "#555")

        // The bars, on a 0-100 % axis with nice ticks.
        var y = 70.0
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
        let scale = NiceScale(minimum: 0, maximum: 100, maximumTicks: 6)
        drawing.line(x1: barLeft, y1: y + 2, x2: barLeft + barWidth, y2: y + 2, stroke: "#555")
        for tick in scale.ticks {
            let x = barLeft + barWidth * tick / 100
            drawing.line(x1: x, y1: y + 2, x2: x, y2: y + 6, stroke: "#555")
            drawing.text("\(Int(tick))%", x: x, y: y + 18, size: 10, anchor: .middle, fill: "#555")
        }
        y += 36

        // Each reminder's days: a row per day, its occurrences left to right in time order.
        for (index, reminder) in reminders.enumerated() {
            drawing.text(fitted(reminder.reminderName, width: width - 2 * margin, size: 13), x: margin, y: y + 18, size: 13, weight: "bold")
            var x = margin
            for colour in colours {
                drawing.rect(x: x, y: y + 28, width: 10, height: 10, fill: colour.fill)
                drawing.text(colour.label, x: x + 14, y: y + 37, size: 10)
                x += 14 + SVGDrawing.textWidth(colour.label, size: 10) + 14
            }
            y += 56
            guard perDay[index] > 0 else {
                drawing.text("nothing scheduled in the period", x: gridLeft, y: y, size: 10, fill: "#555")
                y += 8
                continue
            }
            for (row, day) in reminder.days.enumerated() {
                let top = y + Double(row) * cellHeight
                // A date every week: rows are 8 px, labels 10 px tall.
                if row % 7 == 0 { drawing.text(day.date, x: gridLeft - 8, y: top + cellHeight, size: 9, anchor: .end, fill: "#555") }
                for (column, state) in day.states.enumerated() {
                    let fill = colours.first { $0.state == state }?.fill ?? "#f1f3f5"
                    drawing.rect(x: gridLeft + Double(column) * cellWidth, y: top, width: cellWidth - 2, height: cellHeight - 1, fill: fill, title: "\(day.date): \(state)")
                }
            }
            y += Double(reminder.days.count) * cellHeight + 8
        }
        return drawing
    }

    /// `text`, shortened with an ellipsis to fit `width` at `size`.
    static func fitted(_ text: String, width: Double, size: Double) -> String {
        guard SVGDrawing.textWidth(text, size: size) > width else { return text }
        var shortened = text
        while !shortened.isEmpty, SVGDrawing.textWidth(shortened + "…", size: size) > width { shortened.removeLast() }
        return shortened + "…"
    }
}
