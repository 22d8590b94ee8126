import ReminderCore
import ReminderScheduling

/// Human wording of firings, for the journal's MESSAGE and the daemon's STATUS.
enum FiringWording {
    /// `weekly`, `daily`, `twice a day`, `every 3 days`...
    static func kind(of rule: ReminderRule) -> String {
        if let preset = rule.preset { return preset.rawValue.lowercased() }
        switch rule.days {
        case .daily: return "daily"
        case .weekly: return "weekly"
        case .monthly, .nthWeekday: return "monthly"
        case .yearly: return "yearly"
        case .everyDays(let n): return "every \(n) days"
        case .everyWeeks(let n, _): return "every \(n) weeks"
        case .once: return "once"
        case .recurrence(let set): return set.rule?.howOften ?? "once"
        case .calendar: return "on calendar"
        case .asNeeded: return "as needed"
        }
    }

    /// `Sun 09:00` (local to the firing's zone).
    static func when(_ occurrence: Occurrence) -> String {
        let local = occurrence.localDateTime
        return "\(local.date.weekday.displayName) \(local.time)"
    }

    /// `Sun 12:00` for an instant in a zone.
    static func when(_ zone: TimeZoneRules, _ instant: Instant) -> String {
        let local = zone.localDateTime(at: instant)
        return "\(local.date.weekday.displayName) \(local.time)"
    }

    /// The event an alarm is for (a calendar's, or an imported event's VALARM): its own time, and `at Wed 21:34, in
    /// 15m` (`at Wed 21:34, started 5m ago` for an alarm after its start); nil for a reminder without an offset.
    static func event(_ firing: DueFiring) -> (instant: Instant, text: String)? {
        guard let offset = firing.reminder.rule.alarmOffset else { return nil }
        let zone = firing.reminder.zone
        let event = offset.instance(ofAlarmAt: firing.occurrence.instant, in: zone)
        let apart = event.secondsSinceEpoch - firing.occurrence.instant.secondsSinceEpoch
        let relative = apart >= 0 ? "in \(duration(seconds: apart))" : "started \(duration(seconds: -apart)) ago"
        return (event, "at \(when(zone, event)), \(relative)")
    }

    /// Whether a reminder is an event's alarm (a read-only calendar's, or an imported event with an alarm before
    /// or after it): dismissed or snoozed, never "taken".
    static func isEvent(_ reminder: SchedulableReminder) -> Bool {
        reminder.delivery.calendar != nil || reminder.rule.alarmOffset != nil
    }

    /// `Vitamin D (weekly, Sun 09:00)`; with a dose, `Metformin, 2 tablets (daily, Sun 08:00)`.
    static func reminder(_ firing: DueFiring) -> String {
        let dose = firing.dose.map { ", \($0.description)" } ?? ""
        let event = event(firing).map { ", for the event \($0.text)" } ?? ""
        return "\(firing.reminder.name)\(dose) (\(kind(of: firing.reminder.rule)), \(when(firing.occurrence))\(event))"
    }

    /// The fields a dose adds to a firing's journal entry and to a hook's environment: `REMINDER_DOSE=2`,
    /// `REMINDER_UNIT=tablet`.
    static func doseFields(_ dose: Dose?) -> [(String, String)] {
        dose.map { [("REMINDER_DOSE", $0.amountText), ("REMINDER_UNIT", $0.unit)] } ?? []
    }

    /// `2h 5m`, `45s`, `3d 2h`.
    static func duration(seconds: Int64) -> String {
        let s = max(0, seconds)
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m" }
        if s < 86400 { return "\(s / 3600)h \(s / 60 % 60)m" }
        return "\(s / 86400)d \(s / 3600 % 24)h"
    }
}
