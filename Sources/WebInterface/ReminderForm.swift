import ReminderCore
import ReminderInterface
import Translation

/// What the add and edit form holds: a name, times on every day or on some weekdays (or a preset from the first
/// time, or when needed), a dose with its unit, its limits and a window; read from the posted fields (or a
/// reminder, to edit it) and made into `Add`'s or `Update`'s parameters. remindd checks them as it checks
/// `remindctl add`'s, and says what is wrong in the same words.
struct ReminderForm: Sendable {
    static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    /// `howOften` of a medication taken when needed; "" is at the times and days given; else a preset's name.
    static let asNeeded = "as-needed"

    var name = ""
    /// "", ``asNeeded`` or a ``Preset``'s name (`Twice a Day`).
    var howOften = ""
    /// `2026-12-01`: the first day (a weekly or monthly preset's weekday or day); empty: from today.
    var firstDay = ""
    /// `08:00, 20:00`.
    var times = ""
    /// The weekdays ticked (`mon`...); none: every day.
    var days: [String] = []
    var dose = ""
    var unit = ""
    /// `2h`; empty: until the next occurrence.
    var window = ""
    /// The low-stock notice's days (empty: the default), `10m` repeats and their most, `15m, 1h` notices before,
    /// the sound (empty: the default of its kind; `none`), and reading aloud (`yes`, `no`; empty: config.toml's).
    var refillDays = ""
    var repeatEvery = ""
    var repeatMax = ""
    var before = ""
    var sound = ""
    var speak = ""
    /// `6h` and `3`: how often a dose may be logged (empty: no limit).
    var minInterval = ""
    var maxPerDay = ""
    /// Whom it is for (`--for Anna`); empty: the user.
    var person = ""

    /// The optional fields' names on the form, and their values.
    var optionalFields: [(String, String)] {
        [("how", howOften), ("first-day", firstDay), ("refill-days", refillDays), ("min-interval", minInterval), ("max-per-day", maxPerDay),
         ("repeat", repeatEvery), ("repeat-max", repeatMax), ("before", before), ("sound", sound), ("speak", speak), ("for", person)]
    }

    init() {}

    /// The form's fields as posted (`day-mon=on` for each weekday ticked).
    init(fields: [String: String]) {
        (name, times, dose, unit, window) = (fields["name"] ?? "", fields["at"] ?? "", fields["dose"] ?? "", fields["unit"] ?? "", fields["window"] ?? "")
        days = Self.weekdays.filter { fields["day-\($0)"] != nil }
        name = name.trimmed
        (refillDays, repeatEvery, repeatMax) = (fields["refill-days"] ?? "", fields["repeat"] ?? "", fields["repeat-max"] ?? "")
        (before, sound, speak) = (fields["before"] ?? "", fields["sound"] ?? "", fields["speak"] ?? "")
        (howOften, firstDay) = (fields["how"] ?? "", fields["first-day"] ?? "")
        (minInterval, maxPerDay) = (fields["min-interval"] ?? "", fields["max-per-day"] ?? "")
        person = fields["for"] ?? ""
    }

    /// A reminder as the form shows it; nil when its schedule is not one the form makes whole (an RRULE, an
    /// end, skipped days, a start at a time: saving the form would lose them, so those are changed with
    /// `remindctl update`).
    init?(reminder: ReminderValue) {
        let rule = reminder.rule
        let others: [String?] = [rule.monthly, rule.monthlyOn, rule.yearly, rule.every, rule.once, rule.until, rule.skip,
                                 rule.rrule, rule.onCalendar, rule.rdate, rule.exdate, rule.alarm]
        guard others.allSatisfy({ $0 == nil }), rule.fromLastDose != true else { return nil }
        let start = rule.start.map { $0.split(separator: "T", omittingEmptySubsequences: false).map(String.init) } ?? []
        if let preset = rule.preset {
            // `08:00` or `2026-12-01T09:00`: the first time, and the first day when there is one.
            guard let time = start.last, start.count <= 2 else { return nil }
            (howOften, times, firstDay) = (Preset(name: preset)?.rawValue ?? preset, time, start.count == 2 ? start[0] : "")
        } else if rule.asNeeded == true {
            guard start.isEmpty else { return nil }
            howOften = Self.asNeeded
        } else {
            guard let at = rule.at, rule.daily == true || rule.weekly != nil, start.count <= 1, !(start.first?.contains(":") ?? false) else { return nil }
            (times, firstDay) = (at.split(separator: ",").joined(separator: ", "), start.first ?? "")
            days = rule.weekly.map { $0.lowercased().split(separator: ",").map { String($0.prefix(3)) } } ?? []
        }
        name = reminder.name
        if let amount = reminder.delivery.medication.dose { dose = Dose(thousandths: Int64((amount * 1000).rounded()), unit: "").amountText }
        unit = reminder.delivery.medication.unit ?? ""
        window = reminder.windowSeconds.map(WindowLength.text) ?? ""
        let (delivery, notification) = (reminder.delivery, reminder.delivery.notification)
        refillDays = delivery.medication.refillDays.map(String.init) ?? ""
        repeatEvery = delivery.repeating.plan.map { WindowLength.text($0.intervalSeconds) } ?? ""
        repeatMax = delivery.repeating.plan?.maximum.map(String.init) ?? ""
        before = notification.beforeMinutes?.map { WindowLength.text(Int64($0) * 60) }.joined(separator: ", ") ?? ""
        sound = notification.sound ?? ""
        speak = notification.speak.map { $0 ? "yes" : "no" } ?? ""
        minInterval = delivery.medication.minIntervalSeconds.map(WindowLength.text) ?? ""
        maxPerDay = delivery.medication.maxPerDay.map(String.init) ?? ""
        person = delivery.person.person ?? ""
    }

