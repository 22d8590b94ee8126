import Glibc
import RemindCommands
import ReminderCore
import ReminderInterface
import Translation

// Reminders' pages and changes: the list, the add and change form with its preview, Delete asked first.
extension WebApp {
    func remindersPage(_ frame: HTMLPage, _ request: WebRequest, notice: HTMLPage.Notice?) async -> WebResponse {
        switch request.path {
        case "/reminders":
            // A page of 100: a long list is read and drawn a page at a time (1,000 at once took 141 ms).
            let after = request.query["after"].flatMap { Int64($0) } ?? 0
            return await page(frame, title: WebMessages.reminders) {
                let page = try await gateway.reminders(after: after, limit: Self.remindersPerPage)
                return RemindersPage(frame: frame, reminders: page.reminders, next: page.next, notice: notice, now: Self.now(), zone: zone).html()
            }
        case "/reminders/new":
            let form = ReminderForm(fields: request.query)
            return await page(frame, title: WebMessages.addReminder) {
                ReminderFormPage(frame: frame, form: form, reminder: nil, preview: await preview(form, request, words: frame.words), notice: notice).html()
            }
        case "/reminders/edit", "/reminders/delete", "/reminders/pause":
            return await page(frame, title: WebMessages.reminders) {
                guard let reminder = try await reminder(request.query["reminder"]) else {
                    return RemindersPage(frame: frame, reminders: [], next: nil, notice: nil, now: Self.now(), zone: zone).html()
                }
                if request.path == "/reminders/delete" { return DeletePage(frame: frame, reminder: reminder).html() }
                if request.path == "/reminders/pause" { return PausePage(frame: frame, reminder: reminder, notice: notice).html() }
                let form = request.query["name"] != nil ? ReminderForm(fields: request.query) : ReminderForm(reminder: reminder)
                guard let form else {
                    let notice = HTMLPage.Notice(text: frame.words(WebMessages.editWithRemindctl), problem: true)
                    return RemindersPage(frame: frame, reminders: [reminder], next: nil, notice: notice, now: Self.now(), zone: zone).html()
                }
                return ReminderFormPage(frame: frame, form: form, reminder: reminder, preview: await preview(form, request, words: frame.words), notice: notice).html()
            }
        default:
            return .refused(404, "no such page")
        }
    }

    static let remindersPerPage = 100

    /// The wall clock's now, for what a page weighs against it (a pause running or ahead).
    static func now() -> Instant { Instant(secondsSinceEpoch: Int64(time(nil))) }

    /// The next five of what the form holds, when the page asks for them.
    private func preview(_ form: ReminderForm, _ request: WebRequest, words: any MessageCatalog) async -> Result<[FiringValue], ReminderFormPage.PreviewProblem>? {
        guard request.query["preview"] != nil else { return nil }
        do {
            return .success(try await gateway.preview(form.rule, count: 5))
        } catch {
            return .failure(.init(text: DaemonRefusals.said(error, calling: Reminders.Preview.name, words: words)))
        }
    }

    private func reminder(_ id: String?) async throws -> ReminderValue? {
        guard let id = id.flatMap({ Int64($0) }) else { return nil }
        return try await gateway.reminder(id: id)
    }

    /// Carries out a reminder's change. - Returns: what to say, and the page to go back to (the form again,
    /// with what was typed, when remindd refused it).
    func reminderChange(_ request: WebRequest, words: any MessageCatalog) async -> (HTMLPage.Notice?, String) {
        let id = request.form["reminder"].flatMap { Int64($0) }
        let form = ReminderForm(fields: request.form)
        let formPage = id.map { "/reminders/edit?reminder=\($0)&" } ?? "/reminders/new?"
        if ["/reminders/add", "/reminders/update"].contains(request.path), let missing = form.missing(words) {
            return (.init(text: missing, problem: true), formPage + form.query)
        }
        do {
            switch (request.path, id) {
            case ("/reminders/add", _):
                try await gateway.add(.init(name: form.name, rule: form.rule, window: form.windowText, delivery: form.delivery(words)))
            case ("/reminders/update", let id?):
                try await gateway.update(.init(reminder: String(id), name: form.name, rule: form.rule, window: form.windowText ?? "", delivery: form.delivery(words, updating: true)))
            case ("/reminders/enable", let id?), ("/reminders/disable", let id?):
                try await gateway.setEnabled(reminderID: id, request.path == "/reminders/enable")
            case ("/reminders/remove", let id?):
                try await gateway.remove(reminderID: id)
            case ("/reminders/pause", let id?):
                let (from, reason) = (request.form["from"]?.trimmed ?? "", request.form["reason"]?.trimmed ?? "")
                do {
                    try await gateway.pause(reminderID: id, from: from.isEmpty ? nil : from, until: request.form["until"]?.trimmed ?? "", reason: reason.isEmpty ? nil : reason)
                } catch {
                    // Back to the pause's page, with what remindd said of it.
                    return (.init(text: DaemonRefusals.said(error, calling: Reminders.Pause.name, words: words), problem: true), "/reminders/pause?reminder=\(id)")
                }
            case ("/reminders/resume", let id?):
                try await gateway.resume(reminderID: id)
            default:
                return (.init(text: "no reminder was named", problem: true), "/reminders")
            }
            return (.init(text: words(WebMessages.done), problem: false), "/reminders")
        } catch {
            let back = ["/reminders/add", "/reminders/update"].contains(request.path) ? formPage + form.query : "/reminders"
            return (.init(text: DaemonRefusals.said(error, calling: Reminders.Add.name, words: words), problem: true), back)
        }
    }
}
