import RemindCommands
import ReminderCore
import ReminderInterface
import Translation

/// History and report: the period chosen on the page, each reminder's adherence in a table, the report's charts
/// (the SVG remindctl draws) and the doctor's PDF to download; then the newest firings and logs.
struct ReportPage {
    let frame: HTMLPage
    let report: Reminders.Report.Reply
    let history: [HistoryEntryValue]
    /// The zone history's times are shown in (remindd-web's: the user's).
    let zone: TimeZoneRules

    var words: any MessageCatalog { frame.words }

    func html() -> String {
        let period = "from=\(report.from)&amp;to=\(report.to)"
        var body = """
            <form method="get" action="/report" class="period"><label>\(HTMLPage.escaped(words(WebMessages.fromLabel))) \
            <input type="date" name="from" value="\(HTMLPage.escaped(report.from))"></label> \
            <label>\(HTMLPage.escaped(words(WebMessages.toLabel))) <input type="date" name="to" value="\(HTMLPage.escaped(report.to))"></label> \
            <button type="submit">\(HTMLPage.escaped(words(WebMessages.show)))</button></form>
            <h2>\(HTMLPage.escaped(words(WebMessages.period, report.from, report.to)))</h2>
            """
        body += adherenceTable
        body += "<p><a href=\"/report.pdf?\(period)\" download>\(HTMLPage.escaped(words(WebMessages.downloadPDF)))</a></p>"
        body += "<img class=\"chart\" src=\"/report.svg?\(period)\" alt=\"\(HTMLPage.escaped(words(WebMessages.chartsAlt, report.from, report.to)))\">"
        body += historyTable
        return frame.document(title: words(WebMessages.report), body: body)
    }

    private var adherenceTable: String {
        let headings = [WebMessages.reminderHeading, WebMessages.dueHeading, WebMessages.onTimeHeading, WebMessages.lateHeading,
                        WebMessages.skippedHeading, WebMessages.missedHeading, WebMessages.adherenceHeading]
        var html = frame.tableStart(words(WebMessages.adherenceHeading), headings: headings, className: "adherence")
        for reminder in report.reminders {
            let cells = [String(reminder.due), String(reminder.onTime), String(reminder.late), String(reminder.skipped), String(reminder.missed.count),
                         reminder.adherence.map { ReportDocuments.percent($0, words: words) } ?? "-"]
            html += "<tr><th scope=\"row\">\(HTMLPage.escaped(reminder.shownName))</th>" + cells.map { "<td>\(HTMLPage.escaped($0))</td>" }.joined() + "</tr>"
        }
        return html + HTMLPage.tableEnd
    }

    private var historyTable: String {
        var html = "<h2 id=\"history\">\(HTMLPage.escaped(words(WebMessages.history)))</h2>"
        guard !history.isEmpty else { return html + "<p>\(HTMLPage.escaped(words(WebMessages.nothingYet)))</p>" }
        let headings = [WebMessages.timeHeading, WebMessages.reminderHeading, WebMessages.stateHeading]
        html += frame.tableStart(words(WebMessages.history), headings: headings)
        for entry in history {
            let name = HTMLPage.named(entry.shownName, dose: entry.amount, unit: entry.unit, words: words)
            html += "<tr><td>\(HTMLPage.escaped(local(entry.scheduledUtc)))</td><td>\(HTMLPage.escaped(name))</td><td>\(HTMLPage.escaped(kind(entry.kind)))</td></tr>"
        }
        return html + HTMLPage.tableEnd
    }

    /// `2026-11-29 08:00` in the user's zone.
    private func local(_ utc: String) -> String {
        guard let instant = ISO8601.parseAbsolute(utc) else { return utc }
        let local = zone.localDateTime(at: instant)
        return "\(local.date) \(String(local.time.description.prefix(5)))"
    }

    private func kind(_ kind: String) -> String {
        let names: [String: Message] = [
            "fired": WebMessages.fired, "late": WebMessages.fired, "taken": WebMessages.takenState, "taken-late": WebMessages.takenLate,
            "skipped": WebMessages.skipped, "missed": WebMessages.missed, "suppressed": WebMessages.suppressed, "logged": WebMessages.logged,
            "logged-ahead": WebMessages.logged,
        ]
        return names[kind].map { words($0) } ?? kind
    }
}
