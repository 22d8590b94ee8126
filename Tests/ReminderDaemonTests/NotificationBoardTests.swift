import Testing
import Translation

@testable import ReminderDaemon

/// What remindd's one notification says as doses come due, are taken and missed (``NotificationBoard``): the
/// decisions as values; the notification server's side is `Tests/e2e/test_desktop_notifications.py` and, on a
/// real screen, `test_notification_screenshot.py`.
@Suite("The one notification")
struct NotificationBoardTests {
    func dose(_ id: Int64, _ name: String, _ amount: String, snooze: Int = 10, event: Bool = false, quiet: Bool = false) -> NotificationBoard.Due {
        NotificationBoard.Due(
            reminderID: id, name: name, detail: "Take \(amount). Daily, Sun 08:00", brief: "\(name) \(amount) (Sun 08:00)", event: event,
            critical: !event && !quiet, quiet: quiet, givesDose: !event, repeated: false, shownAgain: false, snoozeMinutes: snooze)
    }

    @Test func oneDueIsItsOwnNotificationWithTakenSnoozeAndSkip() throws {
        var board = NotificationBoard()
        board.announce(dose(7, "Metformin", "500 mg"))
        let content = try #require(board.content(in: english))
        #expect(content.summary == "Metformin" && content.body == "Take 500 mg. Daily, Sun 08:00")
        #expect(content.actions.map(\.label) == ["Taken", "Snooze 10 min", "Skip"])
        #expect(content.actions.map(\.key) == ["taken:7", "snooze:7/10", "skip:7"])
        #expect(content.critical && content.category == "x-remindd.dose" && content.staying)
    }

    @Test func dosesDueTogetherAreOneNotificationWhoseButtonsNameWhatItLists() throws {
        var board = NotificationBoard()
        board.announce(dose(1, "Metformin", "500 mg"))
        board.announce(dose(2, "Ramipril", "5 mg"))
        board.announce(dose(3, "Vitamin D", "1 tablet"))
        let content = try #require(board.content(in: english))
        #expect(content.summary == "3 due: Metformin, Ramipril, Vitamin D")
        #expect(content.body == "Metformin 500 mg (Sun 08:00)\nRamipril 5 mg (Sun 08:00)\nVitamin D 1 tablet (Sun 08:00)")
        #expect(content.actions.map(\.label) == ["Take all", "Snooze all", "Skip all"])
        let takeAll = try #require(content.actions.first)
        #expect(DesktopAnnouncer.Action.parse(takeAll.key) == [.taken(reminderID: 1), .taken(reminderID: 2), .taken(reminderID: 3)])
        // One taken from the CLI: the group updates, then the last one left is its own notification again.
        board.settle(reminderID: 2)
        #expect(board.content(in: english)?.summary == "2 due: Metformin, Vitamin D")
        board.settle(reminderID: 1)
        #expect(board.content(in: english)?.summary == "Vitamin D" && board.content(in: english)?.actions.first?.key == "taken:3")
        board.settle(reminderID: 3)
        #expect(board.content(in: english) == nil, "nothing left: the notification closes")
    }

    @Test func aRepeatReplacesItsLineAndSaysItIsStillNotTaken() throws {
        var board = NotificationBoard()
        board.announce(dose(1, "Metformin", "500 mg"))
        var again = dose(1, "Metformin", "500 mg")
        again.repeated = true
        board.announce(again)
        #expect(board.due.count == 1 && board.content(in: english)?.summary == "Metformin (still not taken)")
    }

