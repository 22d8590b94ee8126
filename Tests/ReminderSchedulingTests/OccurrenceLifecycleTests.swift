import ReminderCore
import ReminderScheduling
import Testing

/// The lifecycle of an announced occurrence driven directly: events in, actions out, no store and no clock.
@Suite("OccurrenceLifecycle")
struct OccurrenceLifecycleTests {
    let utc = TimeZoneRules(identifier: "UTC", fixedOffset: 0)

    func at(_ hhmm: String) -> Instant {
        let parsed = ISO8601.parseInstant("2026-11-24T\(hhmm):00Z")!
        return Instant(secondsSinceEpoch: parsed.local.localSeconds)
    }

    /// Daily at 08:00, a one-hour window, repeated every 10 minutes at most `maximum` times; escalated
    /// `escalateAfter` seconds after its time when given.
    func firing(maximum: Int? = nil, escalateAfter: Int64? = nil) throws -> DueFiring {
        var delivery = Delivery(repeating: RepeatSettings(plan: RepeatPlan(intervalSeconds: 600, maximum: maximum)))
        if let escalateAfter { (delivery.escalation.command, delivery.escalation.afterSeconds) = (["/bin/true"], escalateAfter) }
        let reminder = SchedulableReminder(
            id: 1, name: "Pills", rule: try RuleSpec(daily: true, at: "08:00").makeRule(), zone: utc, windowSeconds: 3600, delivery: delivery)
        let occurrence = try #require(reminder.rule.nextOccurrence(after: at("07:59"), in: utc))
        return DueFiring(reminder: reminder, occurrence: occurrence, slotsDue: 1, lateSeconds: 0)
    }

    /// What a start restores of the windows recorded before it: one still open stays; one closed meanwhile stays
    /// only when nothing settled it (it is then decided missed); one taken or decided (missed, skipped) is done.
    @Test func aStartRestoresTheWindowsNothingSettled() throws {
        let firing = try firing()
        let window = OpenOccurrence(firing: firing, windowEnd: at("09:00"), lastAnnounced: at("08:00"))
        let eight = firing.occurrence.instant
        #expect(OpenOccurrence.stillToRestore([window], logs: [:], decided: [:], now: at("08:30")) == [window], "still open")
        #expect(OpenOccurrence.stillToRestore([window], logs: [:], decided: [:], now: at("09:30")) == [window], "closed, nothing settled it")
        #expect(OpenOccurrence.stillToRestore([window], logs: [1: [at("08:20")]], decided: [:], now: at("09:30")).isEmpty, "taken in its window")
        #expect(OpenOccurrence.stillToRestore([window], logs: [:], decided: [1: [eight]], now: at("09:30")).isEmpty, "missed or skipped already")
        #expect(OpenOccurrence.stillToRestore([window], logs: [2: [at("08:20")]], decided: [2: [eight]], now: at("09:30")) == [window], "another reminder's")
        // Still open, but taken or skipped before the restart: restored settled (not shown again, not repeated).
        var settled = window
        settled.settled = true
        #expect(OpenOccurrence.stillToRestore([window], logs: [1: [at("08:20")]], decided: [:], now: at("08:30")) == [settled], "taken, still open")
        #expect(OpenOccurrence.stillToRestore([window], logs: [:], decided: [1: [eight]], now: at("08:30")) == [settled], "skipped, still open")
        #expect(OpenOccurrence.stillToRestore([window], logs: [1: [at("08:20")]], decided: [:], now: at("07:30")) == [settled], "clock set back")
    }

    @Test func repeatsWhileDueThenTheClosedWindowIsDecided() throws {
        let firing = try firing(maximum: 2)
        var lifecycle = OccurrenceLifecycle()
        lifecycle.opened(firing, at: at("08:00"))
        #expect(lifecycle.nextDeadline == at("08:10"))
        let step1 = lifecycle.againDue(at: at("08:09"))
        #expect(step1.isEmpty)
        let step2 = lifecycle.againDue(at: at("08:10"))
        #expect(step2 == [.announceAgain(firing, .repeated(number: 1))])
        let step3 = lifecycle.stateRead(.due, for: firing, again: .repeated(number: 1), now: at("08:10"), retrySeconds: 30)
        #expect(step3)
        let step4 = lifecycle.againDue(at: at("08:20"))
        #expect(step4 == [.announceAgain(firing, .repeated(number: 2))])
        let step5 = lifecycle.stateRead(.due, for: firing, again: .repeated(number: 2), now: at("08:20"), retrySeconds: 30)
        #expect(step5)
        let step6 = lifecycle.againDue(at: at("08:30"))
        #expect(step6.isEmpty, "the maximum of 2 repeats was reached")
        #expect(lifecycle.nextDeadline == at("09:00"))
        let step7 = lifecycle.windowsClosed(at: at("09:00"))
        #expect(step7 == [.decide(firing, windowEnd: at("09:00"), escalated: false)])
        #expect(lifecycle.open.isEmpty && lifecycle.nextDeadline == nil)
    }

