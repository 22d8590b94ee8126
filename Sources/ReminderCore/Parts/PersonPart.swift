/// Whom a reminder is for (`--for Anna`): a caregiver keeps a child's and a parent's medicines beside their own
/// on one laptop. Nil: the user themself. A reminder for someone is named with them wherever it is said (`today`,
/// `next`, `history`, the report, the notification: "Anna: Amoxicillin"), and `report --for Anna` is Anna's alone.
/// It travels with the reminder.
public struct PersonSettings: ReminderPart {
    /// The person's name as given; nil: the user.
    public var person: String?

    /// The longest name.
    public static let maximumLength = 60

    public init() {}

    public init(person: String?) { self.person = person }

    /// `person`: a name; "" for the user themself.
    public struct Change: Codable, Hashable, Sendable {
        public var person: String?

        public init(person: String? = nil) { self.person = person }
    }

    public static func check(_ change: Change, adding: Bool) throws(PartError) {
        guard let name = change.person, !name.isEmpty else { return }
        if let problem = problem(of: name.trimmingSpaces) { throw PartError("person", "invalid --for \(quotedInput(name)): \(problem)") }
    }

    public func applying(_ change: Change, adding: Bool) throws(PartError) -> Self {
        try Self.check(change, adding: adding)
        guard let name = change.person else { return self }
        let trimmed = name.trimmingSpaces
        return Self(person: trimmed.isEmpty ? nil : trimmed)
    }

    /// What is wrong with a name, said as what to give instead.
    static func problem(of name: String) -> String? {
        if name.isEmpty { return "give the person's name, e.g. --for Anna (\"\" with update: yourself)" }
        if name.count > maximumLength { return "give a name of at most \(maximumLength) characters" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "give a name without control characters" }
        return nil
    }

    public var problem: String? { person.flatMap { Self.problem(of: $0).map { "the person's name: \($0)" } } }

    public func shown(on date: LocalDate?) -> Self { self }

    public var syncedProperties: [SyncedProperty] { person.map { [SyncedProperty("FOR", $0)] } ?? [] }

    public init(synced property: (String) -> String?) throws(PartError) {
        guard let name = property("FOR") else { return }
        if let problem = Self.problem(of: name) { throw PartError("FOR", "X-REMINDD-FOR: \(problem)") }
        person = name
    }

    public func merging(synced: Self) -> Self { synced }

    /// `Anna: Amoxicillin` for a reminder for someone, the name alone for the user's own.
    public func named(_ name: String) -> String { person.map { "\($0): \(name)" } ?? name }

    /// Whether it is `name`'s (without regard to case).
    public func isFor(_ name: String) -> Bool { person?.lowercased() == name.trimmingSpaces.lowercased() }
}
