import WebLogin

/// The checks every request passes before a page sees it, as Syncthing and Cockpit make them, decided from the
/// request alone (no I/O): the `Host` is this server's own name (a DNS-rebinding page's request names its own
/// host), a state-changing request is a POST whose `Origin` is this server and whose form carries the session's
/// CSRF token. The session itself is the caller's to find from the cookie.
public struct RequestGuard: Sendable {
    public let port: Int

    public init(port: Int) { self.port = port }

    /// The hosts a browser on this machine names this server by.
    public var allowedHosts: Set<String> { ["127.0.0.1:\(port)", "[::1]:\(port)", "localhost:\(port)"] }

    /// Why the request is refused before any session is looked at; nil: it may go on.
    public func hostRefusal(_ request: WebRequest) -> String? {
        guard let host = request.headers["host"], allowedHosts.contains(host.lowercased()) else {
            return "unknown Host: open remindd-web at http://127.0.0.1:\(port)/ (remindctl ui)"
        }
        return nil
    }

    /// Why a state-changing request is refused for a session whose CSRF token is `csrf`; nil: it may change state.
    public func changeRefusal(_ request: WebRequest, csrf: String) -> String? {
        guard request.method == "POST" else { return "a change needs a POST from remindd-web's own page" }
        guard Self.fromOwnPage(request) else { return "the request did not come from remindd-web's own page (Origin)" }
        guard let presented = request.form["csrf"], WebTokens.same(presented, csrf) else {
            return "the page's form token is missing or old: reload the page and try again"
        }
        return nil
    }

    /// Whether the browser says the request comes from a page of this server: its `Origin` is this server, or,
    /// where a browser sends `Origin: null` (Chromium does for a form posted from a page whose Referrer-Policy is
    /// no-referrer, as ours is), `Sec-Fetch-Site: same-origin`, which a page elsewhere cannot send.
    static func fromOwnPage(_ request: WebRequest) -> Bool {
        guard let host = request.headers["host"] else { return false }
        switch request.headers["origin"]?.lowercased() {
        case ("http://" + host.lowercased())?: return true
        case "null"?, nil: return request.headers["sec-fetch-site"] == "same-origin"
        default: return false
        }
    }

    /// The headers every response carries: no script, style or image from elsewhere, no framing, no referrer.
    public static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
        ("Cache-Control", "no-store"),
    ]
}
