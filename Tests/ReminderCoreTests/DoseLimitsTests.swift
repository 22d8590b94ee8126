import ReminderCore
import SeededRandom
import Testing

/// The limits of a medication taken as needed, at their boundary seconds, and against a count done another way.
@Suite("Medication: dose limits")
struct DoseLimitsTests {
    let ibuprofen = DoseLimits(minIntervalSeconds: 6 * 3600, maxPerDay: 3)

    @Test func aDoseSoonerThanTheIntervalIsRefusedUntilItsLastSecond() {
        let doses = [instant("2026-11-24T09:10:00Z")]
        #expect(ibuprofen.breach(at: instant("2026-11-24T12:00:00Z"), doses: doses) == .tooSoon(other: doses[0]))
        #expect(ibuprofen.breach(at: instant("2026-11-24T15:09:59Z"), doses: doses) == .tooSoon(other: doses[0]))
        #expect(ibuprofen.breach(at: instant("2026-11-24T15:10:00Z"), doses: doses) == nil)
        #expect(ibuprofen.nextAllowed(now: instant("2026-11-24T12:00:00Z"), doses: doses) == instant("2026-11-24T15:10:00Z"))
        #expect(ibuprofen.nextAllowed(now: instant("2026-11-24T16:00:00Z"), doses: doses) == instant("2026-11-24T16:00:00Z"))
        // Logged afterwards for an earlier time: the dose after it counts too, and the nearer one is named.
        let two = [instant("2026-11-24T09:00:00Z"), instant("2026-11-24T16:00:00Z")]
        #expect(ibuprofen.breach(at: instant("2026-11-24T12:00:00Z"), doses: two) == .tooSoon(other: two[0]))
        #expect(ibuprofen.breach(at: instant("2026-11-24T13:00:00Z"), doses: two) == .tooSoon(other: two[1]))
        #expect(ibuprofen.breach(at: instant("2026-11-24T03:00:00Z"), doses: two) == nil, "exactly 6 h before the first")
    }

    @Test func theFourthDoseInA24HourSpanIsRefusedUntilTheFirstIsADayOld() {
        let limits = DoseLimits(maxPerDay: 3)
        let doses = ["2026-11-24T08:00:00Z", "2026-11-24T14:00:00Z", "2026-11-24T20:00:00Z"].map(instant)
        #expect(limits.leftInADay(now: instant("2026-11-24T21:00:00Z"), doses: doses) == 0)
        #expect(limits.breach(at: instant("2026-11-24T23:30:00Z"), doses: doses) == .tooMany(count: 4, first: doses[0]))
        // Past midnight: still the same 24 hours (a rolling day, not the calendar day).
        #expect(limits.breach(at: instant("2026-11-25T07:59:59Z"), doses: doses) == .tooMany(count: 4, first: doses[0]))
        #expect(limits.breach(at: instant("2026-11-25T08:00:00Z"), doses: doses) == nil)
        #expect(limits.nextAllowed(now: instant("2026-11-24T21:00:00Z"), doses: doses) == instant("2026-11-25T08:00:00Z"))
        #expect(limits.leftInADay(now: instant("2026-11-25T08:00:00Z"), doses: doses) == 1)
        #expect(DoseLimits().breach(at: instant("2026-11-24T08:00:01Z"), doses: doses) == nil, "no limits: anything goes")
    }

    /// Three doses forced an hour apart: the next breaks both limits, and the refusal names the 24-hour maximum,
    /// which holds it back until tomorrow, not the interval, which would allow it at 16:00.
    @Test func theLimitThatBlocksLongerIsNamed() {
        let doses = ["2026-11-24T08:00:00Z", "2026-11-24T09:00:00Z", "2026-11-24T10:00:00Z"].map(instant)
        #expect(ibuprofen.breach(at: instant("2026-11-24T15:00:00Z"), doses: doses) == .tooMany(count: 4, first: doses[0]))
        // One dose an hour ago: the interval blocks longer than the (unbroken) maximum.
        #expect(ibuprofen.breach(at: instant("2026-11-24T11:00:00Z"), doses: [doses[2]]) == .tooSoon(other: doses[2]))
    }

    /// Random doses over three days against a brute-force reading of the rules: the interval between every
    /// pair, and every 24 hours starting at any second that holds a dose.
    @Test func aDoseIsAllowedExactlyWhenNoPairIsTooCloseAndNoDayHoldsTooMany() {
        var random = SeededGenerator(seed: 7)
        let start = instant("2026-11-24T00:00:00Z").secondsSinceEpoch
        for _ in 0..<400 {
            let limits = DoseLimits(
                minIntervalSeconds: Bool.random(using: &random) ? Int64.random(in: 1...8, using: &random) * 3600 : nil,
                maxPerDay: Bool.random(using: &random) ? Int.random(in: 1...5, using: &random) : nil)
            let doses = (0..<Int.random(in: 0...6, using: &random)).map { _ in Instant(secondsSinceEpoch: start + Int64.random(in: 0...(3 * 86400), using: &random) / 600 * 600) }
            let at = Instant(secondsSinceEpoch: start + Int64.random(in: 0...(3 * 86400), using: &random) / 600 * 600)
            let all = doses + [at]
            let tooClose = limits.minIntervalSeconds.map { interval in doses.contains { abs($0.secondsSinceEpoch - at.secondsSinceEpoch) < interval } } ?? false
            let tooMany = limits.maxPerDay.map { maximum in
                // Every span [t, t + 24 h) with t any 10-minute step of the days around: one holding the new dose and too many.
                stride(from: start - 86400, through: start + 4 * 86400, by: 600).contains { t in
                    let inSpan = all.filter { $0.secondsSinceEpoch >= t && $0.secondsSinceEpoch < t + 86400 }
                    return inSpan.count > maximum && inSpan.contains(at)
                }
            } ?? false
            #expect((limits.breach(at: at, doses: doses) != nil) == (tooClose || tooMany), "\(limits) \(doses) \(at)")
            // The next allowed instant is allowed, and the second before it is not (unless it is now).
            let now = at
            let past = doses.filter { $0 <= now }
            let next = limits.nextAllowed(now: now, doses: past)
            #expect(limits.breach(at: next, doses: past) == nil)
            if next > now { #expect(limits.breach(at: next.adding(seconds: -1), doses: past) != nil) }
        }
    }
}
