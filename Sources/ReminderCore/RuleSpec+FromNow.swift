/// A one-shot given as a length from now (`once: "+20m"`, remindctl's `--in 20m`): made a local date-time where
/// "now" is read and checked, the daemon's, so that no time passes between the two. Made by the caller (as
/// remindctl once did), `--in 1s` was refused as "in the past" whenever the call took longer than what was left
/// of the caller's second.
extension RuleSpec {
    /// Whether `once` is given as a length from now (`+20m`).
    public var givesOnceFromNow: Bool { once?.hasPrefix("+") == true }

    /// The length `once` gives from now (`+20m`: 1,200 seconds), or nil when it gives a date-time (or nothing).
    public func onceFromNowSeconds() throws(RuleSpecError) -> Int64? {
        guard givesOnceFromNow, let once else { return nil }
        let length = once.dropFirst()
        guard let seconds = WindowLength.seconds(String(length), in: 1...(366 * 86400)) else {
            throw RuleSpecError("invalid length \(quotedInput(length)): write how long from now, such as 20m, 1h30m or 2d (up to 366d)")
        }
        return seconds
    }

    /// A `once` given from now made a local date-time: the spec with it, and where that date-time comes twice
    /// in `zone` (the hour a zone repeats in autumn) and `zone` reads the first, an hour before the instant
    /// meant, the fixed offset that reads it right (`Etc/GMT+5`; UTC for an offset of no whole hours), which the
    /// reminder is then given: `--in 70m` at 01:05 on New York's autumn night fired at 01:15 EDT, an hour early.
    public struct OnceFromNow: Sendable {
        public var spec: RuleSpec
        /// nil: the zone given reads the date-time as the instant meant.
        public var fixedZone: TimeZoneRules?
    }

    /// This spec with a `once` given from now made a local date-time that long after `now` (see
    /// ``OnceFromNow``); any other spec as it is.
    public func resolvingOnceFromNow(now: Instant, in zone: TimeZoneRules) throws(RuleSpecError) -> OnceFromNow {
        guard let seconds = try onceFromNowSeconds() else { return OnceFromNow(spec: self) }
        let meant = now.adding(seconds: seconds)
        var result = OnceFromNow(spec: self)
        let local = zone.localDateTime(at: meant)
        if zone.resolve(local) == meant {
            result.spec.once = local.description
        } else {
            let offset = zone.offset(at: meant)
            let fixed = offset % 3600 == 0 ? Self.fixedZone(hours: offset / 3600) : TimeZoneRules(identifier: "UTC", fixedOffset: 0)
            result.spec.once = fixed.localDateTime(at: meant).description
            result.fixedZone = fixed
        }
        return result
    }

    /// The tz database's zone of a whole-hour offset (its names count the other way: UTC-5 is `Etc/GMT+5`).
    private static func fixedZone(hours: Int) -> TimeZoneRules {
        let name = hours == 0 ? "UTC" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
        return TimeZoneRules(identifier: name, fixedOffset: hours * 3600)
    }
}
