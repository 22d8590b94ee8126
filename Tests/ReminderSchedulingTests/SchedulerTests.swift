import ReminderCore
@testable import ReminderScheduling
import TimeZoneDatabase
import Testing

/// The scheduler with an injected clock: "now" is a parameter, moved by the test.
@Suite("Scheduler")
struct SchedulerTests {
    let utc = TimeZoneRules(identifier: "UTC", fixedOffset: 0)

    func reminder(_ id: Int64, _ spec: RuleSpec, zone: TimeZoneRules? = nil) throws -> SchedulableReminder {
        SchedulableReminder(id: id, name: "r\(id)", rule: try spec.makeRule(), zone: zone ?? utc)
    }

    func at(_ text: String) -> Instant {
        let parsed = ISO8601.parseInstant(text)!
        return Instant(secondsSinceEpoch: parsed.local.localSeconds - Int64(parsed.offsetSeconds ?? 0))
    }

    @Test func sleepsUntilTheEarliestFiringAndFiresItOnTime() throws {
        var scheduler = Scheduler()
        scheduler.schedule(try reminder(1, RuleSpec(daily: true, at: "09:00")), handledThrough: at("2026-11-21T10:00:00Z"))
        scheduler.schedule(try reminder(2, RuleSpec(daily: true, at: "08:00")), handledThrough: at("2026-11-21T10:00:00Z"))
        #expect(scheduler.nextDeadline() == at("2026-11-22T08:00:00Z"))
        #expect(scheduler.takeDue(now: at("2026-11-22T07:59:59Z")).isEmpty)
        let due = scheduler.takeDue(now: at("2026-11-22T08:00:00Z"))
        #expect(due.map(\.reminder.id) == [2])
        #expect(due.first?.lateSeconds == 0 && due.first?.slotsDue == 1)
        #expect(scheduler.action(for: due[0], logs: [], catchUpEnabled: true) == .fire(due[0]))
        #expect(scheduler.nextDeadline() == at("2026-11-22T09:00:00Z"))
    }

    @Test func missedSlotsCollapseIntoOneLateFiring() throws {
        var scheduler = Scheduler()
        scheduler.schedule(try reminder(1, RuleSpec(daily: true, at: "08:00,12:00,18:00")), handledThrough: at("2026-11-20T00:00:00Z"))
        // Down for two days: six slots missed.
        let due = scheduler.takeDue(now: at("2026-11-21T20:00:00Z"))
        #expect(due.count == 1)
        #expect(due[0].slotsDue == 6)
        #expect(due[0].occurrence.instant == at("2026-11-21T18:00:00Z"))
        #expect(due[0].lateSeconds == 2 * 3600)
        #expect(scheduler.action(for: due[0], logs: [], catchUpEnabled: true) == .catchUp(due[0]))
        #expect(scheduler.action(for: due[0], logs: [], catchUpEnabled: false) == .skipMissed(due[0]))
        #expect(scheduler.nextDeadline() == at("2026-11-22T08:00:00Z"))
    }

    @Test func handledSlotsNeverComeBack() throws {
        var scheduler = Scheduler()
        let r = try reminder(1, RuleSpec(daily: true, at: "08:00"))
        scheduler.schedule(r, handledThrough: at("2026-11-22T08:00:00Z"))  // as after a restart that recorded 08:00
        #expect(scheduler.takeDue(now: at("2026-11-22T08:00:05Z")).isEmpty)
        #expect(scheduler.nextDeadline() == at("2026-11-23T08:00:00Z"))
    }

    @Test func suppressionComesFromLoggedIntake() throws {
        var scheduler = Scheduler()
        scheduler.schedule(try reminder(1, RuleSpec(daily: true, at: "08:00")), handledThrough: at("2026-11-21T10:00:00Z"))
        let due = scheduler.takeDue(now: at("2026-11-22T08:00:00Z"))
        let action = scheduler.action(for: due[0], logs: [at("2026-11-22T07:45:00Z")], catchUpEnabled: true)
        guard case .suppress(_, let reason) = action else {
            Issue.record("expected suppression, got \(action)")
            return
        }
        #expect(reason.contains("already logged 1 time"))
    }

