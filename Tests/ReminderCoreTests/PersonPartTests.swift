import ReminderCore
import Testing

/// Whom a reminder is for (``PersonSettings``): the option, the stored form and the synced item.
@Suite("Person part")
struct PersonPartTests {
    @Test func aNameIsTrimmedCheckedAndTravels() throws {
        let anna = try PersonSettings().applying(.init(person: "  Anna "), adding: true)
        #expect(anna.person == "Anna" && anna.named("Amoxicillin") == "Anna: Amoxicillin" && anna.isFor(" anna"))
        #expect(try anna.applying(.init(person: ""), adding: false).person == nil, "\"\": the user")
        #expect(try anna.applying(.init(), adding: false) == anna, "absent: unchanged")
        #expect(throws: PartError.self) { try PersonSettings.check(.init(person: String(repeating: "x", count: 61)), adding: true) }
        #expect(throws: PartError.self) { try PersonSettings.check(.init(person: "Anna\n"), adding: true) }
        #expect(throws: PartError.self) { try PersonSettings.check(.init(person: "   "), adding: true) }
        var delivery = Delivery()
        delivery.person = anna
        let properties = Dictionary(uniqueKeysWithValues: delivery.syncedProperties.map { ($0.name, $0.text) })
        #expect(properties["FOR"] == "Anna")
        #expect(Delivery().merging(synced: try Delivery(synced: { properties[$0] })).person == anna, "it travels")
        #expect(throws: PartError.self) { try Delivery(synced: { $0 == "FOR" ? "" : nil }) }
        #expect(Delivery().person.named("Metformin") == "Metformin")
    }
}