    @Test func anEventsAlarmInAGroupIsDismissedNeverTaken() throws {
        var board = NotificationBoard()
        board.announce(dose(1, "Metformin", "500 mg"))
        board.announce(dose(2, "Dentist", "", snooze: 5, event: true))
        let content = try #require(board.content(in: english))
        let keys = content.actions.map { DesktopAnnouncer.Action.parse($0.key) }
        #expect(keys == [
            [.taken(reminderID: 1)], [.snooze(reminderID: 1, minutes: 10), .snooze(reminderID: 2, minutes: 5)],
            [.skip(reminderID: 1), .dismiss(reminderID: 2)],
        ])
        #expect(content.actions[1].label == "Snooze all", "lengths differ: none is named")
    }

    @Test func notesJoinWhatIsDueAndAloneOfferTheirAction() throws {
        var board = NotificationBoard()
        board.note(.lowStock(reminderID: 4, name: "Prednisone", text: "3 tablets left"))
        #expect(board.content(in: english)?.summary == "Running low: Prednisone" && board.content(in: english)?.actions == [])
        board.announce(dose(1, "Insulin", "8 units"))
        let withDose = try #require(board.content(in: english))
        #expect(withDose.summary == "Insulin" && withDose.critical)
        #expect(withDose.body == "Take 8 units. Daily, Sun 08:00\nRunning low: Prednisone: 3 tablets left")
        #expect(withDose.actions.map(\.key) == ["taken:1", "snooze:1/10", "skip:1"])
        board.missed(reminderID: 1, name: "Insulin", text: "Sun 08:00: nothing logged by Sun 09:00")
        let notes = try #require(board.content(in: english))
        #expect(notes.summary == "Running low: Prednisone; Missed: Insulin" && !notes.critical)
        #expect(notes.actions.map(\.label) == ["Taken late"] && notes.actions.map(\.key) == ["late:1"])
        // The dose taken late: its note goes; the user closes the notification: the stock note goes too.
        board.settle(reminderID: 1)
        #expect(board.content(in: english)?.summary == "Running low: Prednisone")
        board.closed()
        #expect(board.content(in: english) == nil)
    }

    /// A travel notice is a note of its own: titled with the zone followed now, the text what moved and stayed;
    /// a second one replaces the first.
    @Test func aTravelNoticeIsANoteTheNextOneReplaces() throws {
        var board = NotificationBoard()
        board.note(.travelled(zone: "Asia/Tokyo", text: "3 reminders move to local time"))
        board.note(.travelled(zone: "America/New_York", text: "2 reminders move to local time; Insulin stays at 08:00 Europe/Berlin, which is 02:00 here"))
        let content = try #require(board.content(in: english))
        #expect(content.summary == "Following America/New_York now" && content.actions == [] && !content.critical)
        #expect(content.body == "2 reminders move to local time; Insulin stays at 08:00 Europe/Berlin, which is 02:00 here")
    }

    @Test func theUserClosingItKeepsWhatIsDue() {
        var board = NotificationBoard()
        board.announce(dose(1, "Insulin", "8 units"))
        board.note(.restSuggestion(date: "2026-03-02"))
        board.closed()
        #expect(board.due.count == 1 && board.notes.isEmpty)
    }

    @Test func aLongGroupActsOnlyOnWhatItLists() throws {
        var board = NotificationBoard()
        for id in 1...11 { board.announce(dose(Int64(id), "Pill \(id)", "1 tablet")) }
        let content = try #require(board.content(in: english))
        #expect(content.summary.hasPrefix("11 due: Pill 1, Pill 2,") && content.summary.hasSuffix(", …"))
        #expect(content.body.hasSuffix("and 3 more: remindctl today"))
        #expect(content.actions.map(\.label) == ["Take 8", "Snooze 8", "Skip 8"])
        #expect(DesktopAnnouncer.Action.parse(content.actions[0].key).count == 8)
    }

    @Test func quietHoursMakeAGroupLowOnlyWhenNothingInItIsCritical() throws {
        var board = NotificationBoard()
        board.announce(dose(1, "Water", "1 glass", quiet: true))
        #expect(board.content(in: english)?.low == true && board.content(in: english)?.critical == false)
        board.announce(dose(2, "Insulin", "8 units"))
        #expect(board.content(in: english)?.low == false && board.content(in: english)?.critical == true)
    }

    @Test func keysRemindDidNotWriteDoNothing() {
        for key in ["", "taken", "taken:x", "snooze:7", "snooze:7/x", "explode:7", "taken:7,explode:8", "default"] {
            #expect(DesktopAnnouncer.Action.parse(key).isEmpty, "\(key)")
        }
        let all: [DesktopAnnouncer.Action] = [
            .taken(reminderID: 1), .takenLate(reminderID: 2), .snooze(reminderID: 3, minutes: 15), .skip(reminderID: 4),
            .dismiss(reminderID: 5), .markRestDay("2026-03-02"),
        ]
        #expect(DesktopAnnouncer.Action.parse(all.map(\.key).joined(separator: ",")) == all)
    }
}

/// The messages as the tables write them.
private let english = UntranslatedCatalog()
