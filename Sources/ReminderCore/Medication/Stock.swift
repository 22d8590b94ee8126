/// A medication's stock: what is left after the counts set, the refills and the doses taken, and how long it
/// lasts. Pure arithmetic over values (amounts in thousandths of the dose's unit); the store keeps the changes.
public enum Stock {
    /// The most a stock may hold: a million of its unit.
    public static let maximumThousandths: Int64 = 1_000_000 * 1000

    /// What changed the stock, at an instant.
    public enum Change: Sendable, Hashable {
        /// Counted: this much is left (`stock set`).
        case set(Int64)
        /// A refill: this much more (`stock add`).
        case added(Int64)
        /// A dose taken (a log's amount).
        case taken(Int64)
    }

    /// The stock after `changes` (in any order; taken in time order, a set before a dose at the same instant):
    /// never below zero. `short` counts the doses taken with less left than they took (recorded all the same:
    /// the count was off, or the box was another).
    public struct Level: Sendable, Hashable {
        /// What is left, in thousandths of the unit; nil when the stock was never set.
        public var left: Int64?
        public var short: Int
        /// When the last of those was taken.
        public var lastShort: Instant?

        /// The level after `change`, made at `at`.
        public mutating func apply(_ change: Change, at: Instant) {
            switch change {
            case .set(let amount): left = amount
            case .added(let amount): left = (left ?? 0) + amount
            case .taken(let amount):
                guard let before = left else { return }  // taken before anything was counted
                if before < amount { (short, lastShort) = (short + 1, at) }
                left = max(0, before - amount)
            }
        }
    }

    public static func level(_ changes: [(at: Instant, change: Change)]) -> Level {
        var level = Level(left: nil, short: 0, lastShort: nil)
        for (at, change) in ordered(changes) { level.apply(change, at: at) }
        return level
    }

    /// The changes in the order they apply: by time; at the same instant (to the second) counts and refills in
    /// the order given (the order they were made: `add 60` then `set 20` in one second leaves 20, not 80), then
    /// the doses.
    public static func ordered(_ changes: [(at: Instant, change: Change)]) -> [(at: Instant, change: Change)] {
        func order(_ change: Change) -> Int {
            switch change {
            case .set, .added: 0
            case .taken: 1
            }
        }
        return changes.enumerated().sorted { ($0.element.at, order($0.element.change), $0.offset) < ($1.element.at, order($1.element.change), $1.offset) }
            .map(\.element)
    }

    /// How long `left` lasts at each occurrence's dose of `rule` after `now`.
    public struct Coverage: Sendable, Hashable {
        /// The whole doses left.
        public var doses: Int64
        /// The last occurrence those doses cover (nil: none, or the rule ends first).
        public var through: Occurrence?
        /// The rule ends before the stock does.
        public var outlastsTheRule: Bool
        /// Days from `now`'s local date to `through`'s (0 when none is covered).
        public var days: Int
    }

    /// The most occurrences looked ahead (a daily dose: 27 years).
    public static let horizon = 10_000

    /// - Parameters:
    ///   - dose: the amount (thousandths) of the occurrence on a local date: one dose, or a tapering course's step.
    ///   - pauses: the reminder's pauses: an occurrence they cover takes nothing (the stock lasts longer).
    public static func coverage(
        left: Int64, dose: (LocalDate) -> Int64, rule: ReminderRule, zone: TimeZoneRules, after now: Instant, pauses: PauseSettings = PauseSettings()
    ) -> Coverage {
        let today = zone.localDateTime(at: now).date
        var (remaining, covered, last, cursor) = (left, Int64(0), Occurrence?.none, now)
        func coverage(outlasting: Bool) -> Coverage {
            // The rule ended first: the doses the rest still holds (at the last occurrence's amount) count too.
            let more = outlasting ? remaining / max(1, dose(last?.scheduledDate ?? today)) : 0
            return Coverage(doses: covered + more, through: last, outlastsTheRule: outlasting, days: last.map { $0.localDateTime.date.dayNumber - today.dayNumber } ?? 0)
        }
        while covered < horizon {
            let batch = rule.occurrences(after: cursor, count: min(256, horizon - Int(covered)), in: zone)
            guard !batch.isEmpty else { return coverage(outlasting: true) }
            for occurrence in batch where pauses.span(covering: occurrence.instant) == nil {
                let amount = max(1, dose(occurrence.scheduledDate))
                guard remaining >= amount else { return coverage(outlasting: false) }
                (remaining, covered, last) = (remaining - amount, covered + 1, occurrence)
            }
            cursor = batch[batch.count - 1].instant
        }
        return coverage(outlasting: false)
    }
}
