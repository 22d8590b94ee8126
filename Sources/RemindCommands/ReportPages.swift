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
            framed.text(out.words(ReportMessages.page, index + 1, bodies.count), x: width - margin, y: height - margin, size: 9, anchor: .end, fill: "#555")
            framed.text(out.words(ReportMessages.footer, report.madeUtc, report.timeZone), x: margin, y: height - margin, size: 9, fill: "#555")
            framed.place(body, x: 0, y: 0)
            return framed
        }
    }

    /// The summary in words a clinician uses: what was due and what became of it, per reminder.
    static func summary(_ report: Reminders.Report.Reply) -> [Line] {
        let days = ReportCommand.days(report)
        var lines = [
            Line(text: out.words(ReportMessages.summary), size: 14, bold: true),
            Line(text: out.words(ReportMessages.period, count: days, days, report.from, report.to)),
        ]
        lines += asNeededAndForced(report)
        guard !report.reminders.isEmpty else { return lines + [Line(text: out.words(ReportMessages.noReminders))] }
        let stocks = Dictionary((report.medications ?? []).map { ($0.reminderId, $0) }) { first, _ in first }
        for reminder in report.reminders {
            lines.append(Line(text: reminder.reminderName, size: 12, bold: true, gap: 10))
            if let regimen = regimen(reminder) { lines.append(Line(text: out.words(ReportMessages.regimen, regimen))) }
            lines.append(Line(text: takenText(reminder) + "."))
            var rest = out.words(ReportMessages.skipped, reminder.skipped)
            if !reminder.skipReasons.isEmpty {
                rest += " (" + reminder.skipReasons.map { "\($0.reason.isEmpty ? out.words(ReportMessages.noReason) : $0.reason) \($0.count)" }.joined(separator: ", ") + ")"
            }
            rest = out.words(ReportMessages.missedCount, rest, reminder.missed.count)
            if let paused = reminder.paused { rest = out.words(ReportMessages.pausedCount, rest, paused) }
            lines.append(Line(text: out.words(ReportMessages.adherence, rest, reminder.adherence.map(ReportCommand.percent) ?? "-")))
            if !reminder.missed.isEmpty { lines.append(Line(text: out.words(ReportMessages.missedList, reminder.missed.map(ReportCommand.when).joined(separator: ", ")))) }
            if let forced = reminder.forced { lines.append(Line(text: out.words(ReportMessages.forcedCount, forced))) }
            if let last = stocks[reminder.reminderId]?.stock?.last, let unit = stocks[reminder.reminderId]?.unit {
                lines.append(Line(text: out.words(ReportMessages.stockAtEnd, last.date, ReportText.amount(last.left, unit))))
            }
        }
        if report.habits != nil { lines.append(Line(text: out.words(ReportMessages.strengthNote), gap: 10)) }
        return lines
    }

    /// `1 Tablette zu 20 mg, täglich 08:00`: a reminder's regimen in the user's language, from its facts; the
    /// daemon's words when it sent none (an older daemon's), or its rule cannot be made here.
    static func regimen(_ reminder: ReportReminderValue) -> String? {
        guard let spec = reminder.rule, let rule = try? spec.makeRule() else { return reminder.regimen }
        var dose = doseText(reminder.dose, reminder.unit)
        if let amount = dose, let strength = doseText(reminder.strength, reminder.strengthUnit) {
            dose = out.words(CommandMessages.doseOfStrength, amount, strength)
        }
        return [dose, out.words.schedule(rule)].compactMap { $0 }.joined(separator: ", ")
    }

    /// `Due 30; taken on time 27 (of them 2 taken before the reminder); taken late 1 (late by ...)`.
    static func takenText(_ reminder: ReportReminderValue) -> String {
        var taken = out.words(ReportMessages.dueTaken, reminder.due, reminder.onTime)
        if reminder.loggedAhead > 0 { taken = out.words(ReportMessages.takenBefore, taken, reminder.loggedAhead) }
        taken = out.words(ReportMessages.takenLate, taken, reminder.late)
        if let median = reminder.lateMinutesMedian, let p90 = reminder.lateMinutesP90 { taken = out.words(ReportMessages.lateBy, taken, median, p90) }
        return taken
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
            lines.append(Line(text: out.words(ReportMessages.asNeeded), size: 12, bold: true, gap: 10))
            for medication in asNeeded {
                let doses = medication.asNeededDoses ?? 0
                var text = out.words(ReportMessages.asNeededDoses, count: doses, medication.reminderName, doses)
                if let limits = limitsText(minIntervalSeconds: medication.minIntervalSeconds, maxPerDay: medication.maxPerDay) {
                    text = out.words(ReportMessages.withLimits, text, limits)
                }
                lines.append(Line(text: text + "."))
            }
        }
        let forced = medications.filter { !($0.forcedDoses ?? []).isEmpty }
        guard !forced.isEmpty else { return lines }
        lines.append(Line(text: out.words(ReportMessages.forcedHeading), size: 12, bold: true, gap: 10))
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
            let apart = medication.minIntervalSeconds.map { " (" + out.words(CommandMessages.atLeastApart, WindowLength.text($0)) + ")" } ?? ""
            return out.words(ReportMessages.tooSoon, dose.other.map(ReportCommand.when) ?? "?") + apart + "."
        case "maxPerDay":
            let most = medication.maxPerDay.map { " (" + out.words(ReportMessages.atMost, $0) + ")" } ?? ""
            return out.words(ReportMessages.tooMany, dose.count ?? 0, dose.other.map(ReportCommand.when) ?? "?") + most + "."
        default:
            return out.words(ReportMessages.forcedWithin)
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
