import ReminderCore
import Testing

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// ``FiringLulls``: when a long write may start, judged at each plan the scheduler reports.
@Suite("Lulls in the firings")
struct FiringLullsTests {
    let start = Instant(secondsSinceEpoch: 1_796_000_000)

    /// A write waiting for a lull of 4 s, in a task; returns once it waits.
    private func waitingWrite(_ lulls: FiringLulls) async throws -> Task<Void, Never> {
        let task = Task { await lulls.lull(lasting: 4) }
        for _ in 0..<5_000 where lulls.waitingCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        try #require(lulls.waitingCount == 1, "the write went at once")
        return task
    }

    @Test func theLullAWriteNeedsGrowsWithItsRows() {
        #expect(FiringLulls.seconds(toWrite: 500) == 0)
        #expect(FiringLulls.seconds(toWrite: 9_999) == 0)
        #expect(FiringLulls.seconds(toWrite: 10_000) == 2)
        #expect(FiringLulls.seconds(toWrite: 40_001) == 3)
        #expect(FiringLulls.seconds(toWrite: 106_504) == 4)
        // A write that needs no lull goes even with a firing due that instant.
        #expect(FiringLulls.mayStart(seconds: 0, since: start, now: start, nextWrite: start))
    }

    /// Nothing planned, or the next firing far enough: at once. A firing within the lull it needs: it waits
    /// through firings every second, and goes once one is far enough, or after ``FiringLulls/longestWait``.
    @Test func aWriteWaitsForALullOrAtMostTheLongestWait() async throws {
        let clock = ManualClock(now: start)
        let lulls = FiringLulls(clock: clock)
        await lulls.lull(lasting: 4)  // nothing planned yet
        lulls.planned(nextWrite: start.adding(seconds: 5), now: start)
        await lulls.lull(lasting: 4)
        lulls.planned(nextWrite: start.adding(seconds: 4), now: start)
        let first = try await waitingWrite(lulls)
        lulls.planned(nextWrite: start.adding(seconds: 5), now: start.adding(seconds: 1))  // a firing at 4 s, the next at 5
        #expect(lulls.waitingCount == 1)
        lulls.planned(nextWrite: start.adding(seconds: 20), now: start.adding(seconds: 5))
        await first.value
        #expect(lulls.waitingCount == 0)

        // A dose every second: it goes ahead after the longest wait, not before.
        let since = clock.now()
        lulls.planned(nextWrite: since.adding(seconds: 1), now: since)
        let busy = try await waitingWrite(lulls)
        for second in 1..<FiringLulls.longestWait {
            lulls.planned(nextWrite: since.adding(seconds: second + 1), now: since.adding(seconds: second))
        }
        #expect(lulls.waitingCount == 1)
        lulls.planned(nextWrite: since.adding(seconds: FiringLulls.longestWait + 1), now: since.adding(seconds: FiringLulls.longestWait))
        await busy.value
        #expect(lulls.waitingCount == 0)
    }

    /// A write whose caller is cancelled (the daemon stops) stops waiting.
    @Test func aCancelledWaitEnds() async throws {
        let lulls = FiringLulls(clock: ManualClock(now: start))
        lulls.planned(nextWrite: start.adding(seconds: 1), now: start)
        let waiting = try await waitingWrite(lulls)
        waiting.cancel()
        await waiting.value
        #expect(lulls.waitingCount == 0)
    }
}
