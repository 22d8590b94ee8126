import ReminderCore
import ReminderScheduling
import TimeZoneDatabase
import Testing

/// A trip with a daily 08:00 dose that follows the computer's zone: Berlin, then Tokyo, then New York. Each local
/// 08:00 is announced once: none twice when the zone brings it again, none lost when the zone passes over it.
@Suite("Travel: the followed zone changes")
struct ZoneMoveTests {
    let berlin: TimeZoneRules
    let tokyo: TimeZoneRules
    let newYork: TimeZoneRules
    let daily: ReminderRule
    let created = Instant(secondsSinceEpoch: 0)

    init() throws {
        let zones = TimeZoneDatabase()
        (berlin, tokyo, newYork) = (try zones.rules(named: "Europe/Berlin"), try zones.rules(named: "Asia/Tokyo"), try zones.rules(named: "America/New_York"))
        daily = try RuleSpec(daily: true, at: "08:00").makeRule()
    }

    func instant(_ text: String) -> Instant {
        let parsed = ISO8601.parseInstant(text)!
        return Instant(secondsSinceEpoch: parsed.local.localSeconds - Int64(parsed.offsetSeconds ?? 0))
    }

    /// The next slot after the move, in the new zone, as the scheduler takes it (passing those skipped).
    func next(from old: TimeZoneRules, to new: TimeZoneRules, handled: Instant) -> Occurrence? {
        let plan = ZoneMove.plan(daily, from: old, to: new, handledThrough: handled, createdAt: created)
        #expect(plan.handledThrough <= handled, "never handled past what was")
        return daily.nextOccurrence(after: plan.handledThrough, in: new, passing: Set(plan.alreadyAnnounced.map(\.instant)))
    }

    /// Flying west: 08:00 in Tokyo was taken (23:00 UTC the day before); in New York the same date's 08:00 comes
    /// 14 hours later. It is skipped, not announced again: the next is the following day's.
    @Test func flyingWestTheSameLocalSlotIsNotAnnouncedTwice() {
        let handled = instant("2026-12-03T23:00:30Z")  // Tokyo, Fri 4 Dec 08:00:30
        #expect(daily.nextOccurrence(after: handled, in: newYork)?.localDateTime.description == "2026-12-04T08:00:00", "what a plain re-plan did: twice")
        #expect(next(from: tokyo, to: newYork, handled: handled)?.localDateTime.description == "2026-12-05T08:00:00")
    }

    /// Flying east: 08:00 in Berlin on the 2nd was taken; the machine wakes in Tokyo at 12:00 on the 3rd, when
    /// Tokyo's 08:00 on the 3rd has passed and Berlin's has not come. It is due (announced once, late), not lost.
    @Test func flyingEastASlotPassedOverIsDueNotLost() {
        let handled = instant("2026-12-02T07:00:10Z")  // Berlin, Wed 2 Dec 08:00:10
        let wakes = instant("2026-12-03T03:00:00Z")  // Tokyo, Thu 3 Dec 12:00
        #expect(daily.nextOccurrence(after: max(wakes, handled), in: tokyo)?.localDateTime.description == "2026-12-04T08:00:00", "what a plain re-plan from now did: the 3rd lost")
        let slot = next(from: berlin, to: tokyo, handled: handled)
        #expect(slot?.localDateTime.description == "2026-12-03T08:00:00")
        #expect(slot.map { $0.instant <= wakes } == true, "due at once")
    }

    /// The whole trip, one move after another: every local date's 08:00 once, in order.
    @Test func theWholeTripAnnouncesEachLocalDateOnce() {
        var handled = instant("2026-12-01T07:00:00Z")  // Berlin, 1 Dec 08:00
        var zone = berlin
        var skipped: Set<Instant> = []
        var announced: [String] = ["2026-12-01"]
        let legs: [(at: Instant, to: TimeZoneRules?)] = [
            (instant("2026-12-01T20:00:00Z"), tokyo), (instant("2026-12-04T10:00:00Z"), newYork), (instant("2026-12-07T14:00:00Z"), nil),
        ]
        for leg in legs {
            // The slots until the leg's moment, in the zone of the moment.
            while let slot = daily.nextOccurrence(after: handled, in: zone, passing: skipped), slot.instant <= leg.at {
                announced.append(slot.scheduledDate.description)
                handled = slot.instant
            }
            guard let next = leg.to else { break }
            let plan = ZoneMove.plan(daily, from: zone, to: next, handledThrough: max(handled, leg.at), createdAt: created)
            (handled, zone) = (plan.handledThrough, next)
            skipped.formUnion(plan.alreadyAnnounced.map(\.instant))
        }
        #expect(announced == (1...7).map { "2026-12-0\($0)" }, "each local date once: \(announced)")
    }
}
