/// A pause with dates (`remindctl pause`): while a span covers an occurrence's instant, the occurrence is not
/// announced, never missed and never escalated; it is counted apart ("paused") by `today`, `history`, the report
/// and the streaks. The spans travel with the reminder to other devices.
///
/// Set and ended by the `Pause` and `Resume` calls, not by `add`/`update` options: its ``Change`` is empty.
public struct PauseSettings: ReminderPart {
    /// The spans, oldest first, none overlapping another.
    public private(set) var spans: [PauseSpan] = []

    /// The most spans one reminder keeps: the oldest ended ones go first.
    public static let maximumSpans = 50

    public init() {}

    public init(spans: [PauseSpan]) { self.spans = Self.merged(spans) }

    /// The span that covers `instant`, if any.
    public func span(covering instant: Instant) -> PauseSpan? {
        spans.first { $0.covers(instant) }
    }

    /// With `span` added: spans that overlap or touch it become one (the reason of the newest stays).
    public func adding(_ span: PauseSpan) -> Self {
        var added = Self(spans: spans + [span])
        while added.spans.count > Self.maximumSpans { added.spans.removeFirst() }
        return added
    }

    /// Resumed at `now`: a span running ends now, those ahead are gone, those ended stay (the report counts them).
    /// - Returns: the settings, and whether anything changed.
    public func resumed(at now: Instant) -> (settings: Self, changed: Bool) {
        var resumed = self
        resumed.spans = spans.compactMap { span in
            if span.until <= now { return span }
            if span.from >= now { return nil }
            return PauseSpan(from: span.from, until: now, reason: span.reason)
        }
        return (resumed, resumed != self)
    }

    /// The spans sorted, those that overlap or touch made one.
    private static func merged(_ spans: [PauseSpan]) -> [PauseSpan] {
        var merged: [PauseSpan] = []
        for span in spans.sorted(by: { ($0.from, $0.until) < ($1.from, $1.until) }) {
            if let last = merged.last, span.from <= last.until {
                merged[merged.count - 1] = PauseSpan(from: last.from, until: max(last.until, span.until), reason: span.reason ?? last.reason)
            } else {
                merged.append(span)
            }
        }
        return merged
    }

    /// Nothing: a pause is set by `Pause` and ended by `Resume`.
    public struct Change: Codable, Hashable, Sendable {
        public init() {}
    }

    public static func check(_ change: Change, adding: Bool) throws(PartError) {}

    public func applying(_ change: Change, adding: Bool) throws(PartError) -> Self { self }

    public var problem: String? {
        if spans.count > Self.maximumSpans { return "more than \(Self.maximumSpans) pauses" }
        return spans.lazy.compactMap(\.problem).first
    }

    /// `pauses`: each span's start and end (UTC, ISO 8601) and reason.
    public struct Shown: Codable, Hashable, Sendable {
        public var pauses: [PauseSpan.Shown]?

        public init(pauses: [PauseSpan.Shown]?) { self.pauses = pauses }
    }

    public func shown(on date: LocalDate?) -> Shown { Shown(pauses: spans.isEmpty ? nil : spans.map(\.shown)) }

    // One property, each span `FROM/UNTIL` in UTC with its reason after a space, spans apart by `;` (escaped
    // when written, as TEXT): `20261201T080000Z/20261208T080000Z hospital`.
    public var syncedProperties: [SyncedProperty] {
        spans.isEmpty ? [] : [SyncedProperty("PAUSES", spans.map(\.syncedText).joined(separator: ";"))]
    }

    public func merging(synced: Self) -> Self { synced }

    public init(synced property: (String) -> String?) throws(PartError) {
        guard let text = property("PAUSES") else { return }
        var read: [PauseSpan] = []
        for item in text.split(separator: ";") {
            guard let span = PauseSpan(syncedText: item), span.problem == nil else {
                throw PartError("PAUSES", "X-REMINDD-PAUSES is not spans such as 20261201T080000Z/20261208T080000Z, apart by ';'")
            }
            read.append(span)
        }
        guard read.count <= Self.maximumSpans else { throw PartError("PAUSES", "X-REMINDD-PAUSES holds more than \(Self.maximumSpans) pauses") }
        spans = Self.merged(read)
    }