    @Test func anOccurrenceStillDueIsEscalatedOnceAtItsDelayAndNotAgainWhenMissed() throws {
        let firing = try firing(escalateAfter: 1800)
        var lifecycle = OccurrenceLifecycle()
        lifecycle.opened(firing, at: at("08:00"))
        #expect(lifecycle.nextDeadline == at("08:10"), "the repeat comes first")
        _ = lifecycle.againDue(at: at("08:10"))
        _ = lifecycle.stateRead(.due, for: firing, again: .repeated(number: 1), now: at("08:10"), retrySeconds: 30)
        _ = lifecycle.againDue(at: at("08:20"))
        _ = lifecycle.stateRead(.due, for: firing, again: .repeated(number: 2), now: at("08:20"), retrySeconds: 30)
        #expect(lifecycle.nextDeadline == at("08:30"), "the escalation and the third repeat")
        let before = lifecycle.escalationsDue(at: at("08:29"))
        #expect(before.isEmpty)
        let due = lifecycle.escalationsDue(at: at("08:30"))
        #expect(due == [.escalate(firing)])
        let again = lifecycle.escalationsDue(at: at("08:45"))
        #expect(again.isEmpty, "once")
        let closed = lifecycle.windowsClosed(at: at("09:00"))
        #expect(closed == [.decide(firing, windowEnd: at("09:00"), escalated: true)], "missed, without escalating again")
    }

    @Test func anEscalationPassedOverOrNeverReachedHappensWhenTheOccurrenceIsMissed() throws {
        // Taken by the delay's end (the service reads that, and passes it over): escalated only if then missed.
        let firing = try firing(escalateAfter: 1800)
        var lifecycle = OccurrenceLifecycle()
        lifecycle.opened(firing, at: at("08:00"))
        let due = lifecycle.escalationsDue(at: at("08:30"))
        #expect(due == [.escalate(firing)])
        lifecycle.escalationPassedOver(OccurrenceKey(firing))
        let closed = lifecycle.windowsClosed(at: at("09:00"))
        #expect(closed == [.decide(firing, windowEnd: at("09:00"), escalated: false)])
        // A delay that reaches the window's end: escalated when missed, never before.
        let late = try self.firing(escalateAfter: 3600)
        lifecycle.opened(late, at: at("08:00"))
        #expect(lifecycle.nextDeadline == at("08:10"))
        let none = lifecycle.escalationsDue(at: at("08:59"))
        #expect(none.isEmpty)
        let missed = lifecycle.windowsClosed(at: at("09:00"))
        #expect(missed == [.decide(late, windowEnd: at("09:00"), escalated: false)])
        // Restored after a restart past the delay: escalated at once (the service marks it late); restored as done: not.
        lifecycle.restore(open: [OpenOccurrence(firing: firing, windowEnd: at("09:00"), lastAnnounced: at("08:00"))])
        let atStart = lifecycle.escalationsDue(at: at("08:40"))
        #expect(atStart == [.escalate(firing)])
        lifecycle.restore(open: [OpenOccurrence(firing: firing, windowEnd: at("09:00"), lastAnnounced: at("08:00"), escalation: .done)])
        let doneBefore = lifecycle.escalationsDue(at: at("08:40"))
        #expect(doneBefore.isEmpty)
        // A decision that failed keeps whether the escalation ran.
        _ = lifecycle.windowsClosed(at: at("09:00"))
        lifecycle.decideFailed(firing, escalated: true, now: at("09:00"), retrySeconds: 30)
        let retried = lifecycle.windowsClosed(at: at("09:00").adding(seconds: 30))
        #expect(retried == [.decide(firing, windowEnd: at("09:00").adding(seconds: 30), escalated: true)])
    }

    @Test func aTakenOccurrenceSettlesAndIsNotRepeatedUntilItsLogIsDeleted() throws {
        let firing = try firing()
        var lifecycle = OccurrenceLifecycle()
        lifecycle.opened(firing, at: at("08:00"))
        let step8 = lifecycle.reconsidered(OccurrenceKey(firing), state: .taken, now: at("08:05"))
        #expect(step8, "settled just now: announced as taken")
        let step9 = lifecycle.reconsidered(OccurrenceKey(firing), state: .taken, now: at("08:06"))
        #expect(!step9, "once")
        let step10 = lifecycle.againDue(at: at("08:30"))
        #expect(step10.isEmpty)
        #expect(lifecycle.nextDeadline == at("09:00"))
        // The log deleted: due again, repeats resume from then.
        let step11 = lifecycle.reconsidered(OccurrenceKey(firing), state: .due, now: at("08:31"))
        #expect(!step11)
        #expect(lifecycle.nextDeadline == at("08:41"))
    }

