import ReminderCore
import ReminderInterface
import Translation

/// Today: what is due now, each with Taken, Snooze and Skip, and Take all when several are; then the day's
/// occurrences and their states.
struct TodayPage {
    let frame: HTMLPage
    let day: Reminders.Occurrences.Reply
    let stocks: [StockValue]
    /// The zone the times are shown in (remindd-web's: the user's, whose date the day is).
    let zone: TimeZoneRules
    /// What the last change said (a refusal, remindd not answering), shown once.
    let notice: HTMLPage.Notice?

    var words: any MessageCatalog { frame.words }

    func html() -> String {
        frame.document(title: words(WebMessages.today), body: (notice?.html ?? "") + dueNow + TodayExtras(frame: frame, asNeeded: day.asNeeded ?? [], stocks: stocks).html + theDay)
    }

    private var dueNow: String {
        let due = day.occurrences.filter { $0.state == "due" }
        var html = "<section aria-labelledby=\"due-now\"><h2 id=\"due-now\">\(HTMLPage.escaped(words(WebMessages.dueNow)))</h2>"
        guard !due.isEmpty else { return html + "<p>\(HTMLPage.escaped(words(WebMessages.nothingDue)))</p></section>" }
        html += "<ul class=\"due\">"
        for occurrence in due {
            let id = ["reminder": String(occurrence.reminderId)]
            let name = occurrence.shownName
            html += "<li><span class=\"what\">\(HTMLPage.escaped(named(occurrence)))</span><span class=\"actions\">"
            html += frame.form(action: "/take", button: words(WebMessages.taken), fields: id, label: words(WebMessages.takenLabel, name))
            html += frame.form(action: "/snooze", button: words(WebMessages.snoozeMinutes, 10), fields: id.merging(["minutes": "10"]) { a, _ in a },
                               label: words(WebMessages.snoozeLabel, name, 10))
            html += frame.form(action: "/skip", button: words(WebMessages.skip), fields: id, label: words(WebMessages.skipLabel, name))
            html += "</span></li>"
        }
        html += "</ul>"
        if due.count > 1 { html += frame.form(action: "/take-all", button: words(WebMessages.takeAll), fields: [:]) }
        return html + "</section>"
    }

    private var theDay: String {
        var html = "<section aria-labelledby=\"the-day\"><h2 id=\"the-day\">\(HTMLPage.escaped(words(WebMessages.dayHeading, day.date)))</h2>"
        guard !day.occurrences.isEmpty else { return html + "<p>\(HTMLPage.escaped(words(WebMessages.nothingToday)))</p></section>" }
        let headings = [WebMessages.timeHeading, WebMessages.reminderHeading, WebMessages.stateHeading]
        html += frame.tableStart(words(WebMessages.dayHeading, day.date), headings: headings)
        for occurrence in day.occurrences {
            html += "<tr class=\"\(HTMLPage.escaped(occurrence.state))\"><td>\(HTMLPage.escaped(time(occurrence.utc)))</td>"
            html += "<td>\(HTMLPage.escaped(named(occurrence)))</td><td>\(HTMLPage.escaped(state(occurrence)))</td></tr>"
        }
        return html + HTMLPage.tableEnd + "</section>"
    }

    private func named(_ occurrence: OccurrenceValue) -> String {
        HTMLPage.named(occurrence.shownName, dose: occurrence.dose, unit: occurrence.unit, words: words)
    }

    /// The state in words (the log's time is UTC on the wire: shown with the zone's offsets in a later page).
    private func state(_ occurrence: OccurrenceValue) -> String {
        let names: [String: Message] = [
            "upcoming": WebMessages.upcoming, "due": WebMessages.due, "taken": WebMessages.takenState, "taken-late": WebMessages.takenLate,
            "skipped": WebMessages.skipped, "missed": WebMessages.missed, "suppressed": WebMessages.suppressed, "paused": WebMessages.paused,
        ]
        return names[occurrence.state].map { words($0) } ?? occurrence.state
    }

    /// `07:30` on the user's clock, with its date when it is not the day's (yesterday's dose still due).
    private func time(_ utc: String) -> String {
        guard let instant = ISO8601.parseAbsolute(utc) else { return utc }
        let local = zone.localDateTime(at: instant)
        let clock = String(local.time.description.prefix(5))
        return local.date.description == day.date ? clock : "\(local.date) \(clock)"
    }

    /// `07:30` of an ISO 8601 time (`2026-11-29T07:30:00+01:00`).
    static func clock(_ iso: String) -> String {
        let characters = Array(iso)
        return characters.count >= 16 ? String(characters[11..<16]) : iso
    }
}
