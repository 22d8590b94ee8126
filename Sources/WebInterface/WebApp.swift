import Glibc
import ReminderCore
import ReminderInterface
import Translation
import WebLogin

/// remindd-web's pages and its sessions: every request passes ``RequestGuard`` first, logs in once with the
/// token `remindctl ui` wrote, then carries a session cookie; every change is a POST with the session's CSRF
/// token, answered by a redirect to the page (so a reload never repeats it).
public actor WebApp {
    /// A logged-in browser: its CSRF token, when it was last seen, and what to tell it once.
    struct Session {
        let csrf: String
        var lastSeen: ContinuousClock.Instant
        var notice: HTMLPage.Notice?
    }

    static let cookieName = "remindd-session"
    /// A session unused this long is ended.
    static let sessionLifetime = Duration.seconds(12 * 3600)
    static let maximumSessions = 16

    let requestGuard: RequestGuard
    let login: WebLogin
    let gateway: any RemindersGateway
    let languages: WebLanguages
    /// The zone times are shown in, and the environment the PDF is made in (rsvg-convert on its PATH, the paper
    /// of its locale): remindd-web's own, the user's.
    let zone: TimeZoneRules
    let environment: [String: String]
    /// How long a wrong login token waits before its answer.
    let refusalDelay: Duration
    private var sessions: [String: Session] = [:]
    /// Wrong or spent login tokens since the start (said on stderr, each).
    public private(set) var refusedLogins = 0
    /// When the last request came, and how many pages hold a stream of changes open now.
    private var lastRequest = ContinuousClock.now
    private var openStreams = 0

    public init(
        login: WebLogin, gateway: any RemindersGateway, languages: WebLanguages, zone: TimeZoneRules, environment: [String: String],
        refusalDelay: Duration = .seconds(1)
    ) {
        (self.login, self.gateway, self.languages, self.refusalDelay) = (login, gateway, languages, refusalDelay)
        (self.zone, self.environment) = (zone, environment)
        requestGuard = RequestGuard(port: login.port)
    }

    /// The answer to `request`, with the security headers every answer carries.
    public func respond(_ request: WebRequest) async -> WebResponse {
        lastRequest = .now
        var response = await route(request)
        // A document that sets its own policy (the report's SVG) keeps it; every other gets the pages'.
        let own = response.header("Content-Security-Policy") != nil
        response.headers += RequestGuard.securityHeaders.filter { !own || $0.0 != "Content-Security-Policy" }
        return response
    }

    private func route(_ request: WebRequest) async -> WebResponse {
        if let refusal = requestGuard.hostRefusal(request) { return .refused(403, refusal) }
        let words = languages.words(for: request.headers["accept-language"])
        switch (request.method, request.path) {
        case ("GET", "/login"): return await logIn(request)
        case ("GET", "/app.css"): return WebResponse(status: 200, headers: [("Content-Type", "text/css; charset=utf-8")], body: Array(WebStyle.css.utf8))
        case ("GET", "/app.js"): return WebResponse(status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8")], body: Array(WebScript.javascript.utf8))
        default: break
        }
        guard let id = request.cookie(Self.cookieName), var session = sessions[id], ContinuousClock.now - session.lastSeen < Self.sessionLifetime else {
            return .page(words(WebMessages.notLoggedIn), status: 403)
        }
        session.lastSeen = .now
        sessions[id] = session
        if request.method == "GET" {
            // What to tell the user is told once, on the next page.
            sessions[id]?.notice = nil
            let frame = HTMLPage(words: words, csrf: session.csrf, path: request.path)
            switch request.path {
            case "/": return await today(frame, notice: session.notice)
            case "/medication": return await medication(frame, request, notice: session.notice)
            case "/report": return await reportPage(frame, request)
            case "/habits": return await habitsPage(frame, request, notice: session.notice)
            case "/reminders", "/reminders/new", "/reminders/edit", "/reminders/delete", "/reminders/pause": return await remindersPage(frame, request, notice: session.notice)
            case "/report.svg", "/report.pdf": return await reportDocument(request, words: words, pdf: request.path == "/report.pdf")
            case "/events": return changes()
            default: return .refused(404, "no such page")
            }
        }
        guard let returnTo = Self.changes[request.path] else { return .refused(404, "no such page") }
        if let refusal = requestGuard.changeRefusal(request, csrf: session.csrf) { return .refused(403, refusal) }
        if request.path == "/logout" {
            sessions[id] = nil
            return .seeOther("/", headers: [("Set-Cookie", "\(Self.cookieName)=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0")])
        }
        if returnTo.isEmpty {
            let (notice, back) = await reminderChange(request, words: words)
            sessions[id]?.notice = notice
            return .seeOther(back)
        }
        sessions[id]?.notice = await change(request, words: words)
        return .seeOther(returnTo)
    }

    /// The changes a page posts, and the page each returns to.
    static let changes = [
        "/take": "/", "/skip": "/", "/snooze": "/", "/take-all": "/", "/take-one": "/", "/stock": "/medication", "/habits/rest": "/habits", "/logout": "/",
        // Where these return depends on the outcome (``reminderChange(_:words:)``).
        "/reminders/add": "", "/reminders/update": "", "/reminders/enable": "", "/reminders/disable": "", "/reminders/remove": "",
        "/reminders/pause": "", "/reminders/resume": "",
    ]

    /// The login link: a right token starts a session; a wrong or spent one waits, is counted and refused.
    private func logIn(_ request: WebRequest) async -> WebResponse {
        guard let token = request.query["token"], login.consumeToken(token) else {
            refusedLogins += 1
            standardError("remindd-web: refused a login with a wrong or spent token (\(refusedLogins) since the start)\n")
            // Cancellation (the server stopping) only shortens the wait: the answer is the same.
            try? await Task.sleep(for: refusalDelay)
            return .refused(403, "this login link is wrong or was used already: open a new one with 'remindctl ui'")
        }
        let now = ContinuousClock.now
        sessions = sessions.filter { now - $0.value.lastSeen < Self.sessionLifetime }
        if sessions.count >= Self.maximumSessions, let oldest = sessions.min(by: { $0.value.lastSeen < $1.value.lastSeen }) { sessions[oldest.key] = nil }
        let id = WebTokens.random()
        sessions[id] = Session(csrf: WebTokens.random(), lastSeen: now)
        return .seeOther("/", headers: [("Set-Cookie", "\(Self.cookieName)=\(id); HttpOnly; SameSite=Strict; Path=/")])
    }

    /// Server-sent events, one `change` per entry of remindd's Watch stream: the page's script then fetches it
    /// again. The stream ends when remindd's does (the browser reconnects by itself after `retry`).
    private func changes() -> WebResponse {
        .events { [gateway] send in
            await self.streamOpened(true)
            do {
                try await send("retry: 2000\n\n")
                // A change between the page's rendering and the subscription would reach no page: the first event,
                // once remindd is asked to watch, makes the page fetch itself again.
                try await gateway.watch(subscribed: { try await send("event: change\ndata: watching\n\n") }) { kind in
                    try await send("event: change\ndata: \(kind)\n\n")
                }
                await self.streamOpened(false)
            } catch {
                await self.streamOpened(false)
                throw error
            }
        }
    }

    private func streamOpened(_ opened: Bool) {
        openStreams += opened ? 1 : -1
        lastRequest = .now
    }

    /// Returns once no request came for `idle` and no page holds a stream open (checked at each moment it could
    /// first be so: no polling while pages are used).
    public func waitUntilIdle(for idle: Duration) async {
        while true {
            let quietUntil = lastRequest + idle
            if openStreams == 0, ContinuousClock.now >= quietUntil { return }
            let wake = openStreams == 0 ? quietUntil : ContinuousClock.now + idle
            do { try await Task.sleep(until: wake) } catch { return }
        }
    }

}

/// Writes `text` to standard error.
func standardError(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
