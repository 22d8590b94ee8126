/// config.toml's `quiet-hours` ("22:00-07:00"): a span of the local day, which may wrap past midnight, during
/// which reminders without a dose are announced without sound, without speech and at low urgency. Doses ring
/// through; a reminder's `--quiet-hours` says otherwise (``NotificationSettings/QuietHoursChoice``).
public struct QuietHours: Hashable, Sendable, CustomStringConvertible {
    public let start: TimeOfDay
    public let end: TimeOfDay

    /// `HH:MM-HH:MM`, start and end different; nil otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 5 }), let start = ISO8601.parseTime(String(parts[0])),
            let end = ISO8601.parseTime(String(parts[1])), start != end
        else { return nil }
        (self.start, self.end) = (start, end)
    }

    /// Whether a local time of day (seconds since midnight) lies in the span: from its start, before its end.
    public func contains(secondsSinceMidnight seconds: Int) -> Bool {
        let (from, to) = (start.secondsSinceMidnight, end.secondsSinceMidnight)
        return from < to ? (from..<to).contains(seconds) : seconds >= from || seconds < to
    }

    /// Whether an announcement of a reminder at a local time is made quietly: in the span, and a reminder
    /// without a dose unless it ignores quiet hours, or one with a dose that respects them.
    public func quiets(_ delivery: Delivery, atSecondsSinceMidnight seconds: Int) -> Bool {
        guard contains(secondsSinceMidnight: seconds) else { return false }
        switch delivery.notification.quietHours {
        case .ignore: return false
        case .respect: return true
        case nil: return !delivery.givesDose
        }
    }

    public var description: String { "\(start)-\(end)" }
}
