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

    /// This spec with a `once` given from now made the local date-time in `zone` that long after `now`; any
    /// other spec as it is.
    public func resolvingOnceFromNow(now: Instant, in zone: TimeZoneRules) throws(RuleSpecError) -> RuleSpec {
        guard let seconds = try onceFromNowSeconds() else { return self }
        var result = self
        result.once = zone.localDateTime(at: now.adding(seconds: seconds)).description
        return result
    }
}
