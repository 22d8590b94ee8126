import ReminderCore
import ReminderInterface

/// The report as pages of paper, for the PDF a doctor reads: A4 or Letter, every page headed with who it is for
/// and the period and numbered; the first pages the summary in words (per reminder its regimen, what was due,
/// taken on time, taken late with how late, skipped with why, missed with each date and time, adherence, doses
/// forced past a limit, the stock at the end), then the charts, each whole on a page (shrunk to fit, never cut).
/// Before, the PDF was one page as tall as the drawing (100 inches on a first day), and its counts were only in
/// the terminal's version.
enum ReportPages {
    /// The paper's size, in PostScript points.
    enum Paper: String, CaseIterable {
        case a4, letter

        var size: (width: Double, height: Double) { self == .a4 ? (595.28, 841.89) : (612, 792) }

        /// Letter where the locale's paper is (LC_PAPER, else LC_ALL, else LANG, in the countries that use it), A4
        /// elsewhere.
        static func fromLocale(_ environment: [String: String]) -> Paper {
            let locale = ["LC_PAPER", "LC_ALL", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
            let region = locale.split(separator: ".").first.flatMap { $0.split(separator: "_").dropFirst().first }.map(String.init) ?? ""
            return ["US", "CA", "MX", "CL", "CO", "VE", "PH", "PR", "CR", "GT", "PA", "DO", "SV"].contains(region) ? .letter : .a4
        }
    }

    static let margin = 42.0
    static let headerHeight = 34.0
    static let footerHeight = 26.0
    static let bodySize = 10.0
    static let lineHeight = 14.0

    /// One line of the summary: its text, size and weight.
    struct Line {
        var text: String
        var size = bodySize
        var bold = false
        /// Space before it (a new reminder's block).
        var gap = 0.0
    }

    /// Every page, the summary's first.
    static func pages(_ report: Reminders.Report.Reply, paper: Paper) -> [SVGDrawing] {
        let (width, height) = paper.size
        let bodyTop = margin + headerHeight, bodyBottom = height - margin - footerHeight
        let textWidth = width - 2 * margin
        var bodies: [SVGDrawing] = []
        var page = SVGDrawing(width: width, height: height)
        var y = bodyTop
        func newPage() {
            bodies.append(page)
            page = SVGDrawing(width: width, height: height)
            y = bodyTop
        }
        for line in summary(report) {
            for (index, piece) in wrapped(line.text, width: textWidth - (line.bold ? 0 : 12), size: line.size).enumerated() {
                let step = (index == 0 ? line.gap : 0) + line.size * 1.4
                if y + step > bodyBottom { newPage() }
                y += step
                page.text(piece, x: margin + (line.bold ? 0 : 12), y: y, size: line.size, weight: line.bold ? "bold" : nil)
            }
        }
        newPage()
        // The charts: each whole on a page, as many as fit one under the other, shrunk to the width (and to the
        // page's height for one taller than a page).
        for section in ReportChart.sections(report).dropFirst() {
            let scale = min(textWidth / section.drawing.width, (bodyBottom - bodyTop - 20) / section.drawing.height)
            let drawn = section.drawing.height * scale + (section.title == nil ? 0 : 20)
            if y + drawn > bodyBottom, y > bodyTop { newPage() }
            if let title = section.title {
                page.text(ReportChart.fitted(title, width: textWidth, size: 12), x: margin, y: y + 14, size: 12, weight: "bold")
                y += 20
            }
            page.place(section.drawing, x: margin, y: y, scale: scale)
            y += section.drawing.height * scale + 12
        }
        if y > bodyTop { newPage() }
        // Headed and numbered once the count is known.
        return bodies.enumerated().map { index, body in
            var framed = SVGDrawing(width: width, height: height)
            framed.text(ReportChart.fitted(ReportChart.title(report), width: textWidth, size: 11), x: margin, y: margin + 12, size: 11, weight: "bold")
            framed.line(x1: margin, y1: margin + 20, x2: width - margin, y2: margin + 20, stroke: "#adb5bd")
            framed.text("Page \(index + 1) of \(bodies.count)", x: width - margin, y: height - margin, size: 9, anchor: .end, fill: "#555")
            framed.text("remindd, made \(report.madeUtc), times in \(report.timeZone)", x: margin, y: height - margin, size: 9, fill: "#555")
            framed.place(body, x: 0, y: 0)
            return framed
        }
    }

