import ReminderCore
import ReminderInterface
import Translation

/// What the add and edit form holds: a name, times on every day or on some weekdays, a dose with its unit and a
/// window; read from the posted fields (or a reminder, to edit it) and made into `Add`'s or `Update`'s
/// parameters. remindd checks them as it checks `remindctl add`'s, and says what is wrong in the same words.
struct ReminderForm: Sendable {
    static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    var name = ""
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

    /// The optional fields' names on the form, and their values.
    var optionalFields: [(String, String)] {
        [("refill-days", refillDays), ("repeat", repeatEvery), ("repeat-max", repeatMax), ("before", before), ("sound", sound), ("speak", speak)]
    }

    init() {}

    /// The form's fields as posted (`day-mon=on` for each weekday ticked).
    init(fields: [String: String]) {
        (name, times, dose, unit, window) = (fields["name"] ?? "", fields["at"] ?? "", fields["dose"] ?? "", fields["unit"] ?? "", fields["window"] ?? "")
        days = Self.weekdays.filter { fields["day-\($0)"] != nil }
        name = name.trimmed
        (refillDays, repeatEvery, repeatMax) = (fields["refill-days"] ?? "", fields["repeat"] ?? "", fields["repeat-max"] ?? "")
        (before, sound, speak) = (fields["before"] ?? "", fields["sound"] ?? "", fields["speak"] ?? "")
    }

    /// A reminder as the form shows it; nil when its schedule is not one the form makes whole (an RRULE, a
    /// preset, as needed, a start, an end or skipped days: saving the form would lose them, so those are changed
    /// with `remindctl update`).
    init?(reminder: ReminderValue) {
        let rule = reminder.rule
        let others: [String?] = [rule.monthly, rule.monthlyOn, rule.yearly, rule.every, rule.preset, rule.once, rule.start, rule.until, rule.skip,
                                 rule.rrule, rule.onCalendar, rule.rdate, rule.exdate, rule.alarm]
        guard let at = rule.at, rule.daily == true || rule.weekly != nil, others.allSatisfy({ $0 == nil }), rule.asNeeded != true,
              rule.fromLastDose != true
        else { return nil }
        (name, times) = (reminder.name, at.split(separator: ",").joined(separator: ", "))
        days = rule.weekly.map { $0.lowercased().split(separator: ",").map { String($0.prefix(3)) } } ?? []
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
    }

    /// What is missing before remindd is asked at all; nil: the form is complete.
    func missing(_ words: any MessageCatalog) -> String? {
        if name.isEmpty { return words(WebMessages.nameMissing) }
        if times.trimmed.isEmpty { return words(WebMessages.timesMissing) }
        return nil
    }

    var rule: RuleSpec {
        let at = times.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty }.joined(separator: ",")
        return days.isEmpty ? RuleSpec(daily: true, at: at) : RuleSpec(weekly: days.joined(separator: ","), at: at)
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
        guard !dose.trimmed.isEmpty else { return change }
        let typedUnit = unit.trimmed
        change.medication = .init(
            dose: dose.trimmed.replacingOccurrences(",", "."), unit: typedUnit.isEmpty ? nil : words.unitName(typedUnit) ?? typedUnit,
            refillDays: Int(refillDays.trimmed) ?? (updating ? 0 : nil))
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
