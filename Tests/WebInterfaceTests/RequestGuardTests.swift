import Testing
import WebLogin

@testable import WebInterface

/// The checks every request passes, decided from the request alone.
@Suite("remindd-web's request checks")
struct RequestGuardTests {
    let checks = RequestGuard(port: 47140)

    func request(_ method: String = "GET", host: String? = "127.0.0.1:47140", origin: String? = nil, form: String = "") -> WebRequest {
        var headers = ["content-type": "application/x-www-form-urlencoded"]
        headers["host"] = host
        headers["origin"] = origin
        return WebRequest(method: method, target: "/take", headers: headers, body: Array(form.utf8))
    }

    /// A page of another site that a DNS name rebinds to 127.0.0.1 sends its own name as the Host.
    @Test func onlyThisServersOwnNamesAreServed() {
        for host in ["127.0.0.1:47140", "[::1]:47140", "localhost:47140", "LOCALHOST:47140"] { #expect(checks.hostRefusal(request(host: host)) == nil, "\(host)") }
        for host in ["evil.example", "evil.example:47140", "127.0.0.1:80", "127.0.0.1", "localhost.evil.example:47140"] {
            #expect(checks.hostRefusal(request(host: host)) != nil, "\(host)")
        }
        #expect(checks.hostRefusal(request(host: nil)) != nil)
    }

    @Test func aChangeNeedsAPostFromThisOriginWithTheSessionsToken() {
        let csrf = "c0ffee"
        #expect(checks.changeRefusal(request("POST", origin: "http://127.0.0.1:47140", form: "csrf=c0ffee&reminder=1"), csrf: csrf) == nil)
        #expect(checks.changeRefusal(request("GET", origin: "http://127.0.0.1:47140", form: "csrf=c0ffee"), csrf: csrf) != nil)
        #expect(checks.changeRefusal(request("POST", origin: "http://evil.example", form: "csrf=c0ffee"), csrf: csrf) != nil)
        #expect(checks.changeRefusal(request("POST", origin: nil, form: "csrf=c0ffee"), csrf: csrf) != nil)
        // Chromium's form posts from a no-referrer page: Origin null, and the fetch metadata says whence.
        var fromOurPage = request("POST", origin: "null", form: "csrf=c0ffee")
        fromOurPage.headers["sec-fetch-site"] = "same-origin"
        #expect(checks.changeRefusal(fromOurPage, csrf: csrf) == nil)
        fromOurPage.headers["sec-fetch-site"] = "cross-site"
        #expect(checks.changeRefusal(fromOurPage, csrf: csrf) != nil)
        fromOurPage.headers["origin"] = "http://evil.example"
        fromOurPage.headers["sec-fetch-site"] = "same-origin"
        #expect(checks.changeRefusal(fromOurPage, csrf: csrf) != nil)
        #expect(checks.changeRefusal(request("POST", origin: "http://127.0.0.1:47140", form: "reminder=1"), csrf: csrf) != nil)
        #expect(checks.changeRefusal(request("POST", origin: "http://127.0.0.1:47140", form: "csrf=c0ffef"), csrf: csrf) != nil)
    }

    @Test func formFieldsAndCookiesAreDecoded() {
        let posted = WebRequest(
            method: "POST", target: "/x?a=1&b=two%20words", headers: ["content-type": "application/x-www-form-urlencoded", "cookie": "a=1; remindd-session=abc"],
            body: Array("name=Vitamin+D%C3%A9&bad=%zz&name=second".utf8))
        #expect(posted.path == "/x" && posted.query == ["a": "1", "b": "two words"])
        #expect(posted.form["name"] == "Vitamin Dé" && posted.form["bad"] == nil)
        #expect(posted.cookie("remindd-session") == "abc" && posted.cookie("other") == nil)
    }

    @Test func textInPagesIsEscaped() {
        #expect(HTMLPage.escaped("<script>\"a\" & 'b'</script>") == "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;")
    }

    @Test func tokensAreRandomAndComparedWhole() {
        let (a, b) = (WebTokens.random(), WebTokens.random())
        #expect(a.count == 64 && a != b && a.allSatisfy(\.isHexDigit))
        #expect(WebTokens.same(a, a) && !WebTokens.same(a, b) && !WebTokens.same(a, String(a.dropLast())))
    }
}

/// Which language a browser is answered in.
@Suite("remindd-web's languages")
struct WebLanguagesTests {
    @Test func theBrowsersPreferenceOrderWithItsWeights() {
        #expect(WebLanguages.preferred("de-DE,de;q=0.9,en;q=0.8") == ["de", "de", "en"])
        #expect(WebLanguages.preferred("en;q=0.5, fr-CA , es;q=0.7") == ["fr", "es", "en"])
        #expect(WebLanguages.preferred("de;q=0, fr") == ["fr"])
        #expect(WebLanguages.preferred("") == [])
    }
}
