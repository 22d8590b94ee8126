import ReminderCore
import ReminderInterface
import Translation

/// Today's second half: each medication taken as needed, with "Take one now" when its limits allow one and when
/// the next is allowed otherwise; then the medications running low.
struct TodayExtras {
    let frame: HTMLPage
    let asNeeded: [AsNeededValue]
    let stocks: [StockValue]

    var words: any MessageCatalog { frame.words }

    var html: String { lowStock + asNeededSection }

    private var asNeededSection: String {
        guard !asNeeded.isEmpty else { return "" }
        var html = "<section aria-labelledby=\"as-needed\"><h2 id=\"as-needed\">\(HTMLPage.escaped(words(WebMessages.asNeeded)))</h2><ul class=\"due\">"
        for medication in asNeeded {
            let name = HTMLPage.named(medication.shownName, dose: medication.dose, unit: medication.unit, words: words)
            html += "<li><span class=\"what\">\(HTMLPage.escaped(name))</span><span class=\"actions\">"
            if medication.allowedNow {
                html += frame.form(action: "/take-one", button: words(WebMessages.takeOneNow), fields: ["reminder": String(medication.reminderId)],
                                   label: words(WebMessages.takeOneLabel, medication.shownName))
            } else {
                html += "<span>\(HTMLPage.escaped(words(WebMessages.nextAllowed, TodayPage.clock(medication.allowedFromLocal))))</span>"
            }
            if let left = medication.leftInADay { html += " <span class=\"note\">\(HTMLPage.escaped(words(WebMessages.leftToday, count: left, left)))</span>" }
            html += "</span></li>"
        }
        return html + "</ul></section>"
    }

    /// The medications whose stock lasts fewer days than their refill notice wants, or not for the next dose.
    private var lowStock: String {
        let low = stocks.filter(\.runsLow)
        guard !low.isEmpty else { return "" }
        let notes = low.map { stock -> String in
            let left = MedicationPage.amount(stock.left ?? 0, stock.unit, words: words)
            let said = stock.through.flatMap { through in stock.days.map { words(WebMessages.stockThrough, count: $0, left, through, $0) } }
                ?? words(WebMessages.stockNotEnough, left)
            return "<li><strong>\(HTMLPage.escaped(words(WebMessages.runningLow, stock.shownName)))</strong> \(HTMLPage.escaped(said))</li>"
        }
        return "<div class=\"notice\" role=\"status\"><ul>" + notes.joined() + "</ul></div>"
    }
}
