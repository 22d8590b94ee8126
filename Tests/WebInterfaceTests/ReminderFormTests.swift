import ReminderCore
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
    }

    @Test func theFieldsComeBackAsTyped() {
        let typed = ReminderForm(fields: ["name": "Vitamin D & K", "at": "25:99", "day-sun": "on", "window": "2h"])
        let again = ReminderForm(fields: WebRequest.fields(typed.query))
        #expect(again.name == typed.name && again.times == "25:99" && again.days == ["sun"] && again.window == "2h")
    }
}
