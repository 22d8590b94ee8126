/// A medication kept apart from another (`--apart-from Iron 4h`: levothyroxine and iron, at least 4 hours
/// between them, either way). Both reminders hold the gap, each naming the other, so that a log of either and
/// an announcement of either read only its own reminder.
public struct DoseGap: Codable, Sendable, Hashable {
    /// The other reminder's name.
    public var reminder: String
    /// The least time between a dose of this one and a dose of the other, in seconds.
    public var seconds: Int64

    public init(reminder: String, seconds: Int64) { (self.reminder, self.seconds) = (reminder, seconds) }

    /// What `seconds` may be: 1 minute to 24 hours.
    public static let range: ClosedRange<Int64> = 60...86400
    /// The most gaps one reminder holds.
    public static let maximumCount = 20
}

/// The gaps of a reminder, and what they decide: whether a dose at an instant keeps them, and until when an
/// announcement waits. Pure arithmetic over the instants of the other reminders' doses.
public struct DoseGaps: Sendable, Hashable {
    public var gaps: [DoseGap]

    public init(_ gaps: [DoseGap]) { self.gaps = gaps }

    /// The gap kept from `name`, if any (names are compared without case, as reminders' are).
    public func gap(from name: String) -> DoseGap? {
        gaps.first { $0.reminder.lowercased() == name.lowercased() }
    }

    /// What one partner has, as the decisions read it.
    public struct Partner: Sendable, Hashable {
        public var gap: DoseGap
        /// Its doses logged around the instant decided (any order).
        public var doses: [Instant]
        /// Its occurrences due now (not taken, skipped or paused): this one waits for each that goes before it.
        public var pending: [Instant]

        public init(gap: DoseGap, doses: [Instant], pending: [Instant] = []) { (self.gap, self.doses, self.pending) = (gap, doses, pending) }
    }

    /// Why a dose, or an announcement, waits for a partner.
    public struct Hold: Sendable, Hashable {
        /// The partner's name.
        public var partner: String
        public var gapSeconds: Int64
        /// The partner's dose (``taken``) or its occurrence still due that the gap counts from.
        public var from: Instant
        /// Whether `from` is a dose taken (else an occurrence still due).
        public var taken: Bool
        /// From when the gap is kept.
        public var until: Instant { from.adding(seconds: gapSeconds) }

        public init(partner: String, gapSeconds: Int64, from: Instant, taken: Bool) {
            (self.partner, self.gapSeconds, self.from, self.taken) = (partner, gapSeconds, from, taken)
        }
    }

    /// The partner's dose a dose at `at` comes too close to (less than the gap before or after it), or nil when
    /// it keeps every gap. A dose exactly the gap apart keeps it. Of several, the one that holds it back longest.
    public static func breach(at: Instant, partners: [Partner]) -> Hold? {
        let holds = partners.flatMap { partner in
            partner.doses.filter { abs($0.secondsSinceEpoch - at.secondsSinceEpoch) < partner.gap.seconds }.map {
                Hold(partner: partner.gap.reminder, gapSeconds: partner.gap.seconds, from: $0, taken: true)
            }
        }
        return holds.max { $0.until < $1.until }
    }

    /// Until when an announcement of the occurrence at `occurrence` of the reminder `name` waits at `now` (nil:
    /// it is announced now): a partner's dose less than the gap before `now`, or a partner's occurrence still
    /// due that goes before this one (due earlier, or at the same time and first by ``goesFirst(_:before:)``)
    /// less than the gap before `now`, holds it until the gap from that has passed. Of several, the longest.
    public static func hold(now: Instant, occurrence: Instant, name: String, partners: [Partner]) -> Hold? {
        let holds = partners.flatMap { partner in
            let gap = partner.gap
            let within = { (moment: Instant) in moment <= now && now.secondsSinceEpoch - moment.secondsSinceEpoch < gap.seconds }
            let taken = partner.doses.filter(within).map { Hold(partner: gap.reminder, gapSeconds: gap.seconds, from: $0, taken: true) }
            let before = { (moment: Instant) in moment < occurrence || (moment == occurrence && goesFirst(gap.reminder, before: name)) }
            let due = partner.pending.filter { within($0) && before($0) }.map { Hold(partner: gap.reminder, gapSeconds: gap.seconds, from: $0, taken: false) }
            return taken + due
        }
        return holds.max { ($0.until, $0.taken ? 1 : 0) < ($1.until, $1.taken ? 1 : 0) }
    }

    /// The gaps of a reminder named `name` (once `old`) after a partner changed its own: the partner's gap to it
    /// (`seconds`, nil: none) replaces the one it held, under its name now.
    public static func reciprocal(_ gaps: [DoseGap], of name: String, formerly old: String, seconds: Int64?) -> [DoseGap] {
        var kept = gaps.filter { $0.reminder.lowercased() != name.lowercased() && $0.reminder.lowercased() != old.lowercased() }
        if let seconds { kept.append(DoseGap(reminder: name, seconds: seconds)) }
        return kept
    }

    /// Which of two reminders due at the same instant is announced first when they are kept apart: the one
    /// whose name sorts first (the same on every device).
    public static func goesFirst(_ name: String, before other: String) -> Bool {
        (name.lowercased(), name) < (other.lowercased(), other)
    }
}
