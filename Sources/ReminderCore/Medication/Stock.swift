/// A medication's stock: what is left after the counts set, the refills and the doses taken, and how long it
/// lasts. Pure arithmetic over values (amounts in thousandths of the dose's unit); the store keeps the changes.
///
/// A stock is held in packs: a count (`stock set`) is one pack, a refill (`stock add`) one more, each with the
/// last day it may be used, if any (`--expires 2027-03`). A dose takes from the pack that expires first (one
/// without a date last); a pack past its day no longer counts, whatever it holds.
public enum Stock {
    /// The most a stock may hold: a million of its unit.
    public static let maximumThousandths: Int64 = 1_000_000 * 1000

    /// What changed the stock, at an instant.
    public enum Change: Sendable, Hashable {
        /// Counted: this much is left (`stock set`), as one pack.
        case set(Int64, expiry: Expiry? = nil)
        /// A refill: a pack of this much more (`stock add`).
        case added(Int64, expiry: Expiry? = nil)
        /// A dose taken (a log's amount).
        case taken(Int64)
    }

    /// The last day a pack may be used, and which change made it (to say once that it expired).
    public struct Expiry: Sendable, Hashable {
        /// The change's id in the store.
        public var id: Int64
        /// Its last day (the reminder's zone).
        public var last: LocalDate

        public init(id: Int64, last: LocalDate) { (self.id, self.last) = (id, last) }
    }

    /// Part of the stock bought together.
    public struct Pack: Sendable, Hashable {
        public var left: Int64
        public var expiry: Expiry?
        /// From when it no longer counts: the start of the day after its last one (nil: never).
        public var expiredFrom: Instant?

        /// Whether it no longer counts at `instant`.
        public func expired(at instant: Instant) -> Bool { expiredFrom.map { $0 <= instant } ?? false }
    }

    /// The stock after `changes` (in any order; taken in time order, a set before a dose at the same instant):
    /// never below zero. `short` counts the doses taken with less left than they took (recorded all the same:
    /// the count was off, or the box was another).
    public struct Level: Sendable, Hashable {
        /// The packs, in the order they came; nil when the stock was never set.
        public var packs: [Pack]?
        public var short: Int
        /// When the last of those was taken.
        public var lastShort: Instant?
        /// The zone a pack's last day is in.
        let zone: TimeZoneRules
        /// The instant the level is read at: a pack expired by then does not count.
        var now: Instant?

        /// What is left, in thousandths of the unit, in the packs that have not expired; nil when the stock was
        /// never set.
        public var left: Int64? { packs.map { $0.filter { pack in now.map { !pack.expired(at: $0) } ?? true }.reduce(0) { $0 + $1.left } } }

        /// The packs expired by now that still held some.
        public var expired: [Pack] { packs.map { $0.filter { pack in pack.left > 0 && now.map { pack.expired(at: $0) } == true } } ?? [] }

        /// The level after `change`, made at `at`.
        public mutating func apply(_ change: Change, at: Instant) {
            switch change {
            case .set(let amount, let expiry): packs = [pack(amount, expiry)]
            case .added(let amount, let expiry): packs = (packs ?? []) + [pack(amount, expiry)]
            case .taken(let amount):
                guard var held = packs else { return }  // taken before anything was counted
                if !Stock.take(amount, from: &held, at: at) { (short, lastShort) = (short + 1, at) }
                packs = held
            }
        }

        private func pack(_ amount: Int64, _ expiry: Expiry?) -> Pack {
            Pack(left: amount, expiry: expiry, expiredFrom: expiry.map { zone.resolve(LocalDateTime(date: LocalDate(dayNumber: $0.last.dayNumber + 1), time: TimeOfDay(hour: 0, minute: 0)!)) })
        }
    }

    /// Takes `amount` from the packs that have not expired at `at`, the one that expires first first (those
    /// without a date last, in the order they came). - Returns: false when they held less (all of it is taken).
    static func take(_ amount: Int64, from packs: inout [Pack], at: Instant) -> Bool {
        var wanted = amount
        let order = packs.indices.filter { !packs[$0].expired(at: at) && packs[$0].left > 0 }
            .sorted { (packs[$0].expiredFrom?.secondsSinceEpoch ?? .max, $0) < (packs[$1].expiredFrom?.secondsSinceEpoch ?? .max, $1) }
        for index in order where wanted > 0 {
            let taken = min(wanted, packs[index].left)
            (packs[index].left, wanted) = (packs[index].left - taken, wanted - taken)
        }
        return wanted == 0
    }

    /// The stock after `changes`, read at `now` (nil: as the last change left it), its packs' last days in `zone`.
    public static func level(_ changes: [(at: Instant, change: Change)], zone: TimeZoneRules = TimeZoneRules(identifier: "UTC", fixedOffset: 0), now: Instant? = nil) -> Level {
        var level = Level(packs: nil, short: 0, lastShort: nil, zone: zone, now: now)
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
        coverage(packs: [Pack(left: left, expiry: nil, expiredFrom: nil)], dose: dose, rule: rule, zone: zone, after: now, pauses: pauses)
    }

    /// How long `packs` last: each occurrence takes from those not expired at its time, the one that expires
    /// first first; a pack that expires before it is used up leaves the rest unused.
    public static func coverage(
        packs: [Pack], dose: (LocalDate) -> Int64, rule: ReminderRule, zone: TimeZoneRules, after now: Instant, pauses: PauseSettings = PauseSettings()
    ) -> Coverage {
        let today = zone.localDateTime(at: now).date
        var (remaining, covered, last, cursor) = (packs, Int64(0), Occurrence?.none, now)
        func coverage(outlasting: Bool) -> Coverage {
            // The rule ended first: the doses the rest still holds (at the last occurrence's amount) count too.
            let rest = remaining.filter { !$0.expired(at: last?.instant ?? now) }.reduce(0) { $0 + $1.left }
            let more = outlasting ? rest / max(1, dose(last?.scheduledDate ?? today)) : 0
            return Coverage(doses: covered + more, through: last, outlastsTheRule: outlasting, days: last.map { $0.localDateTime.date.dayNumber - today.dayNumber } ?? 0)
        }
        while covered < horizon {
            let batch = rule.occurrences(after: cursor, count: min(256, horizon - Int(covered)), in: zone)
            guard !batch.isEmpty else { return coverage(outlasting: true) }
            for occurrence in batch where pauses.span(covering: occurrence.instant) == nil {
                var taken = remaining
                guard take(max(1, dose(occurrence.scheduledDate)), from: &taken, at: occurrence.instant) else { return coverage(outlasting: false) }
                (remaining, covered, last) = (taken, covered + 1, occurrence)
            }
            cursor = batch[batch.count - 1].instant
        }
        return coverage(outlasting: false)
    }
}
