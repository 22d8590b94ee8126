/// A command run, without a shell, at each announcement of the reminder (`--exec`). Never synced: a synced file
/// must not make another machine run a program.
public struct HookSettings: ReminderPart {
    /// The program (an absolute path) and its arguments; nil: none.
    public var command: [String]?

    public init() {}

    public init(command: [String]?) { self.command = command }

    /// `command`: program and arguments; [] for none. (The daemon checks the program: ``commands`` of a change.)
    public struct Change: Codable, Hashable, Sendable {
        public var command: [String]?

        public init(command: [String]? = nil) { self.command = command }
    }

    public static func check(_ change: Change, adding: Bool) throws(PartError) {}

    public func applying(_ change: Change, adding: Bool) throws(PartError) -> Self {
        change.command.map { Self(command: $0.isEmpty ? nil : $0) } ?? self
    }

    public var problem: String? {
        guard let command, command.isEmpty || command.contains(where: { $0.isEmpty || $0.contains("\0") }) else { return nil }
        return "the command is empty or has an empty or NUL-holding word"
    }

    public func shown(on date: LocalDate?) -> Self { self }

    public var syncedProperties: [SyncedProperty] { [] }

    public func merging(synced: Self) -> Self { self }

    public init(synced property: (String) -> String?) throws(PartError) {}
}
