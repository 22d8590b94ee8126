import ReminderCore

/// What becomes of a due firing, beside ``Scheduler/action(for:logs:catchUpEnabled:afterDowntime:)``: of a
/// firing to announce, one the user skipped ahead is recorded as skipped, one a pause covers is recorded as
/// paused (never announced, never decided missed), one snoozed before it came due is
/// postponed (its snooze announces it), and a calendar's alarm beyond its calendar's bound is held back
/// (``CalendarFloodGate``); the rest is announced. A value: the scheduling service records and words it.
public enum FiringDecision: Sendable, Hashable {
    /// Announced: on time, or late (caught up after downtime).
    case announce(late: Bool)
    /// Not announced: a log took it (the scheduler's reason).
    case suppressed(reason: String)
    /// Not announced: the user skipped it ahead (with the reason they gave, if any).
    case skippedByUser(reason: String?)
    /// Not announced: a pause with dates covers it (`remindctl pause`).
    case paused(PauseSpan)
    /// Not announced now: snoozed before it came due, it is announced when the snooze is.
    case postponed(until: Instant)
    /// Not announced: its calendar's alarms come more than ``CalendarFloodGate/perMinute`` in a minute;
    /// `firstOfFlood` for the first held back since the calendar was within its bound (said once).
    case heldBack(calendar: String, firstOfFlood: Bool)
    /// Not announced: missed while catch-up is off.
    case skippedMissed

    /// Decides a firing from the scheduler's action and what is known of its occurrence.
    /// - Parameters:
    ///   - skipped: the user skipped it ahead; `skipReason` (read only then) is the reason they gave.
    ///   - paused: the pause that covers it, if any.
    ///   - snoozedUntil: when its snooze is due, if it was snoozed before its time.
    ///   - floodGate: the calendars' bound, asked only for an alarm that would be announced.
    public static func decide(
        _ action: FiringAction, skipped: Bool, skipReason: () -> String?, paused: PauseSpan? = nil, snoozedUntil: Instant?,
        floodGate: inout CalendarFloodGate
    ) -> FiringDecision {
        switch action {
        case .suppress(_, let reason): return .suppressed(reason: reason)
        case .skipMissed: return .skippedMissed
        case .fire, .catchUp: break
        }
        if skipped { return .skippedByUser(reason: skipReason()) }
        if let paused { return .paused(paused) }
        if let snoozedUntil { return .postponed(until: snoozedUntil) }
        let firing = action.firing
        if let calendar = firing.reminder.delivery.calendar,
            case .heldBack(let first) = floodGate.admit(calendar: calendar, at: firing.occurrence.instant) {
            return .heldBack(calendar: calendar, firstOfFlood: first)
        }
        if case .catchUp = action { return .announce(late: true) }
        return .announce(late: false)
    }
}

extension FiringAction {
    /// Whether the scheduler would announce it (on time or late), before what ``FiringDecision`` weighs.
    public var announces: Bool {
        switch self {
        case .fire, .catchUp: true
        case .suppress, .skipMissed: false
        }
    }
}
