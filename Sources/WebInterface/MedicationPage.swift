import ReminderCore
import ReminderInterface
import Translation

/// Medication: each medication's stock, the day it lasts through and the day to order by, with a form to add a
/// pack (a refill, with its expiry) or to count what is left.
struct MedicationPage {
    let frame: HTMLPage
    let stocks: [StockValue]
    /// The `after` of the next page of medications; nil on the last.
    let next: Int64?
    let notice: HTMLPage.Notice?

    var words: any MessageCatalog { frame.words }

    func html() -> String {
        var body = notice?.html ?? ""
        guard !stocks.isEmpty else { return frame.document(title: words(WebMessages.medication), body: body + "<p>\(HTMLPage.escaped(words(WebMessages.noMedication)))</p>") }
        let headings = [WebMessages.reminderHeading, WebMessages.leftHeading, WebMessages.lastsHeading, WebMessages.orderByHeading, WebMessages.limitsHeading]
        body += frame.tableStart(words(WebMessages.medication), headings: headings)
        var texts = Texts(words, csrf: frame.csrf)
        for stock in stocks {
            let left = stock.left.map { Self.amount($0, stock.unit, words: words) } ?? words(WebMessages.neverCounted)
            body += "<tr><td>\(HTMLPage.escaped(stock.shownName))</td><td>\(HTMLPage.escaped(left))</td>"
            body += "<td>\(HTMLPage.escaped(stock.through ?? "-"))</td><td>\(HTMLPage.escaped(stock.orderBy ?? "-"))</td>"
            body += "<td>\(HTMLPage.escaped(limits(stock, none: texts.noLimit))) \(changeLink(stock, texts))</td></tr>"
        }
        body += HTMLPage.tableEnd
        if let next { body += "<p><a href=\"/medication?after=\(next)\">\(HTMLPage.escaped(words(WebMessages.moreMedication)))</a></p>" }
        for stock in stocks { body += changeForm(stock, &texts) }
        return frame.document(title: words(WebMessages.medication), body: body)
    }

    /// `at least 6h apart, at most 3 in 24 hours`, or `none`.
    func limits(_ stock: StockValue, none: String) -> String {
        let apart = stock.minIntervalSeconds.map { words(WebMessages.apartLimit, WindowLength.text($0)) }
        let perDay = stock.maxPerDay.map { words(WebMessages.perDayLimit, $0) }
        let both = [apart, perDay].compactMap { $0 }
        return both.isEmpty ? none : both.joined(separator: ", ")
    }

    /// The limits are changed on the reminder's form, with the rest of its medication.
    private func changeLink(_ stock: StockValue, _ texts: Texts) -> String {
        let label = words(WebMessages.actionOn, texts.change, stock.shownName)
        return "<a href=\"/reminders/edit?reminder=\(stock.reminderId)\" aria-label=\"\(HTMLPage.escaped(label))\">\(HTMLPage.escaped(texts.change))</a>"
    }

    /// What every medication's row and form say alike, looked up and escaped once a page (1,000 medications
    /// looked each up 1,000 times: most of the page's time).
    private struct Texts {
        let change, noLimit, expires, addPack, countLeft, csrf: String
        /// `Amount (tablets)` per unit, as they come.
        var amountLabels: [String: String] = [:]

        init(_ words: any MessageCatalog, csrf: String) {
            (change, noLimit) = (words(WebMessages.change), words(WebMessages.noLimit))
            (expires, addPack) = (HTMLPage.escaped(words(WebMessages.expires)), HTMLPage.escaped(words(WebMessages.addPack)))
            (countLeft, self.csrf) = (HTMLPage.escaped(words(WebMessages.countLeft)), HTMLPage.escaped(csrf))
        }

        mutating func amountLabel(_ unit: String, _ words: any MessageCatalog) -> String {
            if let known = amountLabels[unit] { return known }
            let plural = words.dose(Dose(thousandths: 2000, unit: unit)).split(separator: " ").dropFirst().joined(separator: " ")
            let label = HTMLPage.escaped(words(WebMessages.amount, plural.isEmpty ? unit : plural))
            amountLabels[unit] = label
            return label
        }
    }

    /// A form per medication: an amount, an expiry, and the two buttons (add a pack, count what is left); a stock
    /// never counted is counted first (remindd refuses a pack added to it, as `stock add` is).
    private func changeForm(_ stock: StockValue, _ texts: inout Texts) -> String {
        let id = "stock-\(stock.reminderId)"
        return """
            <form method="post" action="/stock" class="stock" aria-labelledby="\(id)"><h2 id="\(id)">\(HTMLPage.escaped(words(WebMessages.changeStock, stock.shownName)))</h2>\
            <input type="hidden" name="csrf" value="\(texts.csrf)"><input type="hidden" name="reminder" value="\(stock.reminderId)">\
            <label>\(texts.amountLabel(stock.unit, words)) <input name="amount" inputmode="decimal" required pattern="[0-9]+([.,][0-9]+)?"></label> \
            <label>\(texts.expires) <input name="expires" placeholder="2027-03" pattern="[0-9]{4}-[0-9]{2}(-[0-9]{2})?"></label> \
            \(stock.left == nil ? "" : "<button type=\"submit\" name=\"action\" value=\"add\">\(texts.addPack)</button>")\
            <button type="submit" name="action" value="set">\(texts.countLeft)</button></form>
            """
    }

    /// `30 tablets`, `12.5 mg` in the page's language.
    static func amount(_ value: Double, _ unit: String, words: any MessageCatalog) -> String {
        words.decimal(words.dose(Dose(thousandths: Int64((value * 1000).rounded()), unit: unit)))
    }
}
