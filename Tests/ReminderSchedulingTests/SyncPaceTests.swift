import ReminderCore
import ReminderScheduling
import Testing

/// How soon the sync runs again while an announced dose waits for its tick (#61 item 0): 30 s after the
/// announcement, every 30 s in its first five minutes, then a tenth of the wait, never beyond `sync-interval`.
@Suite("Sync pace")
struct SyncPaceTests {
    let announced = Instant(secondsSinceEpoch: 1_800_000_000)

    func next(waited: Int64, lastStartedAgo: Int64?, interval: Int64? = 300) -> Int64? {
        let now = announced.adding(seconds: waited)
        let last = lastStartedAgo.map { now.adding(seconds: -$0) }
        return SyncPace.nextRun(waitingSince: announced, lastStarted: last, intervalSeconds: interval, now: now)
            .map { $0.secondsSinceEpoch - announced.secondsSinceEpoch }
    }

    @Test func nothingWaitingOrTheIntervalOffAddsNoRun() {
        #expect(SyncPace.nextRun(waitingSince: nil, lastStarted: nil, intervalSeconds: 300, now: announced) == nil)
        #expect(next(waited: 10, lastStartedAgo: nil, interval: nil) == nil)
    }

    @Test func theFirstRunIs30SecondsAfterTheAnnouncementEvenRightAfterAnother() {
        #expect(next(waited: 0, lastStartedAgo: nil) == 30)
        #expect(next(waited: 0, lastStartedAgo: 3_600) == 30)
        #expect(next(waited: 5, lastStartedAgo: 1) == 34)  // a run began at 4 s: the next 30 s after it
    }

    @Test func theSpacingIsATenthOfTheWaitFrom30SecondsToTheInterval() {
        #expect(next(waited: 120, lastStartedAgo: 0) == 150)      // 30 s
        #expect(next(waited: 1_200, lastStartedAgo: 0) == 1_320)  // 20 minutes waited: 2 minutes
        #expect(next(waited: 7_200, lastStartedAgo: 0) == 7_500)  // 2 hours: the interval, 5 minutes
        #expect(next(waited: 7_200, lastStartedAgo: 0, interval: 60) == 7_260)
        #expect(next(waited: 1_200, lastStartedAgo: 500) == 1_200)  // overdue: now
    }
}