    @Test func removingAndReplacingTouchesOnlyThatReminder() throws {
        var scheduler = Scheduler()
        let start = at("2026-11-21T00:00:00Z")
        for id in 1...1000 {
            scheduler.schedule(try reminder(Int64(id), RuleSpec(daily: true, at: TimeOfDay(hour: id % 24, minute: id % 60)!.description)), handledThrough: start)
        }
        let earliest = scheduler.nextFiring()!
        scheduler.remove(id: earliest.0.id)
        #expect(scheduler.count == 999)
        #expect(scheduler.nextFiring()!.0.id != earliest.0.id)
        scheduler.schedule(try reminder(earliest.0.id, RuleSpec(daily: true, at: "00:00:30")), handledThrough: start)
        #expect(scheduler.nextFiring()!.0.id == earliest.0.id)
        #expect(scheduler.nextDeadline() == at("2026-11-21T00:00:30Z"))
    }

    @Test func reschedulingToTheSameInstantFiresOnce() throws {
        var scheduler = Scheduler()
        let r = try reminder(1, RuleSpec(daily: true, at: "08:00"))
        scheduler.schedule(r, handledThrough: at("2026-11-21T00:00:00Z"))
        scheduler.schedule(r, handledThrough: at("2026-11-21T00:00:00Z"))  // e.g. renamed: same next instant
        #expect(scheduler.upcoming(count: 2).map(\.1.instant) == [at("2026-11-21T08:00:00Z"), at("2026-11-22T08:00:00Z")])
        #expect(scheduler.takeDue(now: at("2026-11-21T08:00:00Z")).count == 1)
        #expect(scheduler.takeDue(now: at("2026-11-21T08:00:01Z")).isEmpty)
    }

    @Test func upcomingMergesAllRemindersInTimeOrder() throws {
        var scheduler = Scheduler()
        let start = at("2026-11-21T00:00:00Z")
        scheduler.schedule(try reminder(1, RuleSpec(daily: true, at: "08:00")), handledThrough: start)
        scheduler.schedule(try reminder(2, RuleSpec(daily: true, at: "12:00")), handledThrough: start)
        scheduler.schedule(try reminder(3, RuleSpec(once: "2030-01-01T00:00")), handledThrough: start)
        let upcoming = scheduler.upcoming(count: 4)
        #expect(upcoming.map(\.0.id) == [1, 2, 1, 2])
        #expect(upcoming.map(\.1.instant) == [at("2026-11-21T08:00:00Z"), at("2026-11-21T12:00:00Z"), at("2026-11-22T08:00:00Z"), at("2026-11-22T12:00:00Z")])
        // Asking does not consume anything.
        #expect(scheduler.nextDeadline() == at("2026-11-21T08:00:00Z"))
    }

    @Test func clockJumpBackwardDoesNotRefire() throws {
        var scheduler = Scheduler()
        scheduler.schedule(try reminder(1, RuleSpec(daily: true, at: "08:00")), handledThrough: at("2026-11-21T00:00:00Z"))
        #expect(scheduler.takeDue(now: at("2026-11-21T08:00:00Z")).count == 1)
        // The wall clock is set back an hour: 08:00 today is handled and must not fire again.
        #expect(scheduler.takeDue(now: at("2026-11-21T07:30:00Z")).isEmpty)
        #expect(scheduler.takeDue(now: at("2026-11-21T08:00:00Z")).isEmpty)
        #expect(scheduler.nextDeadline() == at("2026-11-22T08:00:00Z"))
    }

