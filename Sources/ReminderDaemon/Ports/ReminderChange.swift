import Synchronization

/// A change to reminders, their logs or their skips, said by the service that made it. The linked collection
/// publishes it and medication checks the stock: they subscribe to these values, where a list of method names
/// let a new method that changed a reminder skip both without a word (`ChangeEventTests` calls every method).
public struct ReminderChange: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case added, updated, removed, enabled, disabled, logged, logDeleted, tookLate, skipped, unskipped, missed, imported
    }
    public var kind: Kind
    /// The reminder it concerns; nil for an import (many).
    public var reminderID: Int64?

    public init(_ kind: Kind, reminder: Int64? = nil) {
        (self.kind, self.reminderID) = (kind, reminder)
    }
}

/// Hands each ``ReminderChange`` to the subscribers, in the order they subscribed, and waits for them (the call
/// that made the change replies after its change is published).
final class ReminderChanges: Sendable {
    private let subscribers = Mutex<[@Sendable (ReminderChange) async -> Void]>([])

    func subscribe(_ subscriber: @escaping @Sendable (ReminderChange) async -> Void) {
        subscribers.withLock { $0.append(subscriber) }
    }

    func publish(_ change: ReminderChange) async {
        for subscriber in subscribers.withLock({ $0 }) { await subscriber(change) }
    }
}
