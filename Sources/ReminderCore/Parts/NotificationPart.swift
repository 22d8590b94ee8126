/// How a reminder's desktop notification asks to be seen and what its Snooze button does (`--urgency`,
/// `--snooze`).
public struct NotificationSettings: ReminderPart {
    /// Critical urgency: the notification stays until acted on.
    public var critical = false
    /// How long the notification's Snooze button puts the occurrence off, in minutes (nil: ``defaultSnoozeMinutes``).
    public var snoozeMinutes: Int? {
        get { storedSnooze.map(Int.init) }
        set { storedSnooze = newValue.map { UInt16(clamping: $0) } }
    }
    /// ``snoozeMinutes`` in two bytes (1 to 1,440): every reminder of a 100,000 holds a delivery.
    private var storedSnooze: UInt16?

    public init() {}

    public init(critical: Bool, snoozeMinutes: Int? = nil) {
        self.critical = critical
        self.snoozeMinutes = snoozeMinutes
    }

    /// The urgencies there are.
    public static let urgencies = ["normal", "critical"]
    /// The Snooze button's length unless a reminder says otherwise.
    public static let defaultSnoozeMinutes = 10
    /// What `--snooze` may be, in minutes: 1 minute to 24 hours.
    public static let snoozeRange = 1...1440

    /// The Snooze button's length in effect, in minutes.
    public var snooze: Int { snoozeMinutes ?? Self.defaultSnoozeMinutes }

    /// `--urgency normal|critical`, `--snooze 15m` ("" with update: the default).
    public struct Change: Codable, Hashable, Sendable {
        public var urgency: String?
        public var snooze: String?

        public init(urgency: String? = nil, snooze: String? = nil) { (self.urgency, self.snooze) = (urgency, snooze) }
    }

    /// As a reply shows it: `urgency`, normal or critical; `snoozeMinutes`, the Snooze button's length in effect.
    public struct Shown: Codable, Hashable, Sendable {
        public var urgency: String
        public var snoozeMinutes: Int
    }

    public static func check(_ change: Change, adding: Bool) throws(PartError) {
        if let urgency = change.urgency, !urgencies.contains(urgency) {
            throw PartError("urgency", "invalid --urgency \(quotedInput(urgency)): write normal or critical")
        }
        if let text = change.snooze, !text.isEmpty, minutes(text) == nil {
            throw PartError("snooze", "invalid --snooze \(quotedInput(text)): write whole minutes from 1m to 24h such as 5m, 15m or 1h")
        }
    }

    /// The whole minutes `text` stands for (`15m`, `1h`), or nil when it is not 1 minute to 24 hours of them.
    private static func minutes(_ text: String) -> Int? {
        guard let seconds = WindowLength.seconds(text), seconds % 60 == 0, snoozeRange.contains(Int(seconds / 60)) else { return nil }
        return Int(seconds / 60)
    }

    public func applying(_ change: Change, adding: Bool) throws(PartError) -> Self {
        try Self.check(change, adding: adding)
        var changed = self
        if let urgency = change.urgency { changed.critical = urgency == "critical" }
        if let text = change.snooze { changed.snoozeMinutes = Self.minutes(text) }
        return changed
    }

    public var problem: String? {
        guard let snoozeMinutes, !Self.snoozeRange.contains(snoozeMinutes) else { return nil }
        return "snooze \(snoozeMinutes) min is not 1 minute to 24 hours"
    }

    public func shown(on date: LocalDate?) -> Shown { Shown(urgency: critical ? "critical" : "normal", snoozeMinutes: snooze) }

    public func merging(synced: Self) -> Self { synced }

    public var syncedProperties: [SyncedProperty] {
        (critical ? [SyncedProperty("URGENCY", "CRITICAL")] : []) + (snoozeMinutes.map { [SyncedProperty("SNOOZE", String($0 * 60))] } ?? [])
    }

    public init(synced property: (String) -> String?) throws(PartError) {
        critical = property("URGENCY")?.uppercased() == "CRITICAL"
        if let text = property("SNOOZE") {
            guard let seconds = Int(text), seconds % 60 == 0, Self.snoozeRange.contains(seconds / 60) else {
                throw PartError("SNOOZE", "X-REMINDD-SNOOZE is not whole minutes of 1 minute to 24 hours in seconds, e.g. 900")
            }
            snoozeMinutes = seconds / 60
        }
    }

    private enum CodingKeys: String, CodingKey { case critical, snoozeMinutes }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        critical = try container.decodeIfPresent(Bool.self, forKey: .critical) ?? false
        snoozeMinutes = try container.decodeIfPresent(Int.self, forKey: .snoozeMinutes)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if critical { try container.encode(critical, forKey: .critical) }
        try container.encodeIfPresent(snoozeMinutes, forKey: .snoozeMinutes)
    }
}
