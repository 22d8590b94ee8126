import Foundation
import ReminderCore
import ReminderInterface
import Testing
import Translation
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Acknowledging a reminder: done, skip, snooze, log list and log delete, and what each does to what is announced
/// next. On a manual clock; each case the issue lists as a defect failed before the fix.
@Suite("Acknowledging: done, skip, snooze, log list and delete")
struct AcknowledgingTests {
    func kinds(_ daemon: TestDaemon, _ name: String) -> [String] {
        daemon.firings(of: name).map { "\($0.kind.rawValue)@\($0.handledAt)" }
    }

    func states(_ daemon: TestDaemon, _ name: String) -> [String] {
        daemon.announcer.occurrences.filter { $0.firing.reminder.name == name }.map { "\($0.state.rawValue):\($0.firing.occurrence.instant)" }
    }

    func next(_ daemon: TestDaemon) async throws -> [FiringValue] {
        try await daemon.call("Next", ["count": 5], as: [String: [FiringValue]].self)["firings"]!
    }

    /// The issue's double-dose risk: a snooze, then a log; nothing may be announced after the log.
    @Test func aLogCancelsThePendingSnooze() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        try await daemon.call("Snooze", ["reminder": "Pills", "minutes": 1])
        await daemon.advance(to: instant("2026-03-02T08:00:30Z"))
        let logged = try await daemon.call("Log", ["reminder": "Pills"], as: LogReply.self)
        #expect(logged.cancelledSnoozes == 1 && logged.log.takes == "2026-03-02T08:00:00+00:00")
        #expect(try await next(daemon).allSatisfy { $0.snoozed != true })
        await daemon.advance(to: instant("2026-03-02T12:00:00Z"))
        #expect(kinds(daemon, "Pills") == ["fired@2026-03-02T08:00:00Z"])
        #expect(states(daemon, "Pills") == ["taken:2026-03-02T08:00:00Z"])
    }

    @Test func aSecondSnoozeReplacesTheFirstAndNextListsItMarked() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        try await daemon.call("Snooze", ["reminder": "Pills", "minutes": 5])
        let second = try await daemon.call("Snooze", ["reminder": "Pills", "minutes": 15], as: SnoozeReply.self)
        #expect(second.replaced == "2026-03-02T08:05:00+00:00" && second.until == "2026-03-02T08:15:00+00:00" && !second.postponed)
        let first = try #require(try await next(daemon).first)
        #expect(first.snoozed == true && first.utc == "2026-03-02T08:15:00Z" && first.slot == "reminder-\(first.reminderId)-08-00")
        await daemon.advance(to: instant("2026-03-02T12:00:00Z"))
        #expect(kinds(daemon, "Pills") == ["fired@2026-03-02T08:00:00Z", "snoozed@2026-03-02T08:15:00Z"])
        let entry = JournalAnnouncer.entry(for: .firing(daemon.firings(of: "Pills")[1]), in: english)
        #expect(entry.fields.contains(.init(name: "MESSAGE_ID", value: MessageID.snoozed)))
        #expect(entry.fields.contains(.init(name: "REMINDER_ANNOUNCEMENT", value: "snoozed")))
    }

    /// `list`, `show` and the status line name the pending snooze as what comes next (they said the next
    /// occurrence, as if nothing were pending).
    @Test func aPendingSnoozeIsTheNextAnnouncementInListAndStatus() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        try await daemon.add("Water", ["daily": true, "at": "09:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        #expect(daemon.status.last == "3 reminders, next: Water at Mon 09:00")
        try await daemon.call("Snooze", ["reminder": "Pills", "minutes": 15])
        let pills = try await daemon.call(Reminders.Get.self, .init(reminder: "Pills")).reminder
        #expect(pills.next?.snoozed == true && pills.next?.utc == "2026-03-02T08:15:00Z")
        #expect(daemon.status.last == "3 reminders, next: Pills (snoozed) at Mon 08:15")
        let listed = try await daemon.call(Reminders.List.self, .init()).reminders.first { $0.name == "Water" }
        #expect(listed?.next?.snoozed == nil && listed?.next?.utc == "2026-03-02T09:00:00Z")
        await daemon.advance(to: instant("2026-03-02T08:16:00Z"))
        #expect(try await daemon.call(Reminders.Get.self, .init(reminder: "Pills")).reminder.next?.utc == "2026-03-03T08:00:00Z")
        #expect(daemon.status.last == "3 reminders, next: Water at Mon 09:00")
    }

    /// "Taken late" on the Missed notification: the occurrence is taken late (a state of its own, in the
    /// journal and in `today`), its log covers and suppresses no other occurrence (the evening dose still
    /// fires), a goal's streak counts it, and there is nothing more to take late.
    @Test func aMissedDoseTakenLateIsTakenLateAndLeavesTheNextOneDue() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["preset": "Twice a Day", "start": "08:00"], timeZone: "UTC", ["window": "2h"])
        for time in ["2026-03-02T08:05:00Z", "2026-03-02T20:05:00Z"] {  // a day of doses taken...
            await daemon.advance(to: instant(time))
            try await daemon.call("Log", ["reminder": "Pills"])
        }
        await daemon.advance(to: instant("2026-03-03T10:00:00Z"))  // ...then the morning's is missed
        #expect(states(daemon, "Pills").last == "missed:2026-03-03T08:00:00Z")
        let id = try await daemon.call(Reminders.Get.self, .init(reminder: "Pills")).reminder.id

        await daemon.advance(to: instant("2026-03-03T13:00:00Z"))
        _ = await daemon.current.perform(.takenLate(reminderID: id))
        let taken = try #require(daemon.announcer.occurrences.last)
        #expect(taken.state == .takenLate && taken.loggedAt == instant("2026-03-03T13:00:00Z"))
        let entry = JournalAnnouncer.entry(for: .occurrence(taken), in: english)
        #expect(entry.message == "Taken late: Pills (twice a day, Tue 08:00) (logged Tue 13:00)")
        #expect(entry.fields.contains(.init(name: "REMINDER_STATE", value: "taken-late")))
        let day = try await daemon.call(Reminders.Occurrences.self, .init(date: "2026-03-03")).occurrences
        #expect(day.map(\.state) == ["taken-late", "upcoming"] && day.first?.loggedUtc == "2026-03-03T13:00:00Z")

        await daemon.advance(to: instant("2026-03-03T20:00:00Z"))
        #expect(daemon.firings(of: "Pills").last.map { [$0.kind.rawValue, $0.scheduled.description] } == ["fired", "2026-03-03T20:00:00Z"])
        await #expect { try await daemon.call(Reminders.TakeLate.self, .init(reminder: "Pills")) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains("nothing of Pills was missed in the last two days") == true
        }
        try await daemon.call("Log", ["reminder": "Pills"])
        #expect(try await daemon.call(Reminders.Get.self, .init(reminder: "Pills")).reminder.streak == 2)
    }

    /// A log right after adding a reminder whose time passed today takes nothing: `today` does not list that
    /// occurrence (it was never due), and the log said "takes the 20:00 occurrence".
    @Test func aLogTakesNoOccurrenceFromBeforeTheReminderExisted() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T21:25:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "20:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T21:26:00Z"))
        let log = try await daemon.call(Reminders.Log.self, .init(reminder: "Pills")).log
        #expect(log.takes == nil && log.suppresses == nil)
        #expect(try await daemon.call(Reminders.Occurrences.self, .init(date: "2026-03-02")).occurrences.isEmpty)
    }

    @Test func snoozingBeforeTheFirstFiringPostponesIt() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        let reply = try await daemon.call("Snooze", ["reminder": "Pills", "minutes": 10], as: SnoozeReply.self)
        #expect(reply.postponed && reply.until == "2026-03-02T08:10:00+00:00")
        #expect(try await next(daemon).first.map { [$0.utc, "\($0.snoozed ?? false)"] } == ["2026-03-02T08:10:00Z", "true"])
        try await daemon.restart()
        await daemon.advance(to: instant("2026-03-02T12:00:00Z"))
        #expect(kinds(daemon, "Pills") == ["postponed@2026-03-02T08:00:00Z", "snoozed@2026-03-02T08:10:00Z"])
        #expect(JournalAnnouncer.entry(for: .firing(daemon.firings(of: "Pills")[0]), in: english).priority == .info)
        // It was announced, at the snooze: left alone, it is missed at the window's end like any other.
        await daemon.advance(to: instant("2026-03-03T00:00:00Z"))
        #expect(states(daemon, "Pills") == ["missed:2026-03-02T08:00:00Z"])
    }

    @Test func aSnoozePastTheWindowIsRefusedWithWhatFits() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC", ["window": "30m"])
        await daemon.advance(to: instant("2026-03-02T08:10:00Z"))
        let error = await #expect(throws: VarlinkError.self) { try await daemon.call("Snooze", ["reminder": "Pills", "minutes": 20]) }
        #expect(error?.message?.contains("snooze for at most 19 min") == true)
        #expect(try await next(daemon).allSatisfy { $0.snoozed != true })
    }

    @Test func doneTakesTheDueOccurrenceAndIsRefusedWhenNothingIsDue() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00,20:00"], timeZone: "UTC")
        let early = await #expect(throws: VarlinkError.self) { try await daemon.call("Done", ["reminder": "Pills"]) }
        #expect(early?.name == "io.remindd.Reminders.NothingDue")
        #expect(early?.message?.contains("remindctl log \"Pills\"") == true)
        await daemon.advance(to: instant("2026-03-02T08:03:00Z"))
        let done = try await daemon.call("Done", ["reminder": "Pills"], as: LogReply.self)
        #expect(done.log.takes == "2026-03-02T08:00:00+00:00")
        #expect(states(daemon, "Pills") == ["taken:2026-03-02T08:00:00Z"])
        await #expect(throws: VarlinkError.self) { try await daemon.call("Done", ["reminder": "Pills"]) }
        await daemon.advance(to: instant("2026-03-02T20:00:00Z"))
        #expect(kinds(daemon, "Pills") == ["fired@2026-03-02T08:00:00Z", "fired@2026-03-02T20:00:00Z"])
        #expect(states(daemon, "Pills") == ["taken:2026-03-02T08:00:00Z"])  // not missed
    }

    /// The refusal names the next occurrence that will be announced: a skipped one is passed over.
    @Test func doneRefusedNamesTheNextOccurrenceThatIsNotSkipped() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        try await daemon.call("Skip", ["reminder": "Pills"])
        let refused = await #expect(throws: VarlinkError.self) { try await daemon.call("Done", ["reminder": "Pills"]) }
        #expect(refused?.message?.contains("(next: 2026-03-03T08:00:00+00:00)") == true, "\(refused?.message ?? "")")
    }

    @Test func skippingTheDueOccurrenceRecordsItWithTheReasonAndItIsNotMissed() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC", ["repeat": "10m"])
        await daemon.advance(to: instant("2026-03-02T08:05:00Z"))
        let skipped = try await daemon.call("Skip", ["reminder": "Pills", "reason": "fasting"], as: [String: OccurrenceValue].self)["occurrence"]!
        #expect(skipped.state == "skipped" && skipped.utc == "2026-03-02T08:00:00Z")
        await daemon.advance(to: instant("2026-03-03T00:00:00Z"))
        #expect(kinds(daemon, "Pills") == ["fired@2026-03-02T08:00:00Z"])  // no repeat after the skip
        #expect(states(daemon, "Pills") == ["skipped:2026-03-02T08:00:00Z"])
        let history = try await daemon.history(of: "Pills")
        #expect(history.map(\.kind) == ["fired", "skipped"] && history[1].detail == "fasting")
    }

    @Test func skippingAheadKeepsTheNextOccurrenceFromFiring() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        try await daemon.call("Skip", ["reminder": "Pills"])
        await daemon.advance(to: instant("2026-03-03T08:00:00Z"))
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.skipped, .fired])
        #expect(daemon.firings(of: "Pills")[0].detail == "skipped by the user")
    }

    /// `skip` with nothing due skipped the next occurrence; `unskip` undoes it: it fires at its time, `next`
    /// lists it again, a restart keeps it undone, and a second `unskip` finds nothing to undo. A skip whose time
    /// came is not undone.
    @Test func unskipUndoesASkipAheadAndItFiresAtItsTime() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T09:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        let skipped = try await daemon.call(Reminders.Skip.self, .init(reminder: "Pills")).occurrence
        #expect(skipped.utc == "2026-03-03T08:00:00Z")
        #expect(try await daemon.call(Reminders.Next.self, .init()).firings.first?.utc == "2026-03-04T08:00:00Z")
        let unskipped = try await daemon.call(Reminders.Unskip.self, .init(reminder: "Pills")).occurrence
        #expect(unskipped.utc == "2026-03-03T08:00:00Z" && unskipped.state == "upcoming")
        #expect(try await daemon.call(Reminders.Next.self, .init()).firings.first?.utc == "2026-03-03T08:00:00Z")
        await #expect { try await daemon.call(Reminders.Unskip.self, .init(reminder: "Pills")) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains("no occurrence of Pills ahead is skipped") == true
        }
        try await daemon.restart()
        await daemon.advance(to: instant("2026-03-03T08:00:30Z"))
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.fired])
        // Skipped once due: its time has come, and it stays skipped.
        _ = try await daemon.call(Reminders.Skip.self, .init(reminder: "Pills"))
        await #expect { try await daemon.call(Reminders.Unskip.self, .init(reminder: "Pills")) } throws: { $0 is VarlinkError }
        let day = try await daemon.call(Reminders.Occurrences.self, .init(date: "2026-03-03", reminder: "Pills")).occurrences
        #expect(day.map(\.state) == ["skipped"])
    }

    /// The issue's mistake: `log` twice suppresses the evening dose; deleting the second log restores it.
    @Test func deletingASecondLogRestoresTheEveningDose() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00,20:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T08:01:00Z"))
        try await daemon.log("Pills")
        try await daemon.log("Pills")  // in the same second: the first takes 08:00, the second suppresses 20:00
        let logs = try await daemon.call("Logs", ["reminder": "Pills"], as: [String: [IntakeValue]].self)["logs"]!
        #expect(logs.map(\.takes) == ["2026-03-02T08:00:00+00:00", nil])
        #expect(logs.map(\.suppresses) == [nil, "2026-03-02T20:00:00+00:00"])
        let deleted = try await daemon.call("DeleteLog", ["id": .number(Double(logs[1].id))], as: [String: IntakeValue].self)["log"]!
        #expect(deleted.suppresses == "2026-03-02T20:00:00+00:00")
        let again = await #expect(throws: VarlinkError.self) { try await daemon.call("DeleteLog", ["id": .number(Double(logs[1].id))]) }
        #expect(again?.name == "io.remindd.Reminders.LogNotFound")
        await daemon.advance(to: instant("2026-03-02T20:00:00Z"))
        #expect(kinds(daemon, "Pills") == ["fired@2026-03-02T08:00:00Z", "fired@2026-03-02T20:00:00Z"])
    }

    @Test func repeatsUntilTheMaximumAndNeverPastTheWindow() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC", ["repeat": "10m", "repeatMax": 3])
        try await daemon.add("Drops", ["daily": true, "at": "08:00"], timeZone: "UTC", ["repeat": "10m", "window": "25m"])
        await daemon.advance(to: instant("2026-03-02T09:00:00Z"))
        #expect(kinds(daemon, "Pills") == [
            "fired@2026-03-02T08:00:00Z", "repeated@2026-03-02T08:10:00Z", "repeated@2026-03-02T08:20:00Z", "repeated@2026-03-02T08:30:00Z",
        ])
        #expect(daemon.firings(of: "Pills").compactMap(\.repeatNumber) == [1, 2, 3])
        #expect(kinds(daemon, "Drops") == ["fired@2026-03-02T08:00:00Z", "repeated@2026-03-02T08:10:00Z", "repeated@2026-03-02T08:20:00Z"])
        #expect(states(daemon, "Drops") == ["missed:2026-03-02T08:00:00Z"])
        let entry = JournalAnnouncer.entry(for: .firing(daemon.firings(of: "Pills")[1]), in: english)
        #expect(entry.message == "Reminder (repeat 1, still not taken): Pills (daily, Mon 08:00)")
        #expect(entry.fields.contains(.init(name: "MESSAGE_ID", value: MessageID.repeated)))
    }

    /// The issue's example: Twice a Day with --repeat 10m, left alone: announced, repeated every 10 minutes
    /// until the evening dose supersedes it, recorded missed then; the evening dose the same until midnight.
    @Test func twiceADayRepeatingEveryTenMinutesLeftAlone() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["preset": "Twice a Day", "start": "08:00"], timeZone: "UTC", ["repeat": "10m"])
        await daemon.advance(to: instant("2026-03-03T07:00:00Z"))
        let morning = daemon.firings(of: "Pills").filter { $0.scheduled == instant("2026-03-02T08:00:00Z") }
        let evening = daemon.firings(of: "Pills").filter { $0.scheduled == instant("2026-03-02T20:00:00Z") }
        #expect(morning.map(\.kind) == [.fired] + Array(repeating: .repeated, count: 71))  // 08:10 ... 19:50
        #expect(morning.last?.handledAt == instant("2026-03-02T19:50:00Z"))
        #expect(evening.count == 24 && evening.last?.handledAt == instant("2026-03-02T23:50:00Z"))
        #expect(states(daemon, "Pills") == ["missed:2026-03-02T08:00:00Z", "missed:2026-03-02T20:00:00Z"])
        struct Day: Decodable { let occurrences: [OccurrenceValue] }
        let day = try await daemon.call("Occurrences", ["date": "2026-03-02"], as: Day.self)
        #expect(day.occurrences.filter { $0.reminderName == "Pills" }.map(\.state) == ["missed", "missed"])
    }

    /// Supersession: the morning dose repeats until the evening one comes; then it is missed, and only the
    /// evening one repeats.
    @Test func aLaterOccurrenceSupersedesAnEarlierOneStillRepeating() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["preset": "Twice a Day", "start": "08:00"], timeZone: "UTC", ["repeat": "5h"])
        await daemon.advance(to: instant("2026-03-02T20:30:00Z"))
        #expect(kinds(daemon, "Pills") == [
            "fired@2026-03-02T08:00:00Z", "repeated@2026-03-02T13:00:00Z", "repeated@2026-03-02T18:00:00Z", "fired@2026-03-02T20:00:00Z",
        ])
        #expect(states(daemon, "Pills") == ["missed:2026-03-02T08:00:00Z"])
        // The evening's repeat would come at 01:00, after its window (the day) ended: it is missed at midnight.
        await daemon.advance(to: instant("2026-03-03T07:00:00Z"))
        #expect(kinds(daemon, "Pills").count == 4)
        #expect(states(daemon, "Pills") == ["missed:2026-03-02T08:00:00Z", "missed:2026-03-02T20:00:00Z"])
    }

    @Test func aLogStopsTheRepeatsAndDeletingItResumesThem() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC", ["repeat": "10m"])
        await daemon.advance(to: instant("2026-03-02T08:15:00Z"))
        let logged = try await daemon.call("Log", ["reminder": "Pills"], as: LogReply.self)
        await daemon.advance(to: instant("2026-03-02T08:45:00Z"))
        #expect(kinds(daemon, "Pills") == ["fired@2026-03-02T08:00:00Z", "repeated@2026-03-02T08:10:00Z"])
        try await daemon.call("DeleteLog", ["id": .number(Double(logged.log.id))])
        await daemon.advance(to: instant("2026-03-02T09:00:00Z"))
        // Due again: the repeats resume, an interval after the log was deleted.
        #expect(kinds(daemon, "Pills") == ["fired@2026-03-02T08:00:00Z", "repeated@2026-03-02T08:10:00Z", "repeated@2026-03-02T08:55:00Z"])
    }

    /// A restart does not reset the count: `--repeat-max 3` means three repeats, however often remindd restarts.
    @Test func repeatsKeepTheirCountAndCadenceAcrossARestart() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC", ["repeat": "10m", "repeatMax": 3])
        await daemon.advance(to: instant("2026-03-02T08:15:00Z"))
        try await daemon.restart()
        await daemon.advance(to: instant("2026-03-02T09:00:00Z"))
        #expect(kinds(daemon, "Pills") == [
            "fired@2026-03-02T08:00:00Z", "repeated@2026-03-02T08:10:00Z", "repeated@2026-03-02T08:20:00Z", "repeated@2026-03-02T08:30:00Z",
        ])
        #expect(daemon.firings(of: "Pills").compactMap(\.repeatNumber) == [1, 2, 3])
    }

    /// After a skip ahead, what comes next is the occurrence after the skipped one: in `next`, in `show`, and for
    /// a second `skip` or a `snooze`.
    @Test func afterASkipAheadNextShowSkipAndSnoozeLookPastIt() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        try await daemon.call("Skip", ["reminder": "Pills"])
        #expect(try await next(daemon).first?.utc == "2026-03-03T08:00:00Z")
        #expect(try await daemon.call(Reminders.Get.self, .init(reminder: "Pills")).reminder.next?.utc == "2026-03-03T08:00:00Z")
        let second = try await daemon.call("Skip", ["reminder": "Pills"], as: [String: OccurrenceValue].self)["occurrence"]!
        #expect(second.utc == "2026-03-03T08:00:00Z")
        let snoozed = try await daemon.call("Snooze", ["reminder": "Pills", "minutes": 5], as: SnoozeReply.self)
        #expect(snoozed.occurrence.utc == "2026-03-04T08:00:00Z" && snoozed.postponed)
        await daemon.advance(to: instant("2026-03-04T09:00:00Z"))
        #expect(kinds(daemon, "Pills") == ["skipped@2026-03-02T08:00:00Z", "skipped@2026-03-03T08:00:00Z", "postponed@2026-03-04T08:00:00Z", "snoozed@2026-03-04T08:05:00Z"])
    }

    /// An occurrence from before the reminder was added never fired: `done` has nothing due to take.
    @Test func doneDoesNotTakeAnOccurrenceFromBeforeTheReminderExisted() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T08:00:30Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        let refused = await #expect(throws: VarlinkError.self) { try await daemon.call("Done", ["reminder": "Pills"]) }
        #expect(refused?.name == "io.remindd.Reminders.NothingDue")
    }

    @Test func badDeliveryInputIsRefusedWithHowToFixItAndChangesNothing() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        let notExecutable = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-hook-\(getpid()).sh").path
        try "#!/bin/sh\n".write(toFile: notExecutable, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: notExecutable) }
        let cases: [([String: JSONValue], String)] = [
            (["repeat": "0m"], "1s to 24h"), (["repeat": "25h"], "1s to 24h"), (["repeat": "10"], "1s to 24h"),
            (["repeatMax": 3], "add --repeat 10m"), (["repeat": "10m", "repeatMax": 101], "1 to 100"),
            (["command": .array(["/nonexistent/hook"])], "does not exist"), (["command": .array(["notify-send"])], "not an absolute path"),
            (["command": .array([.string(notExecutable)])], "chmod +x"), (["urgency": "loud"], "normal, critical or auto"),
        ]
        for (extra, hint) in cases {
            let error = await #expect(throws: VarlinkError.self) { try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC", extra) }
            #expect(error?.message?.contains(hint) == true, "\(extra)")
        }
        let listed = try await daemon.call("List", as: [String: JSONValue].self)["reminders"]
        #expect(listed.map { "\($0)".contains("Pills") } == false)
    }
}

extension VarlinkError {
    /// The `message` parameter of an error, as remindctl prints it.
    var message: String? {
        if case .object(let fields) = parameters, case .string(let text)? = fields["message"] { return text }
        return nil
    }
}

/// The messages as the tables write them.
private let english = UntranslatedCatalog()
