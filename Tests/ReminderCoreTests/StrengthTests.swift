import Foundation
import ReminderCore
import Testing

/// A dose's strength (`--strength 20mg`): only for a counted dose, kept, stored and synced.
@Suite("Dose strength")
struct StrengthTests {
    @Test func aStrengthBelongsToACountedDoseAndTravels() throws {
        let tablet = try MedicationSettings().applying(.init(dose: "1", unit: "tablet", strength: "20 mg"), adding: true)
        #expect(tablet.strength == Dose(thousandths: 20_000, unit: "mg"))
        #expect(throws: PartError.self) { try MedicationSettings().applying(.init(dose: "20mg", strength: "20mg"), adding: true) }
        #expect(throws: PartError.self) { try MedicationSettings().applying(.init(strength: "20mg"), adding: true) }
        #expect(throws: PartError.self) { try MedicationSettings.check(.init(strength: "2 tablets"), adding: true) }
        #expect(try tablet.applying(.init(strength: ""), adding: false).strength == nil)
        let properties = Dictionary(uniqueKeysWithValues: tablet.syncedProperties.map { ($0.name, $0.text) })
        #expect(properties["STRENGTH"] == "20 mg")
        #expect(try MedicationSettings(synced: { properties[$0] }).strength == tablet.strength)
        let stored = try JSONDecoder().decode(MedicationSettings.self, from: JSONEncoder().encode(tablet))
        #expect(stored == tablet && Dose.isCounted("puff") && !Dose.isCounted("ml"))
    }
}
