import Foundation
import ReminderCore
import Testing

/// Pauses with dates (``PauseSettings``): which occurrences they cover, how they merge and end, how they are
/// stored and travel, and what a hostile synced item cannot do.
@Suite("Pauses with dates")
struct PauseTests {
    let utc: TimeZoneRules
    let daily: ReminderRule

    init() throws {
        utc = try zone("UTC")
        daily = try RuleSpec(daily: true, at: "08:00").makeRule()
    }

    func span(_ from: String, _ until: String, _ reason: String? = nil) -> PauseSpan {
        PauseSpan(from: instant(from), until: instant(until), reason: reason)
    }

    /// A week paused: its occurrences are paused (never missed, even once their windows closed); the day before
    /// and the day it ends (the end is excluded) are as usual; a dose logged within stays taken.
    @Test func aPausedOccurrenceIsNeitherDueNorMissedAndALogStillTakesIt() {
        let pauses = PauseSettings(spans: [span("2026-12-01T00:00:00Z", "2026-12-08T08:00:00Z", "hospital")])
        func state(on day: Int, logs: [String] = [], now: String = "2026-12-20T12:00:00Z") -> OccurrenceState? {
            daily.states(
                on: LocalDate(year: 2026, month: 12, day: day)!, in: utc, logs: logs.map(instant), skips: [], windowSeconds: nil, now: instant(now),
                pauses: pauses
            ).first?.state
        }
        #expect(state(on: 1) == .paused)
        #expect(state(on: 7) == .paused)
        #expect(state(on: 8) == .missed, "the pause ends at 08:00 on the 8th: that occurrence is not covered")
        #expect(state(on: 4, now: "2026-12-04T08:00:00Z") == .paused, "not due either")
        #expect(state(on: 4, now: "2026-12-01T07:00:00Z") == .paused, "nor upcoming")
        #expect(state(on: 3, logs: ["2026-12-03T08:10:00Z"]) == .taken)
        #expect(
            daily.states(
                on: LocalDate(year: 2026, month: 11, day: 30)!, in: utc, logs: [], skips: [], windowSeconds: nil, now: instant("2026-12-20T12:00:00Z"),
                pauses: pauses
            ).first?.state == .missed)
    }

    @Test func overlappingPausesBecomeOneAndResumeEndsTheRunningOneAndDropsThoseAhead() {
        var pauses = PauseSettings()
        pauses = pauses.adding(span("2026-12-01T00:00:00Z", "2026-12-05T00:00:00Z", "away"))
        pauses = pauses.adding(span("2026-12-04T00:00:00Z", "2026-12-08T00:00:00Z", "still away"))
        pauses = pauses.adding(span("2026-12-20T00:00:00Z", "2026-12-24T00:00:00Z"))
        #expect(pauses.spans == [span("2026-12-01T00:00:00Z", "2026-12-08T00:00:00Z", "still away"), span("2026-12-20T00:00:00Z", "2026-12-24T00:00:00Z")])
        let (resumed, changed) = pauses.resumed(at: instant("2026-12-03T12:00:00Z"))
        #expect(changed)
        #expect(resumed.spans == [span("2026-12-01T00:00:00Z", "2026-12-03T12:00:00Z", "still away")], "the running one ends now, the one ahead goes")
        #expect(resumed.resumed(at: instant("2026-12-04T00:00:00Z")).changed == false, "nothing to resume: nothing changes")
    }

    /// Stored as `pauses` in the reminder's flat object, shown in replies, and written into a synced item as one
    /// property that another device reads back the same (a reason with `,`, and `;` kept as `,` on every device).
    @Test func aPauseIsStoredShownAndTravels() throws {
        var delivery = Delivery()
        delivery.pause = PauseSettings(spans: [span("2026-12-01T00:00:00Z", "2026-12-08T08:00:00Z", "hospital; ward 3, bed 2")])
        let stored = try JSONDecoder().decode(Delivery.self, from: JSONEncoder().encode(delivery))
        #expect(stored == delivery)
        let shown = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(delivery.shown(on: nil))) as? [String: Any])
        let pauses = try #require(shown["pauses"] as? [[String: String]])
        #expect(pauses == [["from": "2026-12-01T00:00:00Z", "until": "2026-12-08T08:00:00Z", "reason": "hospital, ward 3, bed 2"]], "';' kept as ','")
        let properties = Dictionary(uniqueKeysWithValues: delivery.syncedProperties.map { ($0.name, $0.text) })
        #expect(properties["PAUSES"] == "20261201T000000Z/20261208T080000Z hospital, ward 3, bed 2")
        let read = try Delivery(synced: { properties[$0] })
        #expect(read.pause.spans == [span("2026-12-01T00:00:00Z", "2026-12-08T08:00:00Z", "hospital, ward 3, bed 2")])
        #expect(Delivery().merging(synced: read).pause == read.pause, "a pause travels")
    }

    /// The days a stock lasts skip the pause: ten tablets at one a day last ten doses, and a week paused in
    /// between moves the last one a week later.
    @Test func stockLastsPastAPause() {
        let now = instant("2026-12-01T12:00:00Z")
        func through(_ pauses: PauseSettings) -> Stock.Coverage {
            Stock.coverage(left: 10_000, dose: { _ in 1000 }, rule: daily, zone: utc, after: now, pauses: pauses)
        }
        #expect(through(PauseSettings()).through?.scheduledDate == LocalDate(year: 2026, month: 12, day: 11))
        let paused = through(PauseSettings(spans: [span("2026-12-04T00:00:00Z", "2026-12-11T00:00:00Z")]))
        #expect(paused.doses == 10 && paused.days == 17 && paused.through?.scheduledDate == LocalDate(year: 2026, month: 12, day: 18))
    }

    @Test func aHostileSyncedPauseIsRefusedWhole() {
        for text in [
            "20261208T000000Z/20261201T000000Z", "20261201T000000Z", "2026-12-01T00:00:00Z/2026-12-08T00:00:00Z",
            "20261201T000000Z/20291201T000000Z", "20261201T000000Z/20261208T000000Z \u{7}bell", "x/y",
            Array(repeating: "20261201T000000Z/20261202T000000Z", count: PauseSettings.maximumSpans + 1).joined(separator: ";"),
        ] {
            #expect(throws: PartError.self, "\(text)") { try PauseSettings(synced: { $0 == "PAUSES" ? text : nil }) }
        }
        #expect(PauseSettings(spans: [span("2026-12-08T00:00:00Z", "2026-12-01T00:00:00Z")]).problem != nil, "a restored row that ends first")
    }
}