    private enum CodingKeys: String, CodingKey { case pauses }

    public init(from decoder: any Decoder) throws {
        spans = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([PauseSpan].self, forKey: .pauses) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !spans.isEmpty { try container.encode(spans, forKey: .pauses) }
    }
}

/// One pause: from its start (included) to its end (excluded), with the reason given (a `;` in it is kept as `,`:
/// it separates the pauses in a synced item, and every device must keep the same text).
public struct PauseSpan: Sendable, Hashable, Codable {
    public let from: Instant
    public let until: Instant
    public let reason: String?

    /// The longest reason kept, in characters.
    public static let reasonLimit = 200
    /// The longest pause: a year and a day.
    public static let longestSeconds: Int64 = 367 * 86400

    public init(from: Instant, until: Instant, reason: String?) {
        (self.from, self.until) = (from, until)
        self.reason = reason.flatMap { $0.isEmpty ? nil : $0.replacingSemicolons() }
    }

    public func covers(_ instant: Instant) -> Bool { from <= instant && instant < until }

    /// What is wrong with a span that did not come through `Pause` (a restored row, another device's item).
    public var problem: String? {
        guard Instant.storable.contains(from), Instant.storable.contains(until), from < until else { return "a pause that ends before it starts" }
        guard until.secondsSinceEpoch - from.secondsSinceEpoch <= Self.longestSeconds else { return "a pause longer than a year" }
        if let reason, reason.count > Self.reasonLimit || reason.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "a pause's reason longer than \(Self.reasonLimit) characters or with control characters"
        }
        return nil
    }

    /// A span as a reply shows it.
    public struct Shown: Codable, Hashable, Sendable {
        public var from: String
        public var until: String
        public var reason: String?

        public init(from: String, until: String, reason: String?) { (self.from, self.until, self.reason) = (from, until, reason) }
    }

    public var shown: Shown {
        Shown(from: ISO8601.format(from, offsetSeconds: 0), until: ISO8601.format(until, offsetSeconds: 0), reason: reason)
    }

    private enum CodingKeys: String, CodingKey { case from, until, reason }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            from: Instant(secondsSinceEpoch: try container.decode(Int64.self, forKey: .from)),
            until: Instant(secondsSinceEpoch: try container.decode(Int64.self, forKey: .until)),
            reason: try container.decodeIfPresent(String.self, forKey: .reason))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from.secondsSinceEpoch, forKey: .from)
        try container.encode(until.secondsSinceEpoch, forKey: .until)
        try container.encodeIfPresent(reason, forKey: .reason)
    }

    fileprivate var syncedText: String {
        Self.basic(from) + "/" + Self.basic(until) + (reason.map { " " + $0 } ?? "")
    }

    fileprivate init?(syncedText: Substring) {
        let (times, reason) = syncedText.firstIndex(of: " ").map { (syncedText[..<$0], String(syncedText[syncedText.index(after: $0)...])) }
            ?? (syncedText, nil)
        let ends = times.split(separator: "/", omittingEmptySubsequences: false)
        guard ends.count == 2, let from = Self.instant(basic: ends[0]), let until = Self.instant(basic: ends[1]) else { return nil }
        self.init(from: from, until: until, reason: reason)
    }

    /// `20261201T080000Z`.
    private static func basic(_ instant: Instant) -> String {
        ISO8601.format(instant, offsetSeconds: 0).filter { $0 != "-" && $0 != ":" }
    }

    private static func instant(basic text: Substring) -> Instant? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z"),
            let local = ISO8601.parseDateTime(String(text.prefix(15)).expandedBasic())
        else { return nil }
        return Instant(secondsSinceEpoch: local.localSeconds)
    }
}

extension String {
    /// A pause's reason: `;` separates spans in a synced item, so it becomes `,`.
    fileprivate func replacingSemicolons() -> String { String(map { $0 == ";" ? "," : $0 }) }

    /// `20261201T080000` as `2026-12-01T08:00:00`.
    fileprivate func expandedBasic() -> String {
        let characters = Array(self)
        return String(characters[0..<4]) + "-" + String(characters[4..<6]) + "-" + String(characters[6..<11]) + ":"
            + String(characters[11..<13]) + ":" + String(characters[13..<15])
    }
}