    /// What is missing or not a number before remindd is asked at all; nil: the form is complete.
    func missing(_ words: any MessageCatalog) -> String? {
        if name.isEmpty { return words(WebMessages.nameMissing) }
        if times.trimmed.isEmpty, howOften != Self.asNeeded { return words(WebMessages.timesOrNeeded) }
        // A preset starts at one time: the times after the first were dropped without a word.
        if let preset = Preset(name: howOften), times.split(separator: ",").filter({ !String($0).trimmed.isEmpty }).count > 1 {
            return words(WebMessages.presetOneTime, words(WebMessages.presetName(preset)), words(WebMessages.atTimesChoice))
        }
        for (label, text) in [(WebMessages.repeatMaxLabel, repeatMax), (WebMessages.maxPerDayLabel, maxPerDay)] where !text.trimmed.isEmpty && Int(text.trimmed) == nil {
            return words(WebMessages.wholeNumber, words(label), text.trimmed)
        }
        return nil
    }

    var rule: RuleSpec {
        let at = times.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty }
        let first = firstDay.trimmed.isEmpty ? nil : firstDay.trimmed
        switch howOften {
        case Self.asNeeded: return RuleSpec(asNeeded: true)
        case "": return days.isEmpty ? RuleSpec(daily: true, at: at.joined(separator: ","), start: first)
            : RuleSpec(weekly: days.joined(separator: ","), at: at.joined(separator: ","), start: first)
        default:
            // A preset starts at the first time given, on the first day if there is one.
            let time = at.first ?? ""
            return RuleSpec(preset: howOften, start: first.map { "\($0)T\(time)" } ?? time)
        }
    }

    /// The parts the form sets. The dose part is none when the dose is empty (the unit alone is ignored, as
    /// `--unit` without `--dose` is), a unit typed in the page's language stored as remindd names it (`Tabletten`
    /// is `tablet`), as remindctl does. `updating`: an empty field clears what was set (the form showed it).
    func delivery(_ words: any MessageCatalog, updating: Bool = false) -> Delivery.Change {
        func given(_ text: String) -> String? {
            let value = text.trimmed
            return value.isEmpty ? (updating ? "" : nil) : value
        }
        var change = Delivery.Change()
        change.repeating = .init(repeat: given(repeatEvery), repeatMax: Int(repeatMax.trimmed))
        change.notification = .init(sound: given(sound), before: given(before).map { String($0.filter { $0 != " " }) },
                                    speak: ["yes": true, "no": false][speak])
        change.person = .init(person: given(person))
        let limits = (minInterval: given(minInterval), maxPerDay: Int(maxPerDay.trimmed) ?? (updating ? 0 : nil))
        guard !dose.trimmed.isEmpty || limits.minInterval?.isEmpty == false || limits.maxPerDay ?? 0 > 0 else { return change }
        let typedUnit = unit.trimmed
        change.medication = .init(
            dose: dose.trimmed.isEmpty ? nil : dose.trimmed.replacingOccurrences(",", "."),
            unit: typedUnit.isEmpty ? nil : words.unitName(typedUnit) ?? typedUnit,
            refillDays: Int(refillDays.trimmed) ?? (updating ? 0 : nil), minInterval: limits.minInterval, maxPerDay: limits.maxPerDay)
        return change
    }

    var windowText: String? { window.trimmed.isEmpty ? nil : window.trimmed }

    /// The fields again, for the form shown anew with what was typed (`name=...&at=...`).
    var query: String {
        var pairs = [("name", name), ("at", times), ("dose", dose), ("unit", unit), ("window", window)] + optionalFields
        pairs += days.map { ("day-\($0)", "on") }
        return pairs.filter { !$0.1.isEmpty }.map { "\($0.0)=\(Self.percentEncoded($0.1))" }.joined(separator: "&")
    }

    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.append(Character(UnicodeScalar(byte)))
            default:
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }
}

extension String {
    var trimmed: String { String(Substring(self).trimmingSpaces) }

    fileprivate func replacingOccurrences(_ old: Character, _ new: Character) -> String { String(map { $0 == old ? new : $0 }) }
}
