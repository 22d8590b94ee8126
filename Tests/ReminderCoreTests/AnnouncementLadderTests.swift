import ReminderCore
import Testing

/// `show`'s ladder: what each announcement of an occurrence does, in time order, from the reminder's parts and the
/// config's defaults.
@Suite("The announcement ladder")
struct AnnouncementLadderTests {
    @Test func aDoseWithEverythingIsOneLadderInTimeOrder() throws {
        var delivery = Delivery(
            repeating: RepeatSettings(plan: RepeatPlan(intervalSeconds: 600, maximum: 3)),
            medication: MedicationSettings(dose: Dose(thousandths: 500_000, unit: "mg")))
        delivery.notification.beforeMinutes = [15, 60]
        delivery.notification.speak = true
        delivery.escalation = EscalationSettings(command: ["/usr/bin/tell-carer"], afterSeconds: 1200)
        delivery.hook.command = ["/home/me/bin/lamp"]
        let ladder = AnnouncementLadder(
            delivery: delivery, windowSeconds: 3600, defaults: .init(sound: .named("alarm-clock-elapsed"), speaks: false, onMissed: "/bin/mail"))
        #expect(ladder.steps.map(\.what) == ["before", "before", "announced", "repeated", "escalated", "missed"])
        #expect(ladder.steps.map(\.afterSeconds) == [-3600, -900, 0, 600, 1200, 3600])
        let announced = ladder.steps[2]
        #expect(announced.urgency == "critical" && announced.sound == "alarm-clock-elapsed" && announced.spoken)
        #expect(announced.commands == ["/home/me/bin/lamp"])
        #expect(ladder.steps[3].times == 3 && ladder.steps[3].everySeconds == 600)
        #expect(ladder.steps[4].commands == ["/usr/bin/tell-carer"] && ladder.steps[4].urgency == nil)
        #expect(ladder.steps[5].commands == ["/bin/mail"], "escalated before: not again when missed")
        #expect(ladder.steps[0].urgency == "low" && ladder.steps[0].sound == nil && !ladder.steps[0].spoken)
    }

    @Test func aPlainReminderIsAnnouncedThenMissedAtTheWindowsEnd() {
        var delivery = Delivery()
        delivery.notification.sound = Sound.none
        delivery.escalation = EscalationSettings(command: ["/usr/bin/tell-carer"])
        let ladder = AnnouncementLadder(delivery: delivery, windowSeconds: nil, defaults: .init(sound: .named("message-new-instant"), speaks: true))
        #expect(ladder.steps.map(\.what) == ["announced", "missed"])
        #expect(ladder.steps[0].urgency == "normal" && ladder.steps[0].sound == nil && ladder.steps[0].spoken, "--sound none; speak = all")
        #expect(ladder.steps[1].afterSeconds == nil && ladder.steps[1].commands == ["/usr/bin/tell-carer"], "escalated when missed")
    }
}
