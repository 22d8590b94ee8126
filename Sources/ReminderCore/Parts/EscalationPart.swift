/// Telling someone else: a command run, without a shell, when an occurrence is missed, or a given time after it
/// while it is still not taken or skipped; once per occurrence either way (`--escalate-exec`, `--escalate-after`).
/// Never synced, as a command.
public struct EscalationSettings: ReminderPart {
    /// The program (an absolute path) and its arguments; nil: no one is told.
    public var command: [String]?
    /// Run ``command`` this long after an occurrence's time when it is still not taken or skipped, instead of when
    /// it is missed (nil: when missed).
    public var afterSeconds: Int64?

    public init() {}

    public init(command: [String]?, afterSeconds: Int64? = nil) { (self.command, self.afterSeconds) = (command, afterSeconds) }

    /// `escalateCommand` ([] for none), `escalateAfter` (`30m`; "" for when missed).
    public struct Change: Codable, Hashable, Sendable {
        public var escalateCommand: [String]?
        public var escalateAfter: String?

        public init(escalateCommand: [String]? = nil, escalateAfter: String? = nil) { (self.escalateCommand, self.escalateAfter) = (escalateCommand, escalateAfter) }
    }

    public static func check(_ change: Change, adding: Bool) throws(PartError) {
        guard let text = change.escalateAfter, !text.isEmpty else { return }
        guard WindowLength.seconds(text) != nil else {
            throw PartError("escalateAfter", "invalid --escalate-after \(quotedInput(text)): write \(WindowLength.forms)")
        }
        if adding, change.escalateCommand?.isEmpty ?? true { throw needsCommand(text) }
    }

    private static func needsCommand(_ text: String) -> PartError {
        PartError("escalateAfter", "--escalate-after \(quotedInput(text)) needs a command to run: add --escalate-exec /path/to/tell-carer")
    }

    public func applying(_ change: Change, adding: Bool) throws(PartError) -> Self {
        try Self.check(change, adding: adding)
        var changed = self
        if let words = change.escalateCommand {
            changed.command = words.isEmpty ? nil : words
            if words.isEmpty, change.escalateAfter == nil { changed.afterSeconds = nil }  // meaningless alone
        }
        if let text = change.escalateAfter {
            guard text.isEmpty || changed.command != nil else { throw Self.needsCommand(text) }
            changed.afterSeconds = WindowLength.seconds(text)
        }
        return changed
    }

    public var problem: String? {
        if let command, command.isEmpty || command.contains(where: { $0.isEmpty || $0.contains("\0") }) {
            return "the escalation command is empty or has an empty or NUL-holding word"
        }
        guard let afterSeconds else { return nil }
        guard command != nil else { return "an escalation delay without an escalation command" }
        guard WindowLength.range.contains(afterSeconds) else { return "escalation delay \(afterSeconds) s is not 1 s to 24 h" }
        return nil
    }

    public func shown(on date: LocalDate?) -> Self { self }

    public var syncedProperties: [SyncedProperty] { [] }

    public func merging(synced: Self) -> Self { self }

    public init(synced property: (String) -> String?) throws(PartError) {}

    private enum CodingKeys: String, CodingKey { case escalateCommand, escalateAfterSeconds }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        command = try container.decodeIfPresent([String].self, forKey: .escalateCommand)
        afterSeconds = try container.decodeIfPresent(Int64.self, forKey: .escalateAfterSeconds)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(command, forKey: .escalateCommand)
        try container.encodeIfPresent(afterSeconds, forKey: .escalateAfterSeconds)
    }
}
