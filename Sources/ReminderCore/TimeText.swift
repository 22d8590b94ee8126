/// The one reader of the points in time users type (`--at`, `--since`, `--after`), for the daemon and remindctl.
///
/// Accepted, with `zone` the zone the text is read in and `now` the instant it is read at:
/// - `07:45` or `07:45:30`: that time today in `zone`;
/// - `2026-11-21`: the start of that day in `zone`;
/// - `2026-11-21T07:45[:SS]` (or with a space): that local time in `zone`;
/// - `2026-11-21T07:45:00+01:00` or `...Z`: that instant;
/// - `7d`, `24h`, `30m`: that long before `now`.
public enum TimeText {
    /// The forms, for messages: `write 07:45, 2026-11-21T07:45 or ...`.
    public static let forms = "07:45, 2026-11-21, 2026-11-21T07:45, 2026-11-21T07:45:00+01:00 or 7d/24h/30m ago"

    /// The instant `text` names, or nil when it is none of the accepted forms.
    public static func instant(_ text: String, now: Instant, zone: TimeZoneRules) -> Instant? {
        if let time = ISO8601.parseTime(text) {
            let today = LocalDate(dayNumber: zone.localDayNumber(at: now))
            return zone.resolve(LocalDateTime(date: today, time: time))
        }
        if let date = ISO8601.parseDate(text) {
            return zone.resolve(LocalDateTime(date: date, time: TimeOfDay(hour: 0, minute: 0)!))
        }
        if let parsed = ISO8601.parseInstant(text) {
            if let offset = parsed.offsetSeconds { return Instant(secondsSinceEpoch: parsed.local.localSeconds - Int64(offset)) }
            return zone.resolve(parsed.local)
        }
        return ago(text, now: now)
    }

    /// `Tue 2026-11-24 22:00 +01:00`: how an instant is shown to a person, at the UTC offset given.
    public static func display(_ instant: Instant, offsetSeconds: Int) -> String {
        let local = LocalDateTime(localSeconds: instant.secondsSinceEpoch + Int64(offsetSeconds))
        return "\(local.date.weekday.displayName) \(local.date) \(local.time) \(ISO8601.formatOffset(offsetSeconds))"
    }

    /// `09:10` on the local day of `now`, `tomorrow 08:00`, `yesterday 22:30`, else `Wed 2026-12-02 08:00`: a
    /// nearby instant in a sentence.
    public static func near(_ instant: Instant, in zone: TimeZoneRules, now: Instant) -> String {
        let local = zone.localDateTime(at: instant)
        switch local.date.dayNumber - zone.localDayNumber(at: now) {
        case 0: return "\(local.time)"
        case 1: return "tomorrow \(local.time)"
        case -1: return "yesterday \(local.time)"
        default: return "\(local.date.weekday.displayName) \(local.date) \(local.time)"
        }
    }

    /// An instant read from `text`, shown as the person wrote it: at the offset `text` gave, else in `zone`.
    public static func display(_ instant: Instant, typed text: String, zone: TimeZoneRules) -> String {
        display(instant, offsetSeconds: ISO8601.parseInstant(text)?.offsetSeconds ?? zone.offset(at: instant))
    }

    /// `7d`, `24h`, `30m` before `now` (up to about 100 years), or nil.
    public static func ago(_ text: String, now: Instant) -> Instant? {
        guard let unit = text.last, let scale: Int64 = ["d": 86400, "h": 3600, "m": 60][unit] else { return nil }
        let digits = text.dropLast()
        guard (1...6).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let amount = Int64(digits) else { return nil }
        return now.adding(seconds: -amount * scale)
    }
}
