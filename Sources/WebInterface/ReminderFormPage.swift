import ReminderCore
import ReminderInterface
import Translation

/// Add or change a reminder: the form, and under it the next five firings remindd's own engine gives for what
/// is typed (`remindctl preview`'s), shown by "Show the next five" (a GET of the same page: no change is made).
struct ReminderFormPage {
    let frame: HTMLPage
    let form: ReminderForm
    /// The reminder changed; nil: a new one.
    let reminder: ReminderValue?
    /// The next five, when asked for; or why there are none (what remindd said of the rule).
    let preview: Result<[FiringValue], PreviewProblem>?
    let notice: HTMLPage.Notice?

    struct PreviewProblem: Error {
        let text: String
    }

    var words: any MessageCatalog { frame.words }

    func html() -> String {
        let title = reminder.map { words(WebMessages.editReminder, $0.name) } ?? words(WebMessages.addReminder)
        let action = reminder == nil ? "/reminders/add" : "/reminders/update"
        let page = reminder == nil ? "/reminders/new" : "/reminders/edit"
        var body = notice?.html ?? ""
        body += "<form method=\"post\" action=\"\(action)\" class=\"reminder\"><input type=\"hidden\" name=\"csrf\" value=\"\(HTMLPage.escaped(frame.csrf))\">"
        if let reminder { body += "<input type=\"hidden\" name=\"reminder\" value=\"\(reminder.id)\">" }
        body += field("name", WebMessages.nameLabel, form.name, required: true) + field("for", WebMessages.personLabel, form.person)
        body += howOftenChoice
        body += field("at", WebMessages.timesLabel, form.times)
        body += "<fieldset><legend>\(HTMLPage.escaped(words(WebMessages.daysLegend)))</legend>"
        for (day, weekday) in zip(ReminderForm.weekdays, Weekday.mondayFirst) {
            let ticked = form.days.contains(day) ? " checked" : ""
            body += "<label class=\"day\"><input type=\"checkbox\" name=\"day-\(day)\"\(ticked)> \(HTMLPage.escaped(words.name(of: weekday, abbreviated: true)))</label>"
        }
        body += "</fieldset>" + field("first-day", WebMessages.firstDayLabel, form.firstDay, type: "date")
        body += field("dose", WebMessages.doseLabel, form.dose) + field("unit", WebMessages.unitLabel, form.unit) + field("window", WebMessages.windowLabel, form.window)
        body += field("refill-days", WebMessages.refillLabel, form.refillDays) + field("min-interval", WebMessages.minIntervalLabel, form.minInterval)
        body += field("max-per-day", WebMessages.maxPerDayLabel, form.maxPerDay, numeric: true) + field("repeat", WebMessages.repeatLabel, form.repeatEvery)
        body += field("repeat-max", WebMessages.repeatMaxLabel, form.repeatMax) + field("before", WebMessages.beforeLabel, form.before)
        body += field("sound", WebMessages.soundLabel, form.sound)
        let choices = [("", WebMessages.asConfigured), ("yes", WebMessages.yes), ("no", WebMessages.no)].map { value, label in
            "<option value=\"\(value)\"\(form.speak == value ? " selected" : "")>\(HTMLPage.escaped(words(label)))</option>"
        }.joined()
        body += "<label class=\"field\">\(HTMLPage.escaped(words(WebMessages.speakLabel))) <select name=\"speak\">\(choices)</select></label>"
        body += "<button type=\"submit\">\(HTMLPage.escaped(words(WebMessages.save)))</button> "
        body += "<button type=\"submit\" formmethod=\"get\" formaction=\"\(page)\" name=\"preview\" value=\"1\">\(HTMLPage.escaped(words(WebMessages.showNext)))</button>"
        body += "</form>" + previewSection
        return frame.document(title: title, body: body)
    }

    private func field(_ name: String, _ label: Message, _ value: String, required: Bool = false, type: String? = nil, numeric: Bool = false) -> String {
        let attributes = (required ? " required" : "") + (type.map { " type=\"\($0)\"" } ?? "") + (numeric ? " inputmode=\"numeric\"" : "")
        return "<label class=\"field\">\(HTMLPage.escaped(words(label))) <input name=\"\(name)\" value=\"\(HTMLPage.escaped(value))\"\(attributes)></label>"
    }

    /// At the times and days given, when needed, or one of the presets (`Twice a Day` from the first time).
    private var howOftenChoice: String {
        let choices = [("", words(WebMessages.atTimesChoice)), (ReminderForm.asNeeded, words(WebMessages.asNeededChoice))]
            + Preset.allCases.map { ($0.rawValue, words(WebMessages.presetChoice, words(WebMessages.presetName($0)))) }
        let options = choices.map { value, label in
            "<option value=\"\(HTMLPage.escaped(value))\"\(form.howOften == value ? " selected" : "")>\(HTMLPage.escaped(label))</option>"
        }.joined()
        return "<label class=\"field\">\(HTMLPage.escaped(words(WebMessages.howOftenLabel))) <select name=\"how\">\(options)</select></label>"
    }

    private var previewSection: String {
        guard let preview else { return "" }
        var html = "<section aria-labelledby=\"next-five\"><h2 id=\"next-five\">\(HTMLPage.escaped(words(WebMessages.nextFive)))</h2>"
        switch preview {
        case .success(let firings):
            html += "<ol class=\"preview\">" + firings.map { "<li>\(HTMLPage.escaped(RemindersPage.when($0.local, words: words)))</li>" }.joined() + "</ol>"
        case .failure(let problem):
            html += "<p class=\"notice\" role=\"alert\">\(HTMLPage.escaped(problem.text))</p>"
        }
        return html + "</section>"
    }
}
