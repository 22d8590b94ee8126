import Foundation
import ReminderCore
import Testing

/// Two medicines kept apart (``DoseGaps``): a dose's breach either side, the wait of an announcement behind the
/// other's dose or its occurrence still due, the order of two due together, and the part's option as the wire,
/// the store and a synced item carry it.
@Suite("Dose gaps")
struct DoseGapsTests {
    let iron = DoseGap(reminder: "Iron", seconds: 4 * 3600)

    @Test func aDoseWithinTheGapEitherSideBreachesItAndTheBoundaryKeepsIt() {
        let dose = instant("2026-12-01T08:00:00Z")
        let partner = DoseGaps.Partner(gap: iron, doses: [instant("2026-12-01T05:00:00Z"), instant("2026-12-01T10:00:00Z")])
        let breach = DoseGaps.breach(at: dose, partners: [partner])
        #expect(breach?.from == instant("2026-12-01T10:00:00Z") && breach?.until == instant("2026-12-01T14:00:00Z"), "the one that holds it back longest")
        #expect(DoseGaps.breach(at: instant("2026-12-01T14:00:00Z"), partners: [partner]) == nil, "exactly the gap after: kept")
        #expect(DoseGaps.breach(at: instant("2026-12-01T01:00:00Z"), partners: [partner]) == nil, "exactly the gap before: kept")
        #expect(DoseGaps.breach(at: instant("2026-12-01T01:00:01Z"), partners: [partner])?.from == instant("2026-12-01T05:00:00Z"))
    }

    @Test func anAnnouncementWaitsForTheOthersDoseAndForItsOccurrenceThatGoesFirst() {
        let seven = instant("2026-12-01T07:00:00Z")
        let due = DoseGaps.Partner(gap: iron, doses: [], pending: [seven])
        // Due together: the name that sorts first goes first.
        #expect(DoseGaps.hold(now: seven, occurrence: seven, name: "Levothyroxine", partners: [due])?.until == instant("2026-12-01T11:00:00Z"))
        #expect(DoseGaps.hold(now: seven, occurrence: seven, name: "Calcium", partners: [due]) == nil, "Calcium goes before Iron")
        #expect(DoseGaps.goesFirst("iron", before: "Levothyroxine") && !DoseGaps.goesFirst("Levothyroxine", before: "iron"))
        // An occurrence of its own due earlier goes first, even announced again later.
        #expect(DoseGaps.hold(now: instant("2026-12-01T07:10:00Z"), occurrence: instant("2026-12-01T06:00:00Z"), name: "Levothyroxine", partners: [due]) == nil)
        // The dose taken later than the other was due holds it longer; past the gap, nothing holds.
        let taken = DoseGaps.Partner(gap: iron, doses: [instant("2026-12-01T07:30:00Z")], pending: [])
        let hold = DoseGaps.hold(now: instant("2026-12-01T11:00:00Z"), occurrence: seven, name: "Levothyroxine", partners: [taken, due])
        #expect(hold == DoseGaps.Hold(partner: "Iron", gapSeconds: 14400, from: instant("2026-12-01T07:30:00Z"), taken: true))
        #expect(DoseGaps.hold(now: instant("2026-12-01T11:30:00Z"), occurrence: seven, name: "Levothyroxine", partners: [taken, due]) == nil)
    }

    @Test func theOptionChangesOneGapAndTheSyncedItemCarriesNamesWithSeparators() throws {
        var medication = MedicationSettings()
        medication = try medication.applying(.init(apartFrom: [.init(reminder: " Iron ", gap: "4h"), .init(reminder: "Vitamin; D 100%", gap: "2h")]), adding: true)
        #expect(medication.apart == [iron, DoseGap(reminder: "Vitamin; D 100%", seconds: 7200)])
        medication = try medication.applying(.init(apartFrom: [.init(reminder: "iron", gap: "0")]), adding: false)
        #expect(medication.apart == [DoseGap(reminder: "Vitamin; D 100%", seconds: 7200)], "0 removes that one only")
        #expect(throws: PartError.self) { try medication.applying(.init(apartFrom: [.init(reminder: "Iron", gap: "25h")]), adding: false) }
        #expect(throws: PartError.self) { try MedicationSettings.check(.init(apartFrom: [.init(reminder: " ", gap: "1h")]), adding: true) }

        let properties = Dictionary(uniqueKeysWithValues: medication.syncedProperties.map { ($0.name, $0.text) })
        #expect(properties["APART"] == "7200 Vitamin%3B D 100%25")
        #expect(try MedicationSettings(synced: { properties[$0] }).apart == medication.apart)
        #expect(throws: PartError.self) { try MedicationSettings(synced: { $0 == "APART" ? "7200" : nil }) }
        #expect(throws: PartError.self) { try MedicationSettings(synced: { $0 == "APART" ? "30 Iron" : nil }) }
        let stored = try JSONDecoder().decode(MedicationSettings.self, from: JSONEncoder().encode(medication))
        #expect(stored.apart == medication.apart && stored.problem == nil)
    }

    @Test func aPartnersGapFollowsItsRenameAndGoesWithIt() {
        let gaps = [DoseGap(reminder: "Iron", seconds: 3600), DoseGap(reminder: "Calcium", seconds: 7200)]
        #expect(DoseGaps.reciprocal(gaps, of: "Ferrous sulfate", formerly: "iron", seconds: 3600) == [gaps[1], DoseGap(reminder: "Ferrous sulfate", seconds: 3600)])
        #expect(DoseGaps.reciprocal(gaps, of: "Calcium", formerly: "Calcium", seconds: nil) == [gaps[0]])
    }
}