    /// The summary in words a clinician uses: what was due and what became of it, per reminder.
    static func summary(_ report: Reminders.Report.Reply) -> [Line] {
        let days = ReportCommand.days(report)
        var lines = [
            Line(text: "Summary", size: 14, bold: true),
            Line(text: "\(days) \(days == 1 ? "day" : "days") from \(report.from) to \(report.to). Adherence = doses taken (on time or late) / (doses due - doses skipped)."),
        ]
        lines += asNeededAndForced(report)
        guard !report.reminders.isEmpty else { return lines + [Line(text: "No reminders with a schedule.")] }
        let stocks = Dictionary((report.medications ?? []).map { ($0.reminderId, $0) }) { first, _ in first }
        for reminder in report.reminders {
            lines.append(Line(text: reminder.reminderName, size: 12, bold: true, gap: 10))
            if let regimen = reminder.regimen { lines.append(Line(text: "Regimen: \(regimen)")) }
            var taken = "Due \(reminder.due); taken on time \(reminder.onTime)"
            if reminder.loggedAhead > 0 { taken += " (of them \(reminder.loggedAhead) taken before the reminder)" }
            taken += "; taken late \(reminder.late)"
            if let median = reminder.lateMinutesMedian, let p90 = reminder.lateMinutesP90 {
                taken += " (late by \(median) min median, \(p90) min 90th percentile)"
            }
            lines.append(Line(text: taken + "."))
            var rest = "Skipped \(reminder.skipped)"
            if !reminder.skipReasons.isEmpty {
                rest += " (" + reminder.skipReasons.map { "\($0.reason.isEmpty ? "no reason" : $0.reason) \($0.count)" }.joined(separator: ", ") + ")"
            }
            rest += "; missed \(reminder.missed.count)" + (reminder.paused.map { "; paused \($0) (not counted)" } ?? "")
            rest += "; adherence " + (reminder.adherence.map(ReportCommand.percent) ?? "-") + "."
            lines.append(Line(text: rest))
            if !reminder.missed.isEmpty { lines.append(Line(text: "Missed: " + reminder.missed.map(ReportCommand.when).joined(separator: ", ") + ".")) }
            if let forced = reminder.forced { lines.append(Line(text: "Doses taken past the reminder's limits (forced): \(forced).")) }
            if let last = stocks[reminder.reminderId]?.stock?.last, let unit = stocks[reminder.reminderId]?.unit {
                lines.append(Line(text: "Stock at the end (\(last.date)): \(ReportText.amount(last.left, unit))."))
            }
        }
        if report.habits != nil {
            lines.append(Line(
                text: "Habit strength (in the charts) is 0 to 100: it rises with each active day and falls with each missed one, recent days counting more.",
                gap: 10))
        }
        return lines
    }

    /// On the first page, before the scheduled reminders: each medication taken as needed with its doses in the
    /// period and its limits, and every dose forced past a limit (of any medication) with its date, time and the
    /// limit it broke. (The doctor's PDF left the as-needed painkiller off page 1, and its doses forced past the
    /// limits appeared nowhere.)
    static func asNeededAndForced(_ report: Reminders.Report.Reply) -> [Line] {
        let medications = report.medications ?? []
        var lines: [Line] = []
        let asNeeded = medications.filter { $0.asNeededDoses != nil }
        if !asNeeded.isEmpty {
            lines.append(Line(text: "Taken as needed", size: 12, bold: true, gap: 10))
            for medication in asNeeded {
                let doses = medication.asNeededDoses ?? 0
                let limits = limitsText(minIntervalSeconds: medication.minIntervalSeconds, maxPerDay: medication.maxPerDay).map { " (limits: \($0))" } ?? ""
                lines.append(Line(text: "\(medication.reminderName): \(doses) \(doses == 1 ? "dose" : "doses") in the period\(limits)."))
            }
        }
        let forced = medications.filter { !($0.forcedDoses ?? []).isEmpty }
        guard !forced.isEmpty else { return lines }
        lines.append(Line(text: "Doses taken past a limit (forced)", size: 12, bold: true, gap: 10))
        for medication in forced {
            for dose in medication.forcedDoses ?? [] {
                lines.append(Line(text: "\(medication.reminderName): \(ReportCommand.when(dose.at)): " + forcedReason(dose, medication)))
            }
        }
        return lines
    }

    /// Why a forced dose broke its limit: `too soon: the dose before was at Sat 2026-11-21 07:00 (at least 6h apart)`.
    static func forcedReason(_ dose: ReportMedicationValue.ForcedDose, _ medication: ReportMedicationValue) -> String {
        switch dose.limit {
        case "minInterval":
            let apart = medication.minIntervalSeconds.map { " (at least \(WindowLength.text($0)) apart)" } ?? ""
            return "too soon: another dose at \(dose.other.map(ReportCommand.when) ?? "?")\(apart)."
        case "maxPerDay":
            let most = medication.maxPerDay.map { " (at most \($0))" } ?? ""
            return "dose \(dose.count ?? 0) in the 24 hours from \(dose.other.map(ReportCommand.when) ?? "?")\(most)."
        default:
            return "forced, within the limits as they are now."
        }
    }

    /// `text` in lines no wider than `width` at `size`, broken between words.
    static func wrapped(_ text: String, width: Double, size: Double) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if SVGDrawing.textWidth(candidate, size: size) > width, !current.isEmpty {
                lines.append(current)
                current = String(word)
            } else {
                current = candidate
            }
        }
        return lines + [current]
    }
}
