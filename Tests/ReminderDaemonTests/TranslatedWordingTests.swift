import ReminderCore
import Testing
import Translation

@testable import ReminderDaemon

/// Every word the notification shows and the speaker says comes through the message catalog: with a catalog
/// that marks what it translated, nothing English is left unmarked (what a German user would see as English).
/// The real catalogs (po/*.po through gettext) are `Tests/e2e/test_languages.py`'s.
@Suite("Words in the user's language")
struct TranslatedWordingTests {
    /// A language that writes each message as «its English text», and weekdays as `D1`...`D7`.
    struct MarkingCatalog: MessageCatalog {
        var language: String { "xx" }
        func template(_ message: Message, count: Int) -> String {
            "«" + (count == 1 ? message.text : message.plural ?? message.text) + "»"
        }
        func name(of weekday: Weekday, abbreviated: Bool) -> String { "D\(weekday.rawValue)" }
        func name(ofMonth month: Int, abbreviated: Bool) -> String { "M\(month)" }
    }

    func due(_ id: Int64, _ name: String, event: Bool = false) -> NotificationBoard.Due {
        NotificationBoard.Due(
            reminderID: id, name: name, detail: "d", brief: "b", event: event, critical: true, quiet: false, givesDose: !event, repeated: true,
            shownAgain: false, snoozeMinutes: 10)
    }

    @Test func everyButtonAndSummaryOfTheNotificationIsTheCatalogs() throws {
        var board = NotificationBoard()
        board.announce(due(1, "Metformin"))
        let one = try #require(board.content(in: MarkingCatalog()))
        #expect(one.actions.map(\.label) == ["«Taken»", "«Snooze 10 min»", "«Skip»"])
        #expect(one.summary == "«Metformin (still not taken)»")
        board.announce(due(2, "Dentist", event: true))
        board.missed(reminderID: 3, name: "Ramipril", text: "t")
        let group = try #require(board.content(in: MarkingCatalog()))
        #expect(group.actions.allSatisfy { $0.label.hasPrefix("«") && $0.label.hasSuffix("»") }, "\(group.actions)")
        #expect(group.summary.hasPrefix("«") && group.body.hasSuffix("»"), "\(group.summary) / \(group.body)")
        board.settle(reminderID: 1)
        board.settle(reminderID: 2)
        let notes = try #require(board.content(in: MarkingCatalog()))
        #expect(notes.summary == "«Missed: Ramipril»" && notes.actions.map(\.label) == ["«Taken late»"])
    }

    @Test func whatIsSaidAloudIsTheCatalogs() {
        #expect(Speaker.spoken(Dose(thousandths: 500_000, unit: "mg"), in: MarkingCatalog()) == "«500 milligrams»")
        #expect(Speaker.spoken(Dose(thousandths: 1000, unit: "IU"), in: MarkingCatalog()) == "«1 international unit»")
        // A counted unit is the catalog's too (`2 Tabletten`).
        #expect(Speaker.spoken(Dose(thousandths: 2000, unit: "tablet"), in: MarkingCatalog()) == "«2 tablets»")
    }

    /// #59 item 6: the daemon's own entries a person reads (an expired pack, a dose kept apart) were English
    /// in a German journal; one of a table is the catalog's there, and stays English for the hooks and tests.
    @Test func aDaemonMessageOfATableIsSaidInTheJournalsLanguage() {
        let message = DaemonMessage(.warning, DaemonMessages.waitsApart, ["Levothyroxine", "kept 4h apart"])
        #expect(message.text == "Levothyroxine waits: kept 4h apart")
        #expect(JournalAnnouncer.entry(for: .daemon(message), in: MarkingCatalog()).message == "«Levothyroxine waits: kept 4h apart»")
        #expect(JournalAnnouncer.entry(for: .daemon(DaemonMessage(.error, "plain")), in: MarkingCatalog()).message == "plain")
    }

    @Test func aLowStockNoteNamesTheDayInTheLanguagesWords() {
        let notice = LowStockNotice(
            reminderID: 1, name: "Metformin", left: Dose(thousandths: 12_000, unit: "tablet"), through: LocalDate(year: 2026, month: 12, day: 18),
            days: 6, refillDays: 7, command: nil)
        #expect(FiringWording(words: MarkingCatalog()).stock(notice) == "««12 tablets» left: enough through D6 2026-12-18 (6 days)»")
        #expect(FiringWording.english.stock(notice) == "12 tablets left: enough through Fri 2026-12-18 (6 days)")
    }
}
