/// How often a medication may be taken (`--min-interval 6h --max-per-day 3`, mostly for one taken as needed):
/// whether a dose at an instant keeps to them, and from when the next one does. Pure arithmetic over the
/// instants of the doses logged.
///
/// "Per day" is a rolling 24 hours, not the local calendar day: three doses late in the evening and three more
/// after midnight would keep to a calendar day's limit with six doses in a few hours. A dose exactly 24 hours
/// (or exactly the interval) after another keeps to the limit: the boundary second is allowed.
public struct DoseLimits: Sendable, Hashable {
    /// The least time between two doses, in seconds (nil: none).
    public var minIntervalSeconds: Int64?
    /// The most doses in any 24 hours (nil: none).
    public var maxPerDay: Int?

    /// What `maxPerDay` may be.
    public static let maxPerDayRange = 1...100
    /// What `minIntervalSeconds` may be: 1 minute to 7 days.
    public static let minIntervalRange: ClosedRange<Int64> = 60...(7 * 86400)

    public init(minIntervalSeconds: Int64? = nil, maxPerDay: Int? = nil) {
        (self.minIntervalSeconds, self.maxPerDay) = (minIntervalSeconds, maxPerDay)
    }

    /// No limit set.
    public var isEmpty: Bool { minIntervalSeconds == nil && maxPerDay == nil }

    /// Why a dose at an instant breaks a limit.
    public enum Breach: Sendable, Hashable {
        /// Another dose, at `other`, is closer than the interval.
        case tooSoon(other: Instant)
        /// With it, the 24 hours from `first` hold `count` doses, more than the maximum.
        case tooMany(count: Int, first: Instant)
    }

    /// The breach of a dose at `at` given the other doses' instants (any order; a dose logged afterwards for an
    /// earlier time is checked against those on both sides), or nil when it keeps to the limits. When the next
    /// dose (after every other) breaks both, the one that holds it back longer: after three doses forced an hour
    /// apart, the 24-hour maximum is what blocks, not the interval; a dose logged for an earlier time names the
    /// interval.
    public func breach(at: Instant, doses: [Instant]) -> Breach? {
        var tooSoon: Breach?
        var heldUntil = at
        if let interval = minIntervalSeconds,
            let other = doses.filter({ abs($0.secondsSinceEpoch - at.secondsSinceEpoch) < interval }).min(by: { distance($0, at) < distance($1, at) })
        {
            tooSoon = .tooSoon(other: other)
            heldUntil = other.adding(seconds: interval)
        }
        if let maximum = maxPerDay {
            let all = (doses + [at]).sorted()
            // Every 24 hours that hold the new dose: those starting at a dose within a day before it.
            for first in all where first <= at && at.secondsSinceEpoch - first.secondsSinceEpoch < 86400 {
                let count = all.filter { $0 >= first && $0.secondsSinceEpoch - first.secondsSinceEpoch < 86400 }.count
                // For a dose after every other (the next one), the limit that holds it back longer.
                let isNext = doses.allSatisfy { $0 <= at }
                if count > maximum, tooSoon == nil || (isNext && first.adding(seconds: 86400) > heldUntil) { return .tooMany(count: count, first: first) }
                if count > maximum { break }
            }
        }
        return tooSoon
    }

    /// The earliest instant at or after `now` at which a dose keeps to the limits, given the doses logged up to
    /// now (any order).
    public func nextAllowed(now: Instant, doses: [Instant]) -> Instant {
        let past = doses.filter { $0 <= now }.sorted()
        var allowed = now
        if let interval = minIntervalSeconds, let last = past.last { allowed = max(allowed, last.adding(seconds: interval)) }
        if let maximum = maxPerDay {
            // The doses of the 24 hours before `allowed`: the oldest of the last `maximum` must be a day old.
            let recent = past.suffix(maximum)
            if recent.count == maximum, let oldest = recent.first { allowed = max(allowed, oldest.adding(seconds: 86400)) }
        }
        return allowed
    }

    /// How many more doses the 24 hours up to `now` allow (nil: no maximum).
    public func leftInADay(now: Instant, doses: [Instant]) -> Int? {
        guard let maximum = maxPerDay else { return nil }
        let inLastDay = doses.filter { $0 <= now && now.secondsSinceEpoch - $0.secondsSinceEpoch < 86400 }.count
        return max(0, maximum - inLastDay)
    }

    /// The limit each forced dose broke when it was logged: checked against the doses before it (those after it
    /// did not exist yet), in time order; nil for one that broke none by then (the limits were set later).
    public func breaches(ofForced forced: [Instant], among doses: [Instant]) -> [(at: Instant, breach: Breach?)] {
        forced.sorted().map { at in (at, breach(at: at, doses: doses.filter { $0 < at })) }
    }

    private func distance(_ a: Instant, _ b: Instant) -> Int64 { abs(a.secondsSinceEpoch - b.secondsSinceEpoch) }
}
