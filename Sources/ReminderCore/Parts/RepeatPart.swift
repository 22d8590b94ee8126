/// Repeats: a due occurrence announced again until it is taken or skipped (`--repeat`, `--repeat-max`).
public struct RepeatSettings: ReminderPart {
    /// nil: announced once.
    public var plan: RepeatPlan?

    public init() {}

    public init(plan: RepeatPlan?) { self.plan = plan }

    /// `--repeat 10m` (`""`: announce once), `--repeat-max 3` (0 with update: until the window ends).
    public struct Change: Codable, Hashable, Sendable {
        public var `repeat`: String?
        public var repeatMax: Int?

        public init(repeat: String? = nil, repeatMax: Int? = nil) { (self.repeat, self.repeatMax) = (`repeat`, repeatMax) }
    }

    public static func check(_ change: Change, adding: Bool) throws(PartError) {
        if let text = change.repeat, !text.isEmpty, RepeatPlan.interval(text) == nil {
            throw PartError("repeat", "invalid --repeat \(quotedInput(text)): write \(RepeatPlan.forms)")
        }
        if let maximum = change.repeatMax {
            guard maximum == 0 || RepeatPlan.maximums.contains(maximum) else {
                throw PartError("repeatMax", "invalid --repeat-max \(maximum): give 1 to 100 repeats (0 with update: until the window ends)")
            }
            if adding, change.repeat?.isEmpty ?? true { throw Self.maximumAlone }
        }
    }

    private static let maximumAlone = PartError("repeatMax", "a repeat maximum needs a repeat interval: add --repeat 10m")

    public func applying(_ change: Change, adding: Bool) throws(PartError) -> Self {
        try Self.check(change, adding: adding)
        var changed = self
        if let text = change.repeat {
            changed.plan = RepeatPlan.interval(text).map { RepeatPlan(intervalSeconds: $0, maximum: plan?.maximum) }
        }
        if let maximum = change.repeatMax {
            guard changed.plan != nil else { throw Self.maximumAlone }
            changed.plan?.maximum = maximum == 0 ? nil : maximum
        }
        return changed
    }

    public var problem: String? {
        guard let plan else { return nil }
        guard WindowLength.range.contains(plan.intervalSeconds) else { return "repeat interval \(plan.intervalSeconds) s is not \(RepeatPlan.forms)" }
        if let maximum = plan.maximum, !RepeatPlan.maximums.contains(maximum) { return "repeat maximum \(maximum) is not 1 to 100" }
        return nil
    }

    public func shown(on date: LocalDate?) -> Self { self }

    // Values with a comma are TEXT with it escaped when written (RFC 5545 3.3.11): a bare comma separates values,
    // and a server's parser (Radicale's vobject) kept only the first (`600,3` came back as `600`).
    public var syncedProperties: [SyncedProperty] {
        plan.map { [SyncedProperty("REPEAT", "\($0.intervalSeconds)" + ($0.maximum.map { ",\($0)" } ?? ""))] } ?? []
    }

    public func merging(synced: Self) -> Self { synced }

    public init(synced property: (String) -> String?) throws(PartError) {
        guard let text = property("REPEAT") else { return }
        // Read unescaped: `600\,3` as remindd writes it, `600,3` as it wrote it before.
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard let seconds = parts.first.flatMap({ Int64($0) }), WindowLength.range.contains(seconds), parts.count <= 2,
            parts.count == 1 || Int(parts[1]).map(RepeatPlan.maximums.contains) == true
        else { throw PartError("REPEAT", "X-REMINDD-REPEAT is not seconds and an optional maximum, e.g. 600,3") }
        plan = RepeatPlan(intervalSeconds: seconds, maximum: parts.count == 2 ? Int(parts[1]) : nil)
    }

    private enum CodingKeys: String, CodingKey { case repeatSeconds, repeatMax }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let (seconds, maximum) = (try container.decodeIfPresent(Int64.self, forKey: .repeatSeconds), try container.decodeIfPresent(Int.self, forKey: .repeatMax))
        plan = seconds.map { RepeatPlan(intervalSeconds: $0, maximum: maximum) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(plan?.intervalSeconds, forKey: .repeatSeconds)
        try container.encodeIfPresent(plan?.maximum, forKey: .repeatMax)
    }
}

/// Re-announcing a due occurrence: every `intervalSeconds` after the last announcement, at most `maximum`
/// times (nil: until its window ends), and never once it is taken or skipped.
public struct RepeatPlan: Sendable, Hashable {
    /// The most repeats one occurrence can ask for.
    public static let maximums: ClosedRange<Int> = 1...100
    /// What an interval may be, for error messages.
    public static let forms = "a length of 1s to 24h such as 10m, 1h or 1h30m"

    public var intervalSeconds: Int64
    public var maximum: Int?

    public init(intervalSeconds: Int64, maximum: Int? = nil) {
        self.intervalSeconds = intervalSeconds
        self.maximum = maximum
    }

    /// The interval `text` stands for (`10m`, `1h30m`), or nil when it is not 1 second to 24 hours (the
    /// lengths a window takes).
    public static func interval(_ text: String) -> Int64? {
        WindowLength.seconds(text)
    }

    /// When to announce an occurrence again: an interval after its last announcement, unless `sent` repeats
    /// reached the maximum or its window ends first (a repeat at the window's end would announce a missed
    /// occurrence).
    public func next(after lastAnnounced: Instant, sent: Int, windowEnd: Instant) -> Instant? {
        if let maximum, sent >= maximum { return nil }
        let next = lastAnnounced.adding(seconds: intervalSeconds)
        return next < windowEnd ? next : nil
    }
}
