import ReminderCore
import ReminderScheduling
import Testing

/// What becomes of a due firing, decided as a value: the scheduler's action first, then a skip ahead, a snooze,
/// and a calendar's flood gate, in that order; the gate is asked only for an alarm that would be announced.
@Suite("Firing decisions")
struct FiringDecisionTests {
    let utc = TimeZoneRules(identifier: "UTC", fixedOffset: 0)

    func firing(calendar: String? = nil, minute: Int = 0) throws -> DueFiring {
        var delivery = Delivery()
        delivery.calendar = calendar
        let reminder = SchedulableReminder(id: 1, name: "Pills", rule: try RuleSpec(daily: true, at: "08:0\(minute)").makeRule(), zone: utc, delivery: delivery)
        let occurrence = try #require(reminder.rule.nextOccurrence(after: Instant(secondsSinceEpoch: 1_795_000_000), in: utc))
        return DueFiring(reminder: reminder, occurrence: occurrence, slotsDue: 1, lateSeconds: 0)
    }

    func decide(_ action: FiringAction, skipped: Bool = false, reason: String? = nil, snoozedUntil: Instant? = nil, gate: inout CalendarFloodGate) -> FiringDecision {
        FiringDecision.decide(action, skipped: skipped, skipReason: { reason }, snoozedUntil: snoozedUntil, floodGate: &gate)
    }

    @Test func theSchedulersActionComesFirst() throws {
        var gate = CalendarFloodGate()
        let firing = try firing()
        #expect(decide(.fire(firing), gate: &gate) == .announce(late: false))
        #expect(decide(.catchUp(firing), gate: &gate) == .announce(late: true))
        // A log took it: suppressed, even when it was also skipped or snoozed.
        #expect(decide(.suppress(firing, reason: "logged at 07:55"), skipped: true, snoozedUntil: firing.occurrence.instant, gate: &gate)
            == .suppressed(reason: "logged at 07:55"))
        #expect(decide(.skipMissed(firing), skipped: true, gate: &gate) == .skippedMissed)
    }

    @Test func aSkipAheadComesBeforeASnoozeAndTheReasonIsReadOnlyThen() throws {
        var gate = CalendarFloodGate()
        let firing = try firing()
        let later = firing.occurrence.instant.adding(seconds: 600)
        #expect(decide(.fire(firing), skipped: true, reason: "fasting", snoozedUntil: later, gate: &gate) == .skippedByUser(reason: "fasting"))
        #expect(decide(.catchUp(firing), snoozedUntil: later, gate: &gate) == .postponed(until: later))
        var read = 0
        _ = FiringDecision.decide(.fire(firing), skipped: false, skipReason: { read += 1; return nil }, snoozedUntil: nil, floodGate: &gate)
        #expect(read == 0)
    }

    @Test func aCalendarsAlarmsBeyondItsBoundAreHeldBackAndOnlyAnnouncedOnesCount() throws {
        var gate = CalendarFloodGate()
        let alarm = try firing(calendar: "work")
        // Skipped or snoozed alarms do not pass the gate: they take none of its places.
        for _ in 0..<20 { _ = decide(.fire(alarm), skipped: true, gate: &gate) }
        let decisions = (0..<(CalendarFloodGate.perMinute + 2)).map { _ in decide(.fire(alarm), gate: &gate) }
        #expect(decisions.prefix(CalendarFloodGate.perMinute).allSatisfy { $0 == .announce(late: false) })
        #expect(decisions.suffix(2) == [.heldBack(calendar: "work", firstOfFlood: true), .heldBack(calendar: "work", firstOfFlood: false)])
        // remindd's own reminders are never held back.
        #expect(decide(.fire(try firing()), gate: &gate) == .announce(late: false))
    }
}
