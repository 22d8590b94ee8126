import FoundationEssentials
import ReminderCore
import ReminderInterface
import Testing
import Translation

@testable import WebInterface

/// The add and change form read into a rule and a dose, and written back into its own fields.
@Suite("remindd-web's reminder form")
struct ReminderFormTests {
    @Test func timesAndTickedDaysMakeTheRule() {
        let weekly = ReminderForm(fields: ["name": " Iron ", "at": "08:00 , 20:00,", "day-mon": "on", "day-thu": "on", "dose": "1,5", "unit": "tablet"])
        #expect(weekly.name == "Iron")
        #expect(weekly.rule == RuleSpec(weekly: "mon,thu", at: "08:00,20:00"))
        #expect(weekly.delivery(UntranslatedCatalog()).medication.dose == "1.5" && weekly.delivery(UntranslatedCatalog()).medication.unit == "tablet")
        let daily = ReminderForm(fields: ["name": "D", "at": "09:00"])
        #expect(daily.rule == RuleSpec(daily: true, at: "09:00"))
        #expect(daily.delivery(UntranslatedCatalog()).medication.dose == nil, "no dose: no medication part")
    }

    /// Adding, an empty field leaves remindd's default; changing, it clears what the form showed.
    @Test func theOtherPartsAreSetAndAnEmptyFieldClearsOnAChange() {
        let form = ReminderForm(fields: ["name": "D", "at": "08:00", "repeat": "10m", "repeat-max": "3", "before": "15m, 1h", "speak": "no"])
        let added = form.delivery(UntranslatedCatalog())
        #expect(added.repeating.repeat == "10m" && added.repeating.repeatMax == 3)
        #expect(added.notification.before == "15m,1h" && added.notification.speak == false && added.notification.sound == nil)
        let emptied = ReminderForm(fields: ["name": "D", "at": "08:00"]).delivery(UntranslatedCatalog(), updating: true)
        #expect(emptied.repeating.repeat == "" && emptied.notification.before == "" && emptied.notification.sound == "")
        #expect(emptied.notification.speak == nil, "as configured: left as it is")
    }

    @Test func whatIsMissingIsSaidBeforeRemindIsAsked() {
        #expect(ReminderForm(fields: ["at": "08:00"]).missing(UntranslatedCatalog()) == "Give the reminder a name.")
        #expect(ReminderForm(fields: ["name": "D", "at": " "]).missing(UntranslatedCatalog())?.hasPrefix("Give one or more times") == true)
        #expect(ReminderForm(fields: ["name": "D", "at": "08:00"]).missing(UntranslatedCatalog()) == nil)
        #expect(ReminderForm(fields: ["name": "D", "how": "as-needed"]).missing(UntranslatedCatalog()) == nil, "when needed has no times")
        // A number that is not one was dropped without a word (the form then saved no maximum).
        let notANumber = ReminderForm(fields: ["name": "D", "how": "as-needed", "max-per-day": "three"]).missing(UntranslatedCatalog())
        #expect(notANumber == "At most this many doses in 24 hours (optional): three is not a whole number; give one such as 3.")
        // A preset starts at one time: a second one was dropped without a word.
        let twoTimes = ReminderForm(fields: ["name": "P", "how": "Twice a Day", "at": "08:00, 21:00"]).missing(UntranslatedCatalog())
        #expect(twoTimes == "Twice a day starts at one time: give one, e.g. 08:00, or choose \u{201C}At the times and on the days below\u{201D} for several.")
        #expect(ReminderForm(fields: ["name": "P", "how": "Twice a Day", "at": "08:00, "]).missing(UntranslatedCatalog()) == nil)
    }

