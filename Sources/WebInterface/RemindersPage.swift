import ReminderCore
import ReminderInterface
import Translation

/// Reminders: each with its schedule, its next firing and whether it is enabled or paused; Change, Enable or
/// Disable, Pause or Resume, and Delete (asked first, on a page of its own).
struct RemindersPage {
    let frame: HTMLPage
    let reminders: [ReminderValue]
    /// Where the next page starts; nil: this is the last.
    let next: Int64?
    let notice: HTMLPage.Notice?
    /// What a pause is weighed against, and the zone its times are shown in (the user's).
    let now: Instant
    let zone: TimeZoneRules

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
        let paused = Self.pauseState(reminder.delivery.pause, now: now, zone: zone, words: words)
        if paused != nil {
            actions += frame.form(action: "/reminders/resume", button: words(WebMessages.resume), fields: id, label: words(WebMessages.actionOn, words(WebMessages.resume), shown))
        } else if reminder.delivery.calendar == nil {  // a calendar's alarms are silenced with Disable, as remindd says
            actions += "<a href=\"/reminders/pause?reminder=\(reminder.id)\" aria-label=\"\(HTMLPage.escaped(words(WebMessages.actionOn, words(WebMessages.pause), shown)))\">\(HTMLPage.escaped(words(WebMessages.pause)))</a> "
        }
        actions += "<a href=\"/reminders/delete?reminder=\(reminder.id)\" aria-label=\"\(HTMLPage.escaped(words(WebMessages.actionOn, words(WebMessages.delete), shown)))\">\(HTMLPage.escaped(words(WebMessages.delete)))</a>"
        let state = paused ?? words(reminder.enabled ? WebMessages.enabled : WebMessages.disabled)
        return "<tr><th scope=\"row\">\(HTMLPage.escaped(name))</th><td>\(HTMLPage.escaped(Self.schedule(reminder, words: words)))</td>"
            + "<td>\(HTMLPage.escaped(next))</td><td>\(HTMLPage.escaped(state))</td><td class=\"actions\">\(actions)</td></tr>"
    }

    /// The schedule in the page's language where remindd's summary is one of the common rules (`täglich 20:16`).
    static func schedule(_ reminder: ReminderValue, words: any MessageCatalog) -> String {
        // A rule this remindd-web cannot make (a newer daemon's) keeps the daemon's words.
        guard let rule = try? reminder.rule.makeRule(), reminder.summary.hasPrefix(rule.summary) else { return reminder.summary }
        return words.schedule(rule) + reminder.summary.dropFirst(rule.summary.count)
    }

    /// `paused until Tue 2026-12-08 00:00` while a pause runs, `paused from ... until ...` for one ahead; nil
    /// without either.
    static func pauseState(_ pause: PauseSettings.Shown, now: Instant, zone: TimeZoneRules, words: any MessageCatalog) -> String? {
        func instant(_ utc: String) -> Instant? {
            guard let parsed = ISO8601.parseInstant(utc), let offset = parsed.offsetSeconds else { return nil }
            return Instant(secondsSinceEpoch: parsed.local.localSeconds - Int64(offset))
        }
        let spans = (pause.pauses ?? []).compactMap { span in instant(span.from).flatMap { from in instant(span.until).map { (from, $0) } } }
        guard let span = spans.first(where: { $0.1 > now }) else { return nil }
        func when(_ instant: Instant) -> String {
            let local = zone.localDateTime(at: instant)
            return "\(words.name(of: local.date.weekday, abbreviated: true)) \(local.date) \(local.time.description.prefix(5))"
        }
        return span.0 <= now ? words(WebMessages.pausedUntil, when(span.1)) : words(WebMessages.pauseAhead, when(span.0), when(span.1))
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

/// A pause with dates for one reminder: from (empty: now), until, and why; Pause and Cancel.
struct PausePage {
    let frame: HTMLPage
    let reminder: ReminderValue
    let notice: HTMLPage.Notice?

    func html() -> String {
        let words = frame.words
        func field(_ name: String, _ label: Message, type: String, required: Bool = false) -> String {
            "<label class=\"field\">\(HTMLPage.escaped(words(label))) <input name=\"\(name)\" type=\"\(type)\"\(required ? " required" : "")></label>"
        }
        let body = (notice?.html ?? "") + "<p>\(HTMLPage.escaped(words(WebMessages.pauseExplained)))</p>"
            + "<form method=\"post\" action=\"/reminders/pause\" class=\"reminder\"><input type=\"hidden\" name=\"csrf\" value=\"\(HTMLPage.escaped(frame.csrf))\">"
            + "<input type=\"hidden\" name=\"reminder\" value=\"\(reminder.id)\">"
            + field("from", WebMessages.pauseFromLabel, type: "date") + field("until", WebMessages.pauseUntilLabel, type: "date", required: true)
            + field("reason", WebMessages.pauseReasonLabel, type: "text")
            + "<button type=\"submit\">\(HTMLPage.escaped(words(WebMessages.pause)))</button> <a href=\"/reminders\">\(HTMLPage.escaped(words(WebMessages.cancel)))</a></form>"
        return frame.document(title: words(WebMessages.pauseTitle, reminder.delivery.person.named(reminder.name)), body: body)
    }
}
