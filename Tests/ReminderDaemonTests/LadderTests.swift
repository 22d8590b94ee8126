import ReminderCore
import ReminderDaemonTesting
import ReminderInterface
import VarlinkProtocol
import Testing

@testable import ReminderDaemon

/// `Get` answers what each announcement of the reminder does, with config.toml's defaults filled in (the sound of
/// its kind, speak, on-missed).
@Suite("The ladder a reminder's Get answers")
struct LadderTests {
    @Test func getAnswersTheLadderWithTheConfigsDefaults() async throws {
        var configuration = DaemonConfiguration()
        configuration.sounds = .init(dose: .named("bell"), reminder: .none, speak: .doses)
        configuration.onMissed = ["/bin/mail", "carer@example.org"]
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"), configuration: configuration)
        try await daemon.add(
            "Metformin", ["daily": true, "at": "08:00"], timeZone: "UTC", ["dose": "500mg", "repeat": "10m", "repeatMax": 2, "window": "1h", "before": "15m"])
        let reply = try await daemon.call(Reminders.Get.self, .init(reminder: "Metformin"))
        #expect(reply.reminder.name == "Metformin")
        #expect(reply.ladder.map(\.what) == ["before", "announced", "repeated", "missed"])
        let announced = reply.ladder[1]
        #expect(announced.sound == "bell" && announced.spoken && announced.urgency == "critical")
        #expect(reply.ladder[3].afterSeconds == 3600 && reply.ladder[3].commands == ["/bin/mail"])
        try await daemon.add("Water", ["daily": true, "at": "09:00"], timeZone: "UTC")
        let water = try await daemon.call(Reminders.Get.self, .init(reminder: "Water")).ladder
        #expect(water[0].sound == nil && !water[0].spoken && water[0].urgency == "normal", "reminder-sound none; speak doses")
    }
}