    /// A preset from the first time (and the first day, which a weekly one takes its weekday from), and a
    /// medication taken when needed with its limits: made into the rule and parts `remindctl add` makes.
    @Test func aPresetAndWhenNeededWithLimitsMakeTheRule() {
        let preset = ReminderForm(fields: ["name": "P", "how": "Twice a Day", "at": "08:00"])
        #expect(preset.rule == RuleSpec(preset: "Twice a Day", start: "08:00"))
        let weekly = ReminderForm(fields: ["name": "W", "how": "Weekly", "at": "09:30", "first-day": "2026-12-01"])
        #expect(weekly.rule == RuleSpec(preset: "Weekly", start: "2026-12-01T09:30"))
        let needed = ReminderForm(fields: ["name": "N", "how": "as-needed", "dose": "1", "unit": "tablet", "min-interval": "6h", "max-per-day": "3"])
        #expect(needed.rule == RuleSpec(asNeeded: true))
        let medication = needed.delivery(UntranslatedCatalog()).medication
        #expect(medication.minInterval == "6h" && medication.maxPerDay == 3 && medication.dose == "1")
        let cleared = ReminderForm(fields: ["name": "N", "how": "as-needed", "dose": "1"]).delivery(UntranslatedCatalog(), updating: true).medication
        #expect(cleared.minInterval == "" && cleared.maxPerDay == 0, "emptied on a change: no limit")
        let daysFrom = ReminderForm(fields: ["name": "D", "at": "08:00", "first-day": "2027-01-04"])
        #expect(daysFrom.rule == RuleSpec(daily: true, at: "08:00", start: "2027-01-04"))
    }

    /// A reminder the form can hold whole is shown in it, and saved unchanged gives the same rule and limits;
    /// one it cannot (an end) is not offered.
    @Test func aPresetAndWhenNeededAreShownForAChange() throws {
        func reminder(_ json: String) throws -> ReminderValue {
            let common = #""id": 7, "name": "N", "summary": "", "effectiveTimeZone": "UTC", "enabled": true, "streak": 0, "urgency": "normal", "snoozeMinutes": 10, "ladder": []"#
            return try JSONDecoder().decode(ReminderValue.self, from: Data("{\(common), \(json)}".utf8))
        }
        let needed = try #require(ReminderForm(reminder: try reminder(#""rule": {"asNeeded": true}, "dose": 1, "unit": "tablet", "minIntervalSeconds": 21600, "maxPerDay": 3"#)))
        #expect(needed.howOften == ReminderForm.asNeeded && needed.minInterval == "6h" && needed.maxPerDay == "3" && needed.times.isEmpty)
        #expect(needed.rule == RuleSpec(asNeeded: true))
        let weekly = try #require(ReminderForm(reminder: try reminder(#""rule": {"preset": "weekly", "start": "2026-12-01T09:00"}"#)))
        #expect(weekly.howOften == "Weekly" && weekly.times == "09:00" && weekly.firstDay == "2026-12-01")
        #expect(weekly.rule == RuleSpec(preset: "Weekly", start: "2026-12-01T09:00"))
        #expect(ReminderForm(reminder: try reminder(#""rule": {"daily": true, "at": "08:00", "until": "2027-01-01"}"#)) == nil)
        #expect(ReminderForm(reminder: try reminder(#""rule": {"daily": true, "at": "08:00", "start": "2026-12-01T08:00"}"#)) == nil)
    }

    /// Whom it is for (`--for Anna`): set, shown for a change and saved unchanged, emptied to be the user's own.
    @Test func whomItIsForIsSetShownAndCleared() throws {
        #expect(ReminderForm(fields: ["name": "Amoxicillin", "at": "08:00", "for": " Anna "]).delivery(UntranslatedCatalog()).person.person == "Anna")
        #expect(ReminderForm(fields: ["name": "D", "at": "08:00"]).delivery(UntranslatedCatalog()).person.person == nil, "adding: nobody else's")
        #expect(ReminderForm(fields: ["name": "D", "at": "08:00"]).delivery(UntranslatedCatalog(), updating: true).person.person == "", "emptied: yours")
        let common = #""id": 7, "name": "Amoxicillin", "summary": "", "effectiveTimeZone": "UTC", "enabled": true, "streak": 0, "urgency": "normal", "snoozeMinutes": 10, "ladder": []"#
        let json = #"{\#(common), "rule": {"daily": true, "at": "08:00"}, "person": "Anna"}"#
        let shown = try #require(ReminderForm(reminder: try JSONDecoder().decode(ReminderValue.self, from: Data(json.utf8))))
        #expect(shown.person == "Anna" && ReminderForm(fields: WebRequest.fields(shown.query)).person == "Anna")
    }

    @Test func theFieldsComeBackAsTyped() {
        let typed = ReminderForm(fields: ["name": "Vitamin D & K", "at": "25:99", "day-sun": "on", "window": "2h"])
        let again = ReminderForm(fields: WebRequest.fields(typed.query))
        #expect(again.name == typed.name && again.times == "25:99" && again.days == ["sun"] && again.window == "2h")
    }
}
