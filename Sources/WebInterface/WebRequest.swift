/// A request as the pages see it: its method, path, query and form fields decoded, headers by lower-case name.
public struct WebRequest: Sendable {
    public var method: String
    public var path: String
    public var query: [String: String]
    public var headers: [String: String]
    public var form: [String: String]

    public init(method: String, target: String, headers: [String: String], body: [UInt8] = []) {
        self.method = method
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = String(parts.first ?? "/")
        query = parts.count > 1 ? Self.fields(String(parts[1])) : [:]
        self.headers = headers
        let type = headers["content-type"] ?? ""
        form = type.hasPrefix("application/x-www-form-urlencoded") ? Self.fields(String(decoding: body, as: UTF8.self)) : [:]
    }

    /// The cookie `name`, if the request carries it.
    public func cookie(_ name: String) -> String? {
        for pair in (headers["cookie"] ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingSpaces == name { return String(parts[1].trimmingSpaces) }
        }
        return nil
    }

    /// `a=1&b=x+y` as fields (the first of a repeated name counts).
    static func fields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            // A malformed name or value leaves the field out (a form of ours never sends one).
            guard let name = percentDecoded(parts[0]), fields[name] == nil, let value = parts.count > 1 ? percentDecoded(parts[1]) : "" else { continue }
            fields[name] = value
        }
        return fields
    }

    /// `%41+b` as `A b`; nil for a malformed escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high < utf8.endIndex, utf8.index(after: high) < utf8.endIndex,
                      let value = UInt8(String(decoding: [utf8[high], utf8[utf8.index(after: high)]], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                index = utf8.index(high, offsetBy: 2)
                continue
            }
            bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = utf8.index(after: index)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// What the server sends back.
public struct WebResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// A body sent piece by piece for as long as it runs (server-sent events), instead of ``body``.
    public var stream: (@Sendable (_ send: @Sendable (String) async throws -> Void) async throws -> Void)?

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        (self.status, self.headers, self.body) = (status, headers, body)
    }

    /// An HTML page.
    public static func page(_ html: String, status: Int = 200, headers: [(String, String)] = []) -> WebResponse {
        WebResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8")] + headers, body: Array(html.utf8))
    }

    /// A redirect after a POST, to be fetched with GET (303).
    public static func seeOther(_ location: String, headers: [(String, String)] = []) -> WebResponse {
        WebResponse(status: 303, headers: [("Location", location)] + headers)
    }

    /// Server-sent events: `events` is handed the function that sends one.
    public static func events(_ events: @escaping @Sendable (_ send: @Sendable (String) async throws -> Void) async throws -> Void) -> WebResponse {
        var response = WebResponse(status: 200, headers: [("Content-Type", "text/event-stream")])
        response.stream = events
        return response
    }

    /// A refusal in one line of plain text.
    public static func refused(_ status: Int, _ why: String) -> WebResponse {
        WebResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((why + "\n").utf8))
    }

    /// The value of the header `name` (case-insensitive), if set.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
