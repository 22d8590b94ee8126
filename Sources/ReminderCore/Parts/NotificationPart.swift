/// How a reminder's desktop notification asks to be seen (`--urgency`).
public struct NotificationSettings: ReminderPart {
    /// Critical urgency: the notification stays until acted on.
    public var critical = false

    public init() {}

    public init(critical: Bool) { self.critical = critical }

    /// The urgencies there are.
    public static let urgencies = ["normal", "critical"]

    /// `--urgency normal|critical`.
    public struct Change: Codable, Hashable, Sendable {
        public var urgency: String?

        public init(urgency: String? = nil) { self.urgency = urgency }
    }

    /// As a reply shows it: `urgency`, normal or critical.
    public struct Shown: Codable, Hashable, Sendable {
        public var urgency: String
    }

    public static func check(_ change: Change, adding: Bool) throws(PartError) {
        if let urgency = change.urgency, !urgencies.contains(urgency) {
            throw PartError("urgency", "invalid --urgency \(quotedInput(urgency)): write normal or critical")
        }
    }

    public func applying(_ change: Change, adding: Bool) throws(PartError) -> Self {
        try Self.check(change, adding: adding)
        return change.urgency.map { Self(critical: $0 == "critical") } ?? self
    }

    public var problem: String? { nil }

    public func shown(on date: LocalDate?) -> Shown { Shown(urgency: critical ? "critical" : "normal") }

    public var syncedProperties: [SyncedProperty] { critical ? [SyncedProperty("URGENCY", "CRITICAL")] : [] }

    public func merging(synced: Self) -> Self { synced }

    public init(synced property: (String) -> String?) throws(PartError) {
        critical = property("URGENCY")?.uppercased() == "CRITICAL"
    }

    private enum CodingKeys: String, CodingKey { case critical }

    public init(from decoder: any Decoder) throws {
        critical = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Bool.self, forKey: .critical) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if critical { try container.encode(critical, forKey: .critical) }
    }
}
