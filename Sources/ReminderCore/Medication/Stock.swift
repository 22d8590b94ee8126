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
    }

    public static func level(_ changes: [(at: Instant, change: Change)]) -> Level {
        func order(_ change: Change) -> Int {
            switch change {
            case .set: 0
            case .added: 1
            case .taken: 2
            }
        }
        let sorted = changes.enumerated().sorted { ($0.element.at, order($0.element.change), $0.offset) < ($1.element.at, order($1.element.change), $1.offset) }
        var level = Level(left: nil, short: 0, lastShort: nil)
        for (_, (at, change)) in sorted {
            switch change {
            case .set(let amount): level.left = amount
            case .added(let amount): level.left = (level.left ?? 0) + amount
            case .taken(let amount):
                guard let left = level.left else { continue }  // taken before anything was counted
                if left < amount { (level.short, level.lastShort) = (level.short + 1, at) }
                level.left = max(0, left - amount)
            }
        }
        return level
    }

    /// How long `left` lasts at `dose` per occurrence of `rule` after `now`.
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

    public static func coverage(left: Int64, dose: Dose, rule: ReminderRule, zone: TimeZoneRules, after now: Instant) -> Coverage {
        let doses = left / max(1, dose.thousandths)
        guard doses > 0 else { return Coverage(doses: 0, through: nil, outlastsTheRule: false, days: 0) }
        let wanted = Int(min(doses, Int64(horizon)))
        let upcoming = rule.occurrences(after: now, count: wanted, in: zone)
        guard let last = upcoming.last else { return Coverage(doses: doses, through: nil, outlastsTheRule: true, days: 0) }
        let today = zone.localDateTime(at: now).date
        return Coverage(
            doses: doses, through: last, outlastsTheRule: upcoming.count < wanted,
            days: last.localDateTime.date.dayNumber - today.dayNumber)
    }
}
