import ReminderCore
import ReminderScheduling
import Translation

/// Human wording of firings, for the notification and the journal's MESSAGE, in the language of its catalog
/// (the daemon's environment's); ``english`` for the service's STATUS and the hooks' environment, which scripts
/// read.
struct FiringWording: Sendable {
    let words: any MessageCatalog

    /// The words as the tables write them.
    static let english = FiringWording(words: UntranslatedCatalog())

    /// `weekly`, `daily`, `twice a day`, `every 3 days`... (a preset's name and an RRULE's description stay
    /// English: they are the rule languages').
    func kind(of rule: ReminderRule) -> String {
        if let preset = rule.preset { return preset.rawValue.lowercased() }
        switch rule.days {
        case .daily: return words(DaemonMessages.daily)
        case .weekly: return words(DaemonMessages.weekly)
        case .monthly, .nthWeekday: return words(DaemonMessages.monthly)
        case .yearly: return words(DaemonMessages.yearly)
        case .everyDays(let n): return words(DaemonMessages.everyDays, count: n, n)
        case .everyWeeks(let n, _): return words(DaemonMessages.everyWeeks, count: n, n)
        case .once: return words(DaemonMessages.once)
        case .recurrence(let set): return set.rule?.howOften ?? words(DaemonMessages.once)
        case .calendar: return words(DaemonMessages.onCalendar)
        case .asNeeded: return words(DaemonMessages.asNeeded)
        }
    }

    /// `Sun 09:00` (local to the firing's zone; the weekday as LC_TIME names it: `So 09:00`).
    func when(_ occurrence: Occurrence) -> String {
        when(occurrence.localDateTime)
    }

    /// `Sun 12:00` for an instant in a zone.
    func when(_ zone: TimeZoneRules, _ instant: Instant) -> String {
        when(zone.localDateTime(at: instant))
    }

    /// `2 tablets`, `1 tablet of 20 mg` (with its strength): the dose an occurrence asks for, or nil.
    func dose(_ firing: DueFiring) -> String? {
        guard let dose = firing.dose else { return nil }
        guard let strength = firing.reminder.delivery.medication.strength else { return words.dose(dose) }
        return words(DaemonMessages.doseOfStrength, words.dose(dose), strength.description)
    }

    /// `kept 4h apart from Iron, taken at Sun 08:30`: why an announcement waited (``DoseGaps``).
    func keptApart(_ hold: DoseGaps.Hold, in zone: TimeZoneRules) -> String {
        words(hold.taken ? DaemonMessages.keptApartTaken : DaemonMessages.keptApartDue, WindowLength.text(hold.gapSeconds), hold.partner, when(zone, hold.from))
    }

    private func when(_ local: LocalDateTime) -> String {
        "\(words.name(of: local.date.weekday, abbreviated: true)) \(local.time)"
    }

    /// The event an alarm is for (a calendar's, or an imported event's VALARM): its own time, and `at Wed 21:34, in
    /// 15m` (`at Wed 21:34, started 5m ago` for an alarm after its start); nil for a reminder without an offset.
    func event(_ firing: DueFiring) -> (instant: Instant, text: String)? {
        guard let offset = firing.reminder.rule.alarmOffset else { return nil }
        let zone = firing.reminder.zone
        let event = offset.instance(ofAlarmAt: firing.occurrence.instant, in: zone)
        let apart = event.secondsSinceEpoch - firing.occurrence.instant.secondsSinceEpoch
        let relative =
            apart == 0
            ? words(DaemonMessages.eventNow)
            : apart > 0 ? words(DaemonMessages.eventIn, Self.duration(seconds: apart)) : words(DaemonMessages.eventStarted, Self.duration(seconds: -apart))
        return (event, words(DaemonMessages.eventAt, when(zone, event), relative))
    }

    /// Whether a reminder is an event's alarm (a read-only calendar's, or an imported event with an alarm before
    /// or after it): dismissed or snoozed, never "taken".
    static func isEvent(_ reminder: SchedulableReminder) -> Bool {
        reminder.delivery.calendar != nil || reminder.rule.alarmOffset != nil
    }

    /// `Vitamin D (weekly, Sun 09:00)`; with a dose, `Metformin, 2 tablets (daily, Sun 08:00)`; someone else's,
    /// `Anna: Amoxicillin, 250 mg (daily, Sun 08:00)`.
    func reminder(_ firing: DueFiring) -> String {
        let dose = self.dose(firing).map { ", \($0)" } ?? ""
        let whenAndKind = "\(kind(of: firing.reminder.rule)), \(when(firing.occurrence))"
        let about = event(firing).map { words(DaemonMessages.forTheEvent, whenAndKind, $0.text) } ?? whenAndKind
        return "\(firing.reminder.delivery.person.named(firing.reminder.name))\(dose) (\(about))"
    }

    /// `12 tablets left: enough through Fri 2026-12-18 (6 days); order by Tue 2026-12-15`.
    func stock(_ notice: LowStockNotice) -> String {
        let day = { (date: LocalDate) in "\(words.name(of: date.weekday, abbreviated: true)) \(date)" }
        let left = notice.through.map { words(DaemonMessages.stockThrough, count: notice.days, words.dose(notice.left), day($0), notice.days) }
            ?? words(DaemonMessages.stockNotEnough, words.dose(notice.left))
        return notice.orderBy.map { words(DaemonMessages.orderBy, left, day($0)) } ?? left
    }

    /// The fields a dose adds to a firing's journal entry and to a hook's environment: `REMINDER_DOSE=2`,
    /// `REMINDER_UNIT=tablet`.
    static func doseFields(_ dose: Dose?) -> [(String, String)] {
        dose.map { [("REMINDER_DOSE", $0.amountText), ("REMINDER_UNIT", $0.unit)] } ?? []
    }

    /// `Insulin stays at 08:00 Europe/Berlin, which is 16:00 here`, for each reminder a travel notice names, and
    /// `and 3 more keep their zones`.
    static func stays(_ notice: TravelNotice, _ words: any MessageCatalog) -> [String] {
        notice.stays.map { stay in
            words(DaemonMessages.staysLine, stay.name, String(stay.there.description.prefix(5)), stay.zone, String(stay.here.description.prefix(5)))
        } + (notice.moreStay > 0 ? [words(DaemonMessages.moreStay, notice.moreStay)] : [])
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
