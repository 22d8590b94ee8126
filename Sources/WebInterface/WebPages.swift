import NIOPosix
import RemindCommands
import ReminderCore
import ReminderInterface
import VarlinkProtocol
import Translation

// The pages and the changes they post, each a call or two to remindd through the gateway.
extension WebApp {
    func today(_ frame: HTMLPage, notice: HTMLPage.Notice?) async -> WebResponse {
        await page(frame, title: WebMessages.today) {
            async let day = gateway.today()
            async let stocks = gateway.stocksRunningLow()
            return TodayPage(frame: frame, day: try await day, stocks: try await stocks, zone: zone, notice: notice).html()
        }
    }

    /// A page of 100 medications at a time, as Reminders (1,000 at once took 54 ms).
    func medication(_ frame: HTMLPage, _ request: WebRequest, notice: HTMLPage.Notice?) async -> WebResponse {
        let after = request.query["after"].flatMap { Int64($0) } ?? 0
        return await page(frame, title: WebMessages.medication) {
            let page = try await gateway.stocks(after: after, limit: Self.remindersPerPage)
            return MedicationPage(frame: frame, stocks: page.stocks, next: page.next, notice: notice).html()
        }
    }

    func habitsPage(_ frame: HTMLPage, _ request: WebRequest, notice: HTMLPage.Notice?) async -> WebResponse {
        let month = request.query["month"].flatMap { ISO8601.parseDate($0 + "-01") != nil ? $0 : nil }
        return await page(frame, title: WebMessages.habits) {
            async let streak = gateway.streak()
            async let calendar = gateway.habitCalendar(month: month)
            return HabitsPage(frame: frame, streak: try await streak, calendar: try await calendar, notice: notice).html()
        }
    }

    func reportPage(_ frame: HTMLPage, _ request: WebRequest) async -> WebResponse {
        guard let (from, to) = Self.period(request) else { return .refused(400, "write the period's days as YYYY-MM-DD, e.g. 2026-11-01") }
        return await page(frame, title: WebMessages.report) {
            async let report = gateway.report(from: from, to: to)
            async let history = gateway.history(limit: 50)
            return ReportPage(frame: frame, report: try await report, history: try await history, zone: zone).html()
        }
    }

    /// The report's charts (SVG) or the doctor's PDF (a download) for the period the page asks for.
    func reportDocument(_ request: WebRequest, words: any MessageCatalog, pdf: Bool) async -> WebResponse {
        guard let (from, to) = Self.period(request) else { return .refused(400, "write the period's days as YYYY-MM-DD, e.g. 2026-11-01") }
        do {
            let report = try await gateway.report(from: from, to: to)
            guard pdf else {
                // Its own document, with no script: its inline styles are its drawing's.
                let policy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
                return WebResponse(status: 200, headers: [("Content-Type", "image/svg+xml"), ("Content-Security-Policy", policy)],
                                   body: Array(ReportDocuments.svg(report, words: words).utf8))
            }
            // rsvg-convert runs as a process: waited for on NIO's thread pool, not here.
            let environment = environment
            let bytes = try await NIOThreadPool.singleton.runIfActive { try ReportDocuments.pdf(report, words: words, environment: environment) }
            let name = "remindd-report-\(report.from)-\(report.to).pdf"
            return WebResponse(status: 200, headers: [("Content-Type", "application/pdf"), ("Content-Disposition", "attachment; filename=\"\(name)\"")], body: bytes)
        } catch {
            return .refused(503, "\(error)")
        }
    }

    /// The `from` and `to` days a page asks for (nil each: remindd's default); nil when one is not a day.
    static func period(_ request: WebRequest) -> (String?, String?)? {
        let days = ["from", "to"].map { request.query[$0].flatMap { $0.isEmpty ? nil : $0 } }
        guard days.allSatisfy({ $0.map { ISO8601.parseDate($0) != nil } ?? true }) else { return nil }
        return (days[0], days[1])
    }

    /// The page `make` writes, or one that says remindd does not answer (503).
    func page(_ frame: HTMLPage, title: Message, _ make: () async throws -> String) async -> WebResponse {
        do {
            return .page(try await make())
        } catch let refusal as VarlinkError {
            // Answered, and refused (a reminder deleted meanwhile): said as remindctl says it.
            let said = DaemonRefusals.said(refusal, calling: "", words: frame.words)
            return .page(frame.document(title: frame.words(title), body: "<p class=\"notice\" role=\"alert\">\(HTMLPage.escaped(said))</p>"), status: 400)
        } catch {
            let said = frame.words(WebMessages.unreachable, "\(error)")
            return .page(frame.document(title: frame.words(title), body: "<p class=\"notice\" role=\"alert\">\(HTMLPage.escaped(said))</p>"), status: 503)
        }
    }

    /// Carries out a change. - Returns: what to tell the user on the page (nil: it was done, on Today; "Done."
    /// elsewhere, where nothing else on the page shows it).
    func change(_ request: WebRequest, words: any MessageCatalog) async -> HTMLPage.Notice? {
        let reminderID = request.form["reminder"].flatMap { Int64($0) }
        var method = Reminders.Done.name
        do {
            switch (request.path, reminderID) {
            case ("/take", let id?): try await gateway.take(reminderID: id)
            case ("/skip", let id?):
                method = Reminders.Skip.name
                try await gateway.skip(reminderID: id)
            case ("/snooze", let id?):
                method = Reminders.Snooze.name
                try await gateway.snooze(reminderID: id, minutes: request.form["minutes"].flatMap { Int($0) } ?? 10)
            case ("/take-one", let id?):
                method = Reminders.Log.name
                try await gateway.logNow(reminderID: id)
            case ("/take-all", _): return try await takeAll(words).map { HTMLPage.Notice(text: $0, problem: true) }
            case ("/habits/rest", _):
                guard let date = request.form["date"], ISO8601.parseDate(date) != nil else { return HTMLPage.Notice(text: "give the day as YYYY-MM-DD", problem: true) }
                method = Habits.RestMark.name
                try await gateway.markRest(date: date, reason: request.form["reason"].flatMap { $0.isEmpty ? nil : $0 })
                return HTMLPage.Notice(text: words(WebMessages.done), problem: false)
            case ("/stock", let id?):
                let amount = (request.form["amount"] ?? "").replacingComma
                let expires = request.form["expires"].flatMap { $0.isEmpty ? nil : $0 }
                method = Medication.StockSet.name
                try await gateway.changeStock(reminderID: id, amount: amount, expires: expires, set: request.form["action"] == "set")
                return HTMLPage.Notice(text: words(WebMessages.done), problem: false)
            default: return HTMLPage.Notice(text: "no reminder was named", problem: true)
            }
            return nil
        } catch {
            return HTMLPage.Notice(text: DaemonRefusals.said(error, calling: method, words: words), problem: true)
        }
    }

    /// Takes each occurrence due now on its own: one refused (a limit) leaves the others taken, and says why.
    private func takeAll(_ words: any MessageCatalog) async throws -> String? {
        var refusals: [String] = []
        for id in Set(try await gateway.today().occurrences.filter { $0.state == "due" }.map(\.reminderId)).sorted() {
            do { try await gateway.take(reminderID: id) } catch { refusals.append(DaemonRefusals.said(error, calling: Reminders.Done.name, words: words)) }
        }
        return refusals.isEmpty ? nil : refusals.joined(separator: "; ")
    }
}

extension String {
    /// `12,5` (as a German types it) as `12.5`.
    fileprivate var replacingComma: String { String(map { $0 == "," ? "." : $0 }) }
}