    @Test func aSnoozeReplacesTheRepeatsAndIsAnnouncedOnceWhenDue() throws {
        let firing = try firing()
        var lifecycle = OccurrenceLifecycle()
        lifecycle.opened(firing, at: at("08:00"))
        let step12 = lifecycle.snoozed(firing, until: at("08:15"))
        #expect(step12 == nil)
        let step13 = lifecycle.snoozed(firing, until: at("08:25"))
        #expect(step13 == at("08:15"), "a second snooze replaces the first")
        let step14 = lifecycle.againDue(at: at("08:20"))
        #expect(step14.isEmpty, "no repeat while snoozed")
        let step15 = lifecycle.againDue(at: at("08:25"))
        #expect(step15 == [.announceAgain(firing, .snoozed)], "the snooze, and no repeat beside it")
        let step16 = lifecycle.stateRead(.due, for: firing, again: .snoozed, now: at("08:25"), retrySeconds: 30)
        #expect(step16)
        #expect(lifecycle.nextDeadline == at("08:35"), "repeats go on from the snooze")
    }

    @Test func nothingIsAnnouncedOnAGuessWhenTheStateCannotBeRead() throws {
        let firing = try firing()
        var lifecycle = OccurrenceLifecycle()
        lifecycle.opened(firing, at: at("08:00"))
        _ = lifecycle.snoozed(firing, until: at("08:05"))
        _ = lifecycle.againDue(at: at("08:05"))
        let step17 = lifecycle.stateRead(nil, for: firing, again: .snoozed, now: at("08:05"), retrySeconds: 30)
        #expect(!step17)
        #expect(lifecycle.snoozes[OccurrenceKey(firing)]?.due == at("08:05").adding(seconds: 30), "the snooze waits and is tried again")
        // A window whose decision could not be read is decided again later, without repeats meanwhile.
        _ = lifecycle.windowsClosed(at: at("09:00"))
        lifecycle.decideFailed(firing, escalated: false, now: at("09:00"), retrySeconds: 30)
        let step18 = lifecycle.againDue(at: at("09:00").adding(seconds: 29))
        #expect(step18.filter { if case .announceAgain = $0 { true } else { false } }.count <= 1)
        let step19 = lifecycle.windowsClosed(at: at("09:00").adding(seconds: 30))
        #expect(step19 == [.decide(firing, windowEnd: at("09:00").adding(seconds: 30), escalated: false)])
    }

    /// A restart rebuilds the lifecycle from what the store keeps (each open window with its last announcement
    /// and repeats, each snooze): stopped after any tick of a morning, the rebuilt one goes on with the same
    /// actions as the one that ran on.
    @Test func rebuiltFromTheStoreAfterAnyTickItGoesOnAlike() throws {
        let firing = try firing(maximum: 3)
        let minutes = (0...70).map { at("08:00").adding(seconds: Int64($0) * 60) }
        /// The ticks of `indices` with every announcement found still due; what they asked for.
        func run(_ lifecycle: inout OccurrenceLifecycle, _ indices: ClosedRange<Int>) -> [OccurrenceLifecycle.Action] {
            var actions: [OccurrenceLifecycle.Action] = []
            for now in minutes[indices] {
                if now == at("08:12") { _ = lifecycle.snoozed(firing, until: at("08:27")) }
                let due = lifecycle.windowsClosed(at: now) + lifecycle.againDue(at: now)
                for case .announceAgain(let again, let kind) in due {
                    _ = lifecycle.stateRead(.due, for: again, again: kind, now: now, retrySeconds: 30)
                }
                actions += due
            }
            return actions
        }
        let last = minutes.count - 1
        var whole = OccurrenceLifecycle()
        whole.opened(firing, at: at("08:00"))
        let expected = run(&whole, 1...last)
        #expect(expected.contains(.announceAgain(firing, .snoozed)) && expected.contains(.decide(firing, windowEnd: at("09:00"), escalated: false)))
        for stop in 1..<last {
            var ran = OccurrenceLifecycle()
            ran.opened(firing, at: at("08:00"))
            let before = run(&ran, 1...stop)
            // What the store holds at the stop, and a lifecycle rebuilt from it.
            var rebuilt = OccurrenceLifecycle()
            rebuilt.restore(open: Array(ran.open.values))
            rebuilt.restore(snoozes: Array(ran.snoozes.values))
            #expect(before + run(&rebuilt, stop + 1...last) == expected, "stopped after \(minutes[stop])")
        }
    }
}
