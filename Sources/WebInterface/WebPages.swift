import ReminderInterface
import Translation

// The pages and the changes they post, each a call or two to remindd through the gateway.
extension WebApp {
    func today(_ frame: HTMLPage, notice: HTMLPage.Notice?) async -> WebResponse {
        await page(frame, title: WebMessages.today) {
            async let day = gateway.today()
            async let stocks = gateway.stocks()
            return TodayPage(frame: frame, day: try await day, stocks: try await stocks, notice: notice).html()
        }
    }

    func medication(_ frame: HTMLPage, notice: HTMLPage.Notice?) async -> WebResponse {
        await page(frame, title: WebMessages.medication) {
            MedicationPage(frame: frame, stocks: try await gateway.stocks(), notice: notice).html()
        }
    }

    /// The page `make` writes, or one that says remindd does not answer (503).
    private func page(_ frame: HTMLPage, title: Message, _ make: () async throws -> String) async -> WebResponse {
        do {
            return .page(try await make())
        } catch {
            let said = frame.words(WebMessages.unreachable, "\(error)")
            return .page(frame.document(title: frame.words(title), body: "<p class=\"notice\" role=\"alert\">\(HTMLPage.escaped(said))</p>"), status: 503)
        }
    }

    /// Carries out a change. - Returns: what to tell the user on the page (nil: it was done, on Today; "Done."
    /// elsewhere, where nothing else on the page shows it).
    func change(_ request: WebRequest, words: any MessageCatalog) async -> HTMLPage.Notice? {
        let reminderID = request.form["reminder"].flatMap { Int64($0) }
        do {
            switch (request.path, reminderID) {
            case ("/take", let id?): try await gateway.take(reminderID: id)
            case ("/skip", let id?): try await gateway.skip(reminderID: id)
            case ("/snooze", let id?): try await gateway.snooze(reminderID: id, minutes: request.form["minutes"].flatMap { Int($0) } ?? 10)
            case ("/take-one", let id?): try await gateway.logNow(reminderID: id)
            case ("/take-all", _): return try await takeAll().map { HTMLPage.Notice(text: $0, problem: true) }
            case ("/stock", let id?):
                let amount = (request.form["amount"] ?? "").replacingComma
                let expires = request.form["expires"].flatMap { $0.isEmpty ? nil : $0 }
                try await gateway.changeStock(reminderID: id, amount: amount, expires: expires, set: request.form["action"] == "set")
                return HTMLPage.Notice(text: words(WebMessages.done), problem: false)
            default: return HTMLPage.Notice(text: "no reminder was named", problem: true)
            }
            return nil
        } catch {
            return HTMLPage.Notice(text: "\(error)", problem: true)
        }
    }

    /// Takes each occurrence due now on its own: one refused (a limit) leaves the others taken, and says why.
    private func takeAll() async throws -> String? {
        var refusals: [String] = []
        for id in Set(try await gateway.today().occurrences.filter { $0.state == "due" }.map(\.reminderId)).sorted() {
            do { try await gateway.take(reminderID: id) } catch { refusals.append("\(error)") }
        }
        return refusals.isEmpty ? nil : refusals.joined(separator: "; ")
    }
}

extension String {
    /// `12,5` (as a German types it) as `12.5`.
    fileprivate var replacingComma: String { String(map { $0 == "," ? "." : $0 }) }
}
