/// A part of a reminder that one feature owns (its repeats, its notification, its dose ...): the settings, declared
/// once with their validation, and everything the other layers take from there.
///
/// - Stored: the part's `Codable` form, its keys side by side with the other parts' in one flat object (the
///   reminder's `delivery` column).
/// - On the wire: ``Change``, the flat keys `Add` and `Update` take (absent: unchanged), checked by ``check(_:adding:)``
///   before connecting (remindctl) and applied by ``applying(_:adding:)`` (the daemon).
/// - In replies: ``Shown``, the flat keys a `Reminder` shows it with.
/// - In the linked collection: its `X-REMINDD-` properties (``syncedProperties``, ``init(synced:)``).
///
/// A new option of a feature is a field of its part, its change and its shown form, and nothing outside them.
public protocol ReminderPart: Codable, Hashable, Sendable {
    /// What `Add` and `Update` take of it, as flat keys of their parameters; absent fields leave it as it is.
    associatedtype Change: Codable, Hashable, Sendable
    /// How a reply shows it, as flat keys of `Reminder`.
    associatedtype Shown: Codable, Hashable, Sendable

    /// Nothing set: the feature does nothing for the reminder.
    init()

    /// What is wrong with settings that did not come through `Add` or `Update` (a restored or hand-edited row), or
    /// nil.
    var problem: String? { get }

    /// Refuses what is wrong with `change` on its own, whatever the reminder holds: remindctl calls it before
    /// connecting, ``applying(_:adding:)`` before anything else.
    static func check(_ change: Change, adding: Bool) throws(PartError)

    /// The part with `change` applied, or the error of its first bad field.
    func applying(_ change: Change, adding: Bool) throws(PartError) -> Self

    /// How a reply shows it on `date` (the reminder's today; nil when it has no zone to tell).
    func shown(on date: LocalDate?) -> Shown

    /// Its `X-REMINDD-` properties in a synced item, names without the prefix, texts unescaped; none for a part that
    /// must not travel (a command: a synced file must not make another machine run a program).
    var syncedProperties: [SyncedProperty] { get }

    /// The part as a synced item says it: `property` gives the unescaped text of an `X-REMINDD-` property (by its
    /// name without the prefix), nil when the item has none.
    init(synced property: (String) -> String?) throws(PartError)

    /// This part with what travels taken from `synced` (an item another device wrote, read by ``init(synced:)``);
    /// what does not travel stays as it is here.
    func merging(synced: Self) -> Self
}

/// One `X-REMINDD-` property of a synced item: its name without the prefix, and its text (escaped when written).
public struct SyncedProperty: Sendable, Hashable {
    public var name: String
    public var text: String

    public init(_ name: String, _ text: String) { (self.name, self.text) = (name, text) }
}

/// A part's refusal: the parameter (or synced property) at fault and a one-line message that says what to write.
public struct PartError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The wire parameter (`repeatMax`), or for a synced item the property's name without its prefix (`REPEAT`).
    public var parameter: String
    public var message: String

    public init(_ parameter: String, _ message: String) { (self.parameter, self.message) = (parameter, message) }

    public var description: String { message }
}
