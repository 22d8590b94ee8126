import Synchronization

/// A component's recurrence (RFC 5545 §3.8.5): its start, a rule, RDATEs and EXDATEs, on the wall clock of
/// one zone. The start is the first instance; an EXDATE removes the instance at that wall-clock time.
public struct RecurrenceSet: Hashable, Sendable {
    public var start: LocalDateTime { didSet { counted = CountedInstances() } }
    public var rule: RecurrenceRule? { didSet { counted = CountedInstances() } }
    public var dates: [LocalDateTime]
    public var exceptions: Set<LocalDateTime>
    /// When, relative to each instance, the reminder fires (a calendar event's VALARM trigger); nil for a
    /// recurrence that is no event's alarm. An alarm at the event's start is `.zero`, not nil: it is still an
    /// event's (announced with the event's time, never "taken").
    public var alarm: AlarmOffset?
    /// A COUNT rule's instances, enumerated once (COUNT counts from the start: without this, every next
    /// instance would expand the rule from there).
    private var counted = CountedInstances()
    /// The most instances kept for a COUNT rule (800 KB); a larger COUNT is enumerated at each call.
    static let countedLimit = 100_000

    public init(
        start: LocalDateTime, rule: RecurrenceRule?, dates: [LocalDateTime] = [], exceptions: Set<LocalDateTime> = [], alarm: AlarmOffset? = nil
    ) {
        self.start = start
        self.rule = rule
        self.dates = dates.sorted()
        self.exceptions = exceptions
        self.alarm = alarm
    }

    /// The first alarm strictly after `after`: an instance's, shifted by ``alarm``, with its local time.
    public func nextAlarm(after: Instant, in zone: TimeZoneRules) -> (local: LocalDateTime, instant: Instant)? {
        guard let alarm, alarm != .zero else { return nextInstance(after: after, in: zone).map { ($0.local, $0.instant) } }
        // An instance whose alarm falls after `after` lies at most the shift (and a DST change) before it.
        let reach = Int64(abs(alarm.days)) * 86400 + Int64(abs(alarm.seconds)) + 7200
        var cursor = after.adding(seconds: -reach)
        while let instance = nextInstance(after: cursor, in: zone) {
            let fires = alarm.instant(for: instance.local, in: zone)
            if fires > after { return (zone.localDateTime(at: fires), fires) }
            cursor = instance.instant
        }
        return nil
    }

    /// The first instance strictly after `after`, or nil when none is left.
    public func nextInstance(after: Instant, in zone: TimeZoneRules) -> RecurrenceExpansion.Instance? {
        var fromRule: RecurrenceExpansion.Instance?
        var from = after
        if let rule, let count = rule.count, count <= Self.countedLimit {
            fromRule = nextCounted(rule, after: after, in: zone)
        } else if let rule {
            // An instance an EXDATE removes: the one after it (at most 1,000 removed in a row are stepped over).
            for _ in 0..<1000 {
                guard let instance = rule.nextInstance(after: from, from: start, in: zone) else { break }
                if !exceptions.contains(instance.local) {
                    fromRule = instance
                    break
                }
                from = instance.instant
            }
        } else if !exceptions.contains(start), zone.resolve(start) > after {
            fromRule = RecurrenceExpansion.Instance(local: start, instant: zone.resolve(start))
        }
        let fromDates = dates.lazy.filter { !self.exceptions.contains($0) }
            .map { RecurrenceExpansion.Instance(local: $0, instant: zone.resolve($0)) }
            .filter { $0.instant > after }
            .min { $0.instant < $1.instant }
        switch (fromRule, fromDates) {
        case (let a?, let b?): return b.instant < a.instant ? b : a
        case (let a, let b): return a ?? b
        }
    }

    /// The next instance of a COUNT rule after `after` that no EXDATE removes, from its instances' local times
    /// (enumerated on the zone-less wall clock once: COUNT rules have no UNTIL, the one part that needs a zone).
    private func nextCounted(_ rule: RecurrenceRule, after: Instant, in zone: TimeZoneRules) -> RecurrenceExpansion.Instance? {
        let locals = counted.locals {
            var expansion = rule.expansion(from: start, in: TimeZoneRules(identifier: "UTC", fixedOffset: 0))
            var all: [Int64] = []
            while let instance = expansion.next() { all.append(instance.local.localSeconds) }
            return all
        }
        // The first that can fire after `after` (see `RecurrenceExpansion.skip(toNear:)`), then on: a time shifted
        // out of a DST gap can fire after the next one on the wall clock.
        let earliest = after.secondsSinceEpoch + Int64(zone.minimumOffset) - 3600
        var low = 0, high = locals.count
        while low < high {
            let middle = (low + high) / 2
            if locals[middle] < earliest { low = middle + 1 } else { high = middle }
        }
        var best: RecurrenceExpansion.Instance?
        for local in locals[low...] {
            if let best, local - Int64(zone.maximumOffset) > best.instant.secondsSinceEpoch { break }
            let time = LocalDateTime(localSeconds: local)
            guard !exceptions.contains(time) else { continue }
            let instant = zone.resolve(localSeconds: local)
            if instant > after, best.map({ instant < $0.instant }) ?? true { best = RecurrenceExpansion.Instance(local: time, instant: instant) }
        }
        return best
    }

    /// Up to `count` instances after `after`, in order.
    public func instances(after: Instant, count: Int, in zone: TimeZoneRules) -> [RecurrenceExpansion.Instance] {
        var result: [RecurrenceExpansion.Instance] = []
        var from = after
        while result.count < count, let next = nextInstance(after: from, in: zone) {
            result.append(next)
            from = next.instant
        }
        return result
    }
}

/// The local times of a COUNT rule's instances, enumerated on first use and kept. A cache: any two are equal,
/// so a ``RecurrenceSet`` compares and hashes by its rule alone.
final class CountedInstances: Hashable, Sendable {
    private let cache = Mutex<[Int64]?>(nil)

    func locals(_ enumerate: () -> [Int64]) -> [Int64] {
        cache.withLock { cached in
            if let cached { return cached }
            let made = enumerate()
            cached = made
            return made
        }
    }

    static func == (a: CountedInstances, b: CountedInstances) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