    /// Random schedules, replacements and removals (one, or many at once) in any id order (the states are found through an index
    /// sorted by id, and a removal moves the last state into the hole) against a dictionary of what was
    /// scheduled: every reminder comes back with its own name, window, delivery and next firing.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func everyReminderComesBackAsScheduledAfterRandomChanges(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let start = at("2026-11-21T00:00:00Z")
        var scheduler = Scheduler()
        var expected: [Int64: SchedulableReminder] = [:]
        for step in 0..<600 {
            let id = Int64(random.next() % 200) + 1
            if random.next() % 4 == 0 {
                scheduler.remove(id: id)
                expected[id] = nil
            } else if random.next() % 20 == 0 {
                // Many at once (an emptied folder's), some of them not scheduled.
                let ids = Set((0..<Int(random.next() % 80)).map { _ in Int64(random.next() % 220) + 1 })
                scheduler.remove(ids: ids)
                for removed in ids { expected[removed] = nil }
            } else {
                let time = TimeOfDay(hour: Int(random.next() % 24), minute: Int(random.next() % 60))!
                let delivery = random.next() % 3 == 0 ? Delivery(hook: HookSettings(command: ["/bin/echo", "\(step)"]), notification: NotificationSettings(urgency: .critical)) : Delivery()
                let window = random.next() % 3 == 0 ? Int64(random.next() % 7200 + 60) : nil
                let reminder = SchedulableReminder(
                    id: id, name: "r\(id) step \(step)", rule: try RuleSpec(daily: true, at: time.description).makeRule(), zone: utc,
                    windowSeconds: window, delivery: delivery)
                scheduler.schedule(reminder, handledThrough: start)
                expected[id] = reminder
            }
            #expect(scheduler.count == expected.count)
        }
        // Each reminder's first firing comes before any second one (all are daily, handled through the same instant).
        let upcoming = scheduler.upcoming(count: expected.count)
        #expect(upcoming.map(\.0) == expected.values.sorted { a, b in
            let (x, y) = (a.rule.nextOccurrence(after: start, in: utc)!.instant, b.rule.nextOccurrence(after: start, in: utc)!.instant)
            return (x, a.id) < (y, b.id)
        })
        #expect(upcoming.allSatisfy { $0.0.delivery == expected[$0.0.id]?.delivery && $0.0.windowSeconds == expected[$0.0.id]?.windowSeconds })
    }

    @Test func aRuleWhoseBoundsWereClearedEqualsOneThatNeverHadThem() throws {
        let plain = try RuleSpec(daily: true, at: "08:00").makeRule()
        var bounded = plain
        bounded.start = LocalDateTime(date: LocalDate(year: 2026, month: 12, day: 1)!, time: TimeOfDay(hour: 0, minute: 0)!)
        bounded.preset = .twiceADay
        #expect(bounded != plain)
        #expect(bounded.start?.date == LocalDate(year: 2026, month: 12, day: 1))
        #expect(plain.start == nil)  // the copy kept its own bounds
        bounded.start = nil
        bounded.preset = nil
        #expect(bounded == plain)
        #expect(Set([bounded, plain]).count == 1)
    }
}

/// A small seeded generator (SplitMix64), so that a failing case can be run again.
private struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Reminders made together keep one copy of equal deliveries (a calendar's alarms: a handful between thousands);
/// each still reads as its own.
@Suite("Shared deliveries")
struct SharedDeliveriesTests {
    @Test func equalDeliveriesMadeTogetherAreOneCopyAndReadAsTheirOwn() throws {
        let rule = try RuleSpec(daily: true, at: "09:00").makeRule()
        let utc = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        let work = Delivery(calendar: "Work"), home = Delivery(calendar: "Home")
        var deliveries = SharedDeliveries()
        let made = [work, home, work, Delivery()].enumerated().map { index, delivery in
            SchedulableReminder(id: Int64(index), name: "r\(index)", rule: rule, zone: utc, windowSeconds: nil, delivery: delivery, sharing: &deliveries)
        }
        #expect(made.map(\.delivery) == [work, home, work, Delivery()])
        #expect(made[0].storedDelivery === made[2].storedDelivery)
        #expect(made[0].storedDelivery !== made[1].storedDelivery)
        #expect(made[3].storedDelivery == nil)
        // Made alone, each has its own.
        let alone = SchedulableReminder(id: 9, name: "r9", rule: rule, zone: utc, delivery: work)
        #expect(alone.delivery == work && alone.storedDelivery !== made[0].storedDelivery)
    }
}
