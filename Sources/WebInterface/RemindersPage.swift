import ReminderCore
import ReminderInterface
import Translation

/// Reminders: each with its schedule, its next firing and whether it is enabled; Change, Enable or Disable, and
/// Delete (asked first, on a page of its own).
struct RemindersPage {
    let frame: HTMLPage
    let reminders: [ReminderValue]
    /// Where the next page starts; nil: this is the last.
    let next: Int64?
    let notice: HTMLPage.Notice?

    var words: any MessageCatalog { frame.words }

    func html() -> String {
        var body = (notice?.html ?? "") + "<p><a class=\"button\" href=\"/reminders/new\">\(HTMLPage.escaped(words(WebMessages.addReminder)))</a></p>"
        guard !reminders.isEmpty else { return frame.document(title: words(WebMessages.reminders), body: body + "<p>\(HTMLPage.escaped(words(WebMessages.noReminders)))</p>") }
        let headings = [WebMessages.reminderHeading, WebMessages.scheduleHeading, WebMessages.nextHeading, WebMessages.stateHeading]
        body += frame.tableStart(words(WebMessages.reminders), headings: headings, className: "reminders", trailingCell: true)
        for reminder in reminders { body += row(reminder) }
        body += HTMLPage.tableEnd
        if let next { body += "<p><a href=\"/reminders?after=\(next)\">\(HTMLPage.escaped(words(WebMessages.morePage)))</a></p>" }
        return frame.document(title: words(WebMessages.reminders), body: body)
    }

    private func row(_ reminder: ReminderValue) -> String {
        let medication = reminder.delivery.medication
        // Whom it is for, as everywhere (`Anna: Amoxicillin`): a caregiver's list holds one medicine for several.
        let shown = reminder.delivery.person.named(reminder.name)
        let name = HTMLPage.named(shown, dose: medication.dose, unit: medication.unit, words: words)
        let next = reminder.next.map { Self.when($0.local, words: words) } ?? "-"
        let id = ["reminder": String(reminder.id)]
        let toggle = reminder.enabled ? (WebMessages.disable, "/reminders/disable") : (WebMessages.enable, "/reminders/enable")
        var actions = ReminderForm(reminder: reminder) == nil ? "" :
            "<a href=\"/reminders/edit?reminder=\(reminder.id)\" aria-label=\"\(HTMLPage.escaped(words(WebMessages.actionOn, words(WebMessages.change), shown)))\">\(HTMLPage.escaped(words(WebMessages.change)))</a> "
        actions += frame.form(action: toggle.1, button: words(toggle.0), fields: id, label: words(WebMessages.actionOn, words(toggle.0), shown))
        actions += "<a href=\"/reminders/delete?reminder=\(reminder.id)\" aria-label=\"\(HTMLPage.escaped(words(WebMessages.actionOn, words(WebMessages.delete), shown)))\">\(HTMLPage.escaped(words(WebMessages.delete)))</a>"
        let state = words(reminder.enabled ? WebMessages.enabled : WebMessages.disabled)
        return "<tr><th scope=\"row\">\(HTMLPage.escaped(name))</th><td>\(HTMLPage.escaped(Self.schedule(reminder, words: words)))</td>"
            + "<td>\(HTMLPage.escaped(next))</td><td>\(HTMLPage.escaped(state))</td><td class=\"actions\">\(actions)</td></tr>"
    }

    /// The schedule in the page's language where remindd's summary is one of the common rules (`täglich 20:16`).
    static func schedule(_ reminder: ReminderValue, words: any MessageCatalog) -> String {
        // A rule this remindd-web cannot make (a newer daemon's) keeps the daemon's words.
        guard let rule = try? reminder.rule.makeRule(), reminder.summary.hasPrefix(rule.summary) else { return reminder.summary }
        return words.schedule(rule) + reminder.summary.dropFirst(rule.summary.count)
    }

    /// `Sun 2026-11-29 20:00` of a local ISO 8601 time, the weekday in the page's language.
    static func when(_ local: String, words: any MessageCatalog) -> String {
        guard let date = ISO8601.parseDate(String(local.prefix(10))) else { return local }
        return "\(words.name(of: date.weekday, abbreviated: true)) \(local.prefix(10)) \(TodayPage.clock(local))"
    }
}

/// Delete, asked first: what goes and what stays, with Delete and Cancel.
struct DeletePage {
    let frame: HTMLPage
    let reminder: ReminderValue

    func html() -> String {
        let words = frame.words
        let body = "<p>\(HTMLPage.escaped(words(WebMessages.deleteExplained)))</p>"
            + frame.form(action: "/reminders/remove", button: words(WebMessages.delete), fields: ["reminder": String(reminder.id)])
            + " <a href=\"/reminders\">\(HTMLPage.escaped(words(WebMessages.cancel)))</a>"
        return frame.document(title: words(WebMessages.deleteQuestion, reminder.name), body: body)
    }
}
