import ReminderCore
import ReminderScheduling
import Testing

/// What waits while the store does not answer, driven directly: failures in, what to try out, no store and no
/// clock. (`StoreFailureTests` runs the same through the daemon with a store that refuses.)
@Suite("StoreRetryQueue")
struct StoreRetryQueueTests {
    let utc = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
    let start = Instant(secondsSinceEpoch: 1_795_000_000)

    /// Reminder `id`'s daily 08:00 occurrence after `start`.
    func firing(_ id: Int64) throws -> DueFiring {
        let reminder = SchedulableReminder(id: id, name: "R\(id)", rule: try RuleSpec(daily: true, at: "08:00").makeRule(), zone: utc, windowSeconds: nil)
        return DueFiring(reminder: reminder, occurrence: try #require(reminder.rule.nextOccurrence(after: start, in: utc)), slotsDue: 1, lateSeconds: 0)
    }

    @Test func laterFiringsWaitBehindUnreadOnesAndComeBackInOrderInRunsOfTheirKind() throws {
        var queue = StoreRetryQueue<String>()
        let first = queue.admit([try firing(1)], afterDowntime: true)
        #expect(first, "nothing waits: decided now")
        queue.readFailed([try firing(1), try firing(2)], afterDowntime: true, now: start, reason: "disk I/O error")
        let (third, fourth) = (queue.admit([try firing(3)], afterDowntime: false), queue.admit([try firing(4)], afterDowntime: true))
        #expect(!third && !fourth, "behind those waiting")
        #expect(queue.waiting == 4 && queue.statusLine == "Cannot record firings (4 waiting, retrying): disk I/O error")
        #expect(!queue.isDue(now: start.adding(seconds: 29)) && queue.isDue(now: start.adding(seconds: 30)))
        let runs = queue.takeUndecided()
        #expect(runs.map { $0.firings.map(\.reminder.id) } == [[1, 2], [3], [4]])
        #expect(runs.map(\.afterDowntime) == [true, false, true])
        #expect(queue.waiting == 0 && queue.retry == nil && queue.statusLine == nil)
    }

    @Test func refusedRecordsAreTriedOneAtATimeInOrderAndAFailedRetryWaitsAgain() {
        var queue = StoreRetryQueue<String>()
        let first = queue.admit(["a"])
        #expect(first)
        queue.recordFailed(["a", "b"], at: start, reason: "database is locked")
        let third = queue.admit(["c"])
        #expect(!third, "queued behind a and b")
        #expect(queue.retry?.at == start.adding(seconds: 30))
        #expect(queue.nextUnrecorded == "a")
        queue.recordedNext()
        #expect(queue.nextUnrecorded == "b")
        queue.retryFailed(now: start.adding(seconds: 30), reason: "still locked")
        #expect(queue.retry?.at == start.adding(seconds: 60) && queue.retry?.reason == "still locked")
        queue.recordedNext()
        #expect(queue.nextUnrecorded == "c", "c was queued behind them")
        queue.recordedNext()
        #expect(queue.takeUndecided().isEmpty && queue.retry == nil && queue.waiting == 0)
    }
}
