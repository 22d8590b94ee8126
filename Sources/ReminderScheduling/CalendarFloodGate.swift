import ReminderCore

/// The bound on what one calendar's alarms announce together: at most ``perMinute`` in any 60 seconds, whatever
/// its items, alarms, RDATE lists and overrides add up to (each item's own alarms are already at most one a
/// minute, when the item is read; 60 items of one minutely alarm each are not). An alarm beyond the bound is
/// recorded as held back, not announced: a subscribed calendar cannot bury a dose. The reminders of remindd's
/// own are never held back. Pure: the caller passes each alarm's scheduled instant, in order.
public struct CalendarFloodGate: Sendable {
    /// The most alarms one calendar announces in 60 seconds.
    public static let perMinute = 10
    private static let windowSeconds: Int64 = 60

    /// Per calendar, the scheduled instants of the alarms let through in the last 60 seconds.
    private var passed: [String: [Instant]] = [:]
    /// The calendars holding alarms back now (each said once per flood).
    private var flooding: Set<String> = []

    public init() {}

    /// What becomes of an alarm of `calendar` scheduled at `instant`.
    public enum Verdict: Sendable, Equatable {
        /// Announced.
        case pass
        /// Held back; `firstOfFlood` is true for the first alarm held back since the calendar was last within its bound.
        case heldBack(firstOfFlood: Bool)
    }

    public mutating func admit(calendar: String, at instant: Instant) -> Verdict {
        let recent = (passed[calendar] ?? []).filter { instant.secondsSinceEpoch - $0.secondsSinceEpoch < Self.windowSeconds && $0 <= instant }
        guard recent.count < Self.perMinute else {
            passed[calendar] = recent
            return .heldBack(firstOfFlood: flooding.insert(calendar).inserted)
        }
        passed[calendar] = recent + [instant]
        if recent.isEmpty { flooding.remove(calendar) }
        return .pass
    }
}
