import HabitCore
import Testing
import Translation

@testable import ReminderDaemon

/// The journal's words for habit notices: "Streak broken after 1 days" was issue 12's example.
@Suite struct JournalWordingTests {
    @Test func aBrokenStreakIsCountedInDayOrDays() {
        #expect(JournalAnnouncer.entry(for: .habit(.streakBroken(firstMissedDay: 20_000, streak: 1)), in: english).message == "Streak broken after 1 day")
        #expect(JournalAnnouncer.entry(for: .habit(.streakBroken(firstMissedDay: 20_000, streak: 5)), in: english).message == "Streak broken after 5 days")
    }
}

/// The messages as the tables write them.
private let english = UntranslatedCatalog()
