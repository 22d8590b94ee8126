import ReminderCore
import Translation

/// The frame of every page: its language, title, the navigation and the log-out button, around the page's own
/// HTML. Server-rendered and complete without JavaScript; `/app.js` only refreshes Today when something changes.
struct HTMLPage {
    let words: any MessageCatalog
    let csrf: String

    /// `text` with `& < > " '` written as entities: safe in element content and in quoted attributes.
    static func escaped(_ text: String) -> String {
        // By bytes: the five are ASCII, and every other byte (a UTF-8 sequence's too) is copied as it is. Most
        // texts hold none of them and are returned as they are (a page of 1,000 rows escapes about 10,000).
        let special: (UInt8) -> Bool = { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }
        guard text.utf8.contains(where: special) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): result += "&amp;".utf8
            case UInt8(ascii: "<"): result += "&lt;".utf8
            case UInt8(ascii: ">"): result += "&gt;".utf8
            case UInt8(ascii: "\""): result += "&quot;".utf8
            case UInt8(ascii: "'"): result += "&#39;".utf8
            default: result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// What the last change said, shown once on the next page: done, or refused and why.
    struct Notice: Sendable {
        let text: String
        let problem: Bool

        var html: String {
            "<p class=\"\(problem ? "notice" : "said")\" role=\"\(problem ? "alert" : "status")\">\(HTMLPage.escaped(text))</p>"
        }
    }

    /// A table's start, in a region that scrolls sideways on a narrow screen (focusable, to scroll by keyboard),
    /// with its column headings; ``tableEnd`` closes both.
    func tableStart(_ label: String, headings: [Message], className: String? = nil, trailingCell: Bool = false) -> String {
        let heads = headings.map { "<th scope=\"col\">\(Self.escaped(words($0)))</th>" }.joined() + (trailingCell ? "<td></td>" : "")
        let named = className.map { " class=\"\($0)\"" } ?? ""
        return "<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-label=\"\(Self.escaped(label))\"><table\(named)><thead><tr>\(heads)</tr></thead><tbody>"
    }

    static let tableEnd = "</tbody></table></div>"

    /// `Metformin (1 tablet)`, or the name alone without a dose.
    static func named(_ name: String, dose: Double?, unit: String?, words: any MessageCatalog) -> String {
        guard let dose, let unit else { return name }
        return "\(name) (\(words.decimal(words.dose(Dose(thousandths: Int64((dose * 1000).rounded()), unit: unit)))))"
    }

    /// The whole document.
    func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(Self.escaped(words.language))">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(Self.escaped(title)) – remindd</title>
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <header>
        <nav aria-label="\(Self.escaped(words(WebMessages.pages)))">\(navigation)</nav>
        \(form(action: "/logout", button: words(WebMessages.logOut), fields: [:]))
        </header>
        <main data-live>
        <h1>\(Self.escaped(title))</h1>
        \(body)
        </main>
        </body>
        </html>
        """
    }

    /// The page's path (`/`, `/medication`): its link in the navigation is marked current.
    var path = "/"

    private var navigation: String {
        [("/", WebMessages.today), ("/reminders", WebMessages.reminders), ("/medication", WebMessages.medication), ("/habits", WebMessages.habits),
         ("/report", WebMessages.report)].map { target, name in
            "<a href=\"\(target)\"\(target == path || path.hasPrefix(target + "/") ? " aria-current=\"page\"" : "")>\(Self.escaped(words(name)))</a>"
        }.joined()
    }

    /// A POST form of one button, with the session's CSRF token and `fields` as hidden inputs.
    func form(action: String, button: String, fields: [String: String], label: String? = nil) -> String {
        let hidden = fields.sorted { $0.key < $1.key }.map {
            "<input type=\"hidden\" name=\"\(Self.escaped($0.key))\" value=\"\(Self.escaped($0.value))\">"
        }.joined()
        let named = label.map { " aria-label=\"\(Self.escaped($0))\"" } ?? ""
        return """
            <form method="post" action="\(Self.escaped(action))"><input type="hidden" name="csrf" value="\(Self.escaped(csrf))">\
            \(hidden)<button type="submit"\(named)>\(Self.escaped(button))</button></form>
            """
    }
}
