import Glibc
import Testing

@testable import ReminderDaemon

/// Background work (a publish, a scan's logs, a report's figures, a restore) runs on NIO's thread pool at a lower
/// CPU priority than the event loops and the scheduler, so that with both cores busy a call and a firing still
/// come first.
@Suite("Background priority")
struct BackgroundPriorityTests {
    static func nice() -> Int32 {
        errno = 0
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }

    @Test func workOffTheEventLoopsRunsAtTheBackgroundNiceValueAndTheCallersThreadDoesNot() async {
        let caller = Self.nice()
        let background = await offTheEventLoops { Self.nice() }
        #expect(background == backgroundNice)
        #expect(Self.nice() == caller)
        #expect(caller < backgroundNice)
    }
}
