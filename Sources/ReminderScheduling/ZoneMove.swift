import ReminderCore

/// Travel: where a reminder that follows the computer's zone stands once that zone changed. Its day is counted in
/// local time, and each local slot of a day is announced once: flying west, 08:00 comes again in the new zone
/// (it is not announced twice: it is skipped, with why); flying east, a slot can be passed over in the new zone
/// before it came in the old one (it is due, and announced once, late). A value computed from the rule, both
/// zones and what was handled.
public enum ZoneMove {
    /// What becomes of a reminder's plan when its zone moves.
    public struct Plan: Sendable, Hashable {
        /// What it has handled, in the new zone: never later than before (a handled instant after now is what a
        /// clock gone back looks like).
        public let handledThrough: Instant
        /// The slots the new zone brings again whose local times were announced in the old zone: skipped.
        public let alreadyAnnounced: [Occurrence]
    }

    /// The plan in `new` from the last local slot handled in `old` (a slot further back than two local days cannot
    /// come again in any zone, and one before the reminder existed was never its to announce): the slots after it
    /// in local time are the ones to come, and those up to it that the new zone brings again are skipped.
    public static func plan(_ rule: ReminderRule, from old: TimeZoneRules, to new: TimeZoneRules, handledThrough: Instant, createdAt: Instant) -> Plan {
        let day = old.localDayNumber(at: handledThrough)
        let last = (day - 2...day).flatMap { rule.occurrences(on: LocalDate(dayNumber: $0), in: old) }
            .last { $0.instant <= handledThrough && $0.instant >= createdAt }
        guard let last else { return Plan(handledThrough: handledThrough, alreadyAnnounced: []) }
        let again = new.resolve(last.localDateTime)
        // East, or no change: the slots after the last one in local time are to come, the passed ones due now.
        guard again > handledThrough else { return Plan(handledThrough: again, alreadyAnnounced: []) }
        var repeated: [Occurrence] = []
        var cursor = handledThrough
        while let next = rule.nextOccurrence(after: cursor, in: new), next.instant <= again {
            repeated.append(next)
            cursor = next.instant
        }
        return Plan(handledThrough: handledThrough, alreadyAnnounced: repeated)
    }
}
