import ReminderCore
import ReminderInterface
import Translation

/// Habits: the streak, its best, the freezes banked and the habit's strength; the month as a calendar (a row per
/// week, Monday first, each day's state in words); and a form to mark a rest day.
struct HabitsPage {
    let frame: HTMLPage
    let streak: StreakValue
    let calendar: CalendarValue
    let notice: HTMLPage.Notice?

    var words: any MessageCatalog { frame.words }

    func html() -> String {
        var facts = [words(WebMessages.streakLine, count: streak.current?.length ?? 0, streak.current?.length ?? 0)]
        if let best = streak.best { facts.append(words(WebMessages.bestLine, count: best.length, best.length)) }
        facts += [words(WebMessages.freezesLine, streak.freezes), words(WebMessages.strengthLine, streak.strength)]
        if let by = streak.mustLogBy { facts.append(words(WebMessages.logBy, by)) }
        var body = (notice?.html ?? "") + "<ul class=\"facts\">" + facts.map { "<li>\(HTMLPage.escaped($0))</li>" }.joined() + "</ul>"
        body += month + restForm
        return frame.document(title: words(WebMessages.habits), body: body)
    }

    private var month: String {
        let (year, number) = (Int(calendar.month.prefix(4)) ?? 1970, Int(calendar.month.suffix(2)) ?? 1)
        let title = "\(words.name(ofMonth: number, abbreviated: false)) \(year)"
        let previous = number == 1 ? String(format2: year - 1, 12) : String(format2: year, number - 1)
        let next = number == 12 ? String(format2: year + 1, 1) : String(format2: year, number + 1)
        var html = "<section aria-labelledby=\"month\"><h2 id=\"month\">\(HTMLPage.escaped(title))</h2>"
        html += "<p class=\"months\"><a href=\"/habits?month=\(previous)\">\(HTMLPage.escaped(words(WebMessages.previousMonth)))</a> "
        html += "<a href=\"/habits?month=\(next)\">\(HTMLPage.escaped(words(WebMessages.nextMonth)))</a></p>"
        html += "<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-label=\"\(HTMLPage.escaped(title))\"><table class=\"month\"><thead><tr>"
        html += Weekday.mondayFirst.map { "<th scope=\"col\">\(HTMLPage.escaped(words.name(of: $0, abbreviated: true)))</th>" }.joined() + "</tr></thead><tbody><tr>"
        let leading = calendar.days.first.flatMap { ISO8601.parseDate($0.date) }?.weekday.mondayFirstIndex ?? 0
        html += String(repeating: "<td></td>", count: leading)
        for (index, day) in calendar.days.enumerated() {
            if index > 0, (leading + index) % 7 == 0 { html += "</tr><tr>" }
            let said = stateWords(day)
            html += "<td class=\"\(HTMLPage.escaped(day.state))\"\(day.today ? " aria-current=\"date\"" : "")><span class=\"day\">\(Int(day.date.suffix(2)) ?? 0)</span>"
            html += said.isEmpty ? "</td>" : " <span class=\"state\">\(HTMLPage.escaped(said))</span></td>"
        }
        return html + "</tr>" + HTMLPage.tableEnd + "</section>"
    }

    private func stateWords(_ day: CalendarDayValue) -> String {
        let names: [String: Message] = [
            "active": WebMessages.activeState, "rest": WebMessages.restState, "planned": WebMessages.plannedState, "frozen": WebMessages.frozenState, "recovered": WebMessages.recoveredState,
            "missed": WebMessages.missed,
        ]
        let state = names[day.state].map { words($0) } ?? ""
        return day.today && state.isEmpty ? words(WebMessages.todayState) : state
    }

    private var restForm: String {
        """
        <form method="post" action="/habits/rest" class="reminder" aria-labelledby="rest"><h2 id="rest">\(HTMLPage.escaped(words(WebMessages.markRest)))</h2>\
        <input type="hidden" name="csrf" value="\(HTMLPage.escaped(frame.csrf))">\
        <label class="field">\(HTMLPage.escaped(words(WebMessages.dateLabel))) <input type="date" name="date" required></label>\
        <label class="field">\(HTMLPage.escaped(words(WebMessages.reasonLabel))) <input name="reason"></label>\
        <button type="submit">\(HTMLPage.escaped(words(WebMessages.markRest)))</button></form>
        """
    }
}

extension String {
    /// `2026-03`.
    fileprivate init(format2 year: Int, _ month: Int) {
        self = "\(year)-" + (month < 10 ? "0" : "") + String(month)
    }
}
