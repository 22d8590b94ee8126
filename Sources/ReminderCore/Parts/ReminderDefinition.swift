/// A reminder's rule and parts checked together, for what no part can check on its own: a tapering course
/// against the rule's own end, a notice before (`--before`) against the spacing of the occurrences, an
/// escalation delay against the window, and a rule that would never fire again. Pure: remindctl asks it before
/// connecting (`add`, in the zone the reminder will have), the daemon's `Add` and `Update` before writing.
public struct ReminderDefinition: Sendable, Hashable {
    public var spec: RuleSpec
    public var delivery: Delivery
    /// The reminder's own window; nil: the default (until its next occurrence, at most its day's end).
    public var windowSeconds: Int64?

    public init(spec: RuleSpec, delivery: Delivery, windowSeconds: Int64?) {
        (self.spec, self.delivery, self.windowSeconds) = (spec, delivery, windowSeconds)
    }

    /// What is wrong: a parameter's value (its wire name and a one-line message), or the rule as a whole.
    public enum Problem: Error, Hashable, Sendable {
        case input(PartError)
        case rule(String)
    }

    /// The checks to make: an update makes those its change can reach (a reminder whose course has ended is
    /// renamed without being refused for never firing again).
    public struct Checks: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The rule fires at least once more.
        public static let fires = Checks(rawValue: 1 << 0)
        /// Each notice before comes after the occurrence before the one it warns of.
        public static let before = Checks(rawValue: 1 << 1)
        /// The escalation delay ends before the window does.
        public static let escalation = Checks(rawValue: 1 << 2)
        public static let all: Checks = [.fires, .before, .escalation]
    }

    /// The rule of a tapering course: it ends with its last step's day (``RuleSpec/ending(with:)``); a reminder
    /// without steps keeps its rule.
    public static func course(_ spec: RuleSpec, _ delivery: Delivery) throws(Problem) -> RuleSpec {
        guard let steps = delivery.medication.steps else { return spec }
        do { return try spec.ending(with: steps) } catch { throw .input(PartError("steps", error.message)) }
    }

    /// Refuses the first of `checks` that fails, for `rule` (made from ``spec``) in `zone` at `now`.
    public func check(_ checks: Checks = .all, rule: ReminderRule, zone: TimeZoneRules, now: Instant) throws(Problem) {
        if checks.contains(.fires), let reason = Self.neverFires(rule, spec, zone: zone, now: now) {
            throw .rule("this reminder would never fire: \(reason)")
        }
        if checks.contains(.before), let minutes = delivery.notification.beforeMinutes,
            let problem = Self.beforeProblem(beforeMinutes: minutes, rule: rule, zone: zone, now: now)
        {
            throw .input(PartError("before", problem))
        }
        if checks.contains(.escalation), let after = delivery.escalation.afterSeconds, let windowSeconds, after >= windowSeconds {
            // Without a window of its own, an occurrence's ends at the next occurrence or midnight: a delay past
            // that escalates when the occurrence is missed, which is allowed.
            throw .input(PartError("escalateAfter", """
                --escalate-after \(WindowLength.text(after)) is not before the window's end (\(WindowLength.text(windowSeconds))): the occurrence is \
                missed then and the escalation runs at that time; give a shorter delay, or leave --escalate-after out
                """))
        }
    }

    /// Why a rule can never fire again (a `--once` or an `--until` in the past), or nil. An as-needed
    /// medication never fires by design.
    static func neverFires(_ rule: ReminderRule, _ spec: RuleSpec, zone: TimeZoneRules, now: Instant) -> String? {
        guard rule.days != .asNeeded, rule.nextOccurrence(after: now, in: zone) == nil else { return nil }
        if let once = spec.once { return "--once \(once) is in the past: give a time ahead" }
        if let until = spec.until { return "it ends --until \(until), before its next time: give a later --until, or none" }
        return "it has no time ahead: check it with remindctl preview"
    }

    /// Why `--before` cannot be used with a rule, or nil: a notice must come after the occurrence before the one
    /// it warns of (the next 64 occurrences from `now` are looked at).
    public static func beforeProblem(beforeMinutes: [Int], rule: ReminderRule, zone: TimeZoneRules, now: Instant) -> String? {
        guard let longest = beforeMinutes.max() else { return nil }
        var shortest: Int64?
        var previous = rule.nextOccurrence(after: now, in: zone)
        for _ in 0..<64 {
            guard let current = previous, let following = rule.nextOccurrence(after: current.instant, in: zone) else { break }
            let gap = following.instant.secondsSinceEpoch - current.instant.secondsSinceEpoch
            shortest = min(shortest ?? gap, gap)
            previous = following
        }
        guard let shortest, Int64(longest) * 60 >= shortest else { return nil }
        return "--before \(WindowLength.text(Int64(longest) * 60)) is not after the occurrence before: occurrences are as little as \(WindowLength.text(shortest)) apart; give less than that"
    }
}
