import Foundation
import GRDB
import ReminderCore
import ReminderInterface
import ReminderScheduling
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// The read-only calendars of `config.toml` (vdir folders, as khal and vdirsyncer keep them), on a manual clock:
/// each VALARM fires like a reminder, once, is dismissed or snoozed, follows the item's changes, and a hostile
/// item is refused and reported once while the rest works.
extension TestDaemon {
    /// The reminders that are calendars' alarms (the built-in habit notice left out).
    func calendarAlarms() async throws -> [ReminderValue] {
        try await call(Reminders.List.self, .init()).reminders.filter { $0.delivery.calendar != nil }
    }

    /// The next firings of calendars' alarms.
    func calendarFirings(count: Int) async throws -> [FiringValue] {
        Array(try await call(Reminders.Next.self, .init(count: 100)).firings.filter { $0.calendar != nil }.prefix(count))
    }
}

@Suite("Read-only calendars")
struct CalendarAlarmTests {
    /// A folder of its own under the temporary directory, removed by `remove()`.
    struct Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-calendar-\(UUID().uuidString)/personal").path

        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }

        func write(_ name: String, _ text: String) throws {
            // As vdirsyncer and khal write: a temporary name, then a rename.
            try text.write(toFile: path + "/." + name + ".tmp", atomically: false, encoding: .utf8)
            try FileManager.default.moveItem(atPath: path + "/." + name + ".tmp", toPath: path + "/" + name) 
        }

        func replace(_ name: String, _ text: String) throws {
            try FileManager.default.removeItem(atPath: path + "/" + name)
            try write(name, text)
        }

        func remove() { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
    }

    /// An event as `khal new 2026-12-03 10:00 Dentist --alarm 15m` writes it.
    static func event(_ summary: String, uid: String, start: String, alarm: String = "-PT15M", extra: String = "") -> String {
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//PIMUTILS.ORG//NONSGML khal / icalendar //EN
        BEGIN:VEVENT
        SUMMARY:\(summary)
        DTSTART;TZID=Europe/Berlin:\(start)
        DTEND;TZID=Europe/Berlin:\(start.prefix(9))235900
        DTSTAMP:20261201T090000Z
        UID:\(uid)
        \(extra)BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:\(summary)
        TRIGGER:\(alarm)
        END:VALARM
        END:VEVENT
        END:VCALENDAR

        """.replacingOccurrences(of: "\n", with: "\r\n")
    }

    private func daemon(_ folder: Folder, now: String = "2026-12-01T00:00:00Z") async throws -> TestDaemon {
        var configuration = DaemonConfiguration()
        configuration.calendars = [folder.path]
        return try await TestDaemon(now: instant(now), systemZone: "Europe/Berlin", configuration: configuration)
    }

    /// An item's events and tasks are counted at the start of a line only, with either line ending, up to one
    /// past the limit (a hostile item of a million is not counted to the end).
    @Test func anItemsEventsAndTasksAreCountedAtLineStartsUpToOnePastTheLimit() {
        #expect(ItemPlanner.components(in: "") == 0)
        #expect(ItemPlanner.components(in: "BEGIN:VEVENT") == 1)
        #expect(ItemPlanner.components(in: "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VEVENT\r\nBEGIN:VTODO\r\nEND:VTODO\r\n") == 2)
        #expect(ItemPlanner.components(in: "BEGIN:VCALENDAR\nBEGIN:VTODO\nEND:VTODO\nBEGIN:VEVENT\n") == 2)
        #expect(ItemPlanner.components(in: "DESCRIPTION:see\r\n BEGIN:VEVENT\r\nX-A:BEGIN:VEVENT\r\nBEGIN:VALARM\r\n\n") == 0)
        let many = String(repeating: "BEGIN:VEVENT\r\nEND:VEVENT\r\n", count: 5000)
        #expect(ItemPlanner.components(in: many) == CalendarService.maximumComponents + 1)
    }

    @Test func anEventsAlarmFiresOnceFifteenMinutesBeforeAndNextNamesItsCalendar() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("dentist.ics", Self.event("Dentist", uid: "dentist@khal", start: "20261203T100000"))
        let daemon = try await daemon(folder)

        let next = try await daemon.calendarFirings(count: 5)
        #expect(next.map(\.reminderName) == ["Dentist"])
        #expect(next.first?.calendar == "personal")
        #expect(next.first?.utc == "2026-12-03T08:45:00Z")  // 09:45 in Berlin, 15 minutes before 10:00

        await daemon.advance(to: instant("2026-12-03T08:50:00Z"))
        #expect(daemon.firings(of: "Dentist").map(\.kind) == [.fired])
        #expect(daemon.firings(of: "Dentist").first?.firing.reminder.delivery.calendar == "personal")
        // A restart (kill -9) neither fires it again nor forgets it; its window closes without a "missed".
        try await daemon.restart()
        await daemon.advance(to: instant("2026-12-05T00:00:00Z"))
        #expect(daemon.firings(of: "Dentist").map(\.kind) == [.fired])
        #expect(daemon.announcer.occurrences.isEmpty)
    }

    @Test func anItemChangedOrRemovedInTheFolderReplansOrRemovesItsAlarm() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("a.ics", Self.event("Standup", uid: "a", start: "20261203T100000", extra: "RRULE:FREQ=DAILY\n"))
        let daemon = try await daemon(folder)
        let before = try await daemon.calendarFirings(count: 1)
        #expect(before.map(\.utc) == ["2026-12-03T08:45:00Z"])

        // Moved to 11:00 with a 5-minute alarm by another client: re-planned, the same reminder.
        try folder.replace("a.ics", Self.event("Standup", uid: "a", start: "20261203T110000", alarm: "-PT5M", extra: "RRULE:FREQ=DAILY\n"))
        await daemon.folderChanged(folder.path)
        let after = try await daemon.calendarFirings(count: 1)
        #expect(after.map(\.utc) == ["2026-12-03T09:55:00Z"])
        #expect(after.first?.reminderId == before.first?.reminderId)

        // A second event of the same name in the calendar: its own reminder, named apart.
        try folder.write("b.ics", Self.event("Standup", uid: "b", start: "20261204T150000"))
        await daemon.folderChanged(folder.path)
        let names = try await daemon.calendarAlarms().map(\.name)
        #expect(names == ["Standup", "Standup (personal)"])

        try FileManager.default.removeItem(atPath: folder.path + "/a.ics")
        try FileManager.default.removeItem(atPath: folder.path + "/b.ics")
        await daemon.folderChanged(folder.path)
        #expect(try await daemon.calendarAlarms().isEmpty)
        await daemon.advance(to: instant("2026-12-06T00:00:00Z"))
        #expect(daemon.announcer.firings.isEmpty)
    }

    @Test func aChangeNamingItsEntriesReadsThoseAndKeepsTheRest() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("a.ics", Self.event("Standup", uid: "a", start: "20261203T100000"))
        try folder.write("b.ics", Self.event("Review", uid: "b", start: "20261203T140000"))
        let daemon = try await daemon(folder)

        // Both files changed, the watcher named one: that one is read (one stat, not the folder's thousands).
        try folder.replace("a.ics", Self.event("Standup", uid: "a", start: "20261203T110000"))
        try folder.replace("b.ics", Self.event("Review", uid: "b", start: "20261203T150000"))
        await daemon.folderChanged(folder.path, names: ["a.ics", ".a.ics.tmp"])
        #expect(try await daemon.calendarFirings(count: 2).map(\.utc) == ["2026-12-03T09:45:00Z", "2026-12-03T12:45:00Z"])

        // A named entry gone takes its alarms; the others stay.
        try FileManager.default.removeItem(atPath: folder.path + "/a.ics")
        await daemon.folderChanged(folder.path, names: ["a.ics"])
        #expect(try await daemon.calendarAlarms().map(\.name) == ["Review"])

        // A change anywhere (the kernel's queue overflowed) reads the whole folder: b's change is seen.
        await daemon.folderChanged(folder.path, names: nil)
        #expect(try await daemon.calendarFirings(count: 1).map(\.utc) == ["2026-12-03T13:45:00Z"])
    }

    @Test func aRestartReadsOnlyTheItemsChangedMeanwhile() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("a.ics", Self.event("Standup", uid: "a", start: "20261203T100000"))
        try folder.write("b.ics", Self.event("Review", uid: "b", start: "20261203T140000"))
        try folder.write("past.ics", Self.event("Long ago", uid: "p", start: "20250101T100000"))
        let daemon = try await daemon(folder)
        let ids = try await daemon.calendarAlarms().map(\.id)
        func lastRead() -> String? { daemon.announcer.messages.last { $0.hasPrefix("Calendars read") } }
        #expect(lastRead()?.contains("3 items in 1 folder; new or changed: 3; alarms added, changed or removed: 2 ") == true)

        // Nothing changed while it was down: nothing read (no alarm written), the same alarms.
        let changes = try await daemon.database.read { $0.totalChangesCount }
        try await daemon.restart()
        #expect(lastRead()?.contains("3 items in 1 folder; new or changed: 0; alarms added, changed or removed: 0 ") == true)
        #expect(try await daemon.calendarAlarms().map(\.id) == ids)
        #expect(try await daemon.database.read { $0.totalChangesCount } == changes)

        // One changed and one removed while it was down: those, and only those.
        try folder.replace("a.ics", Self.event("Standup", uid: "a", start: "20261203T110000"))
        try FileManager.default.removeItem(atPath: folder.path + "/b.ics")
        try await daemon.restart()
        #expect(lastRead()?.contains("2 items in 1 folder; new or changed: 1; alarms added, changed or removed: 2 ") == true)
        #expect(try await daemon.calendarFirings(count: 5).map(\.utc) == ["2026-12-03T09:45:00Z"])
        #expect(try await daemon.calendarAlarms().map(\.id) == [ids[0]])

        // The calendar renamed (its displayname file): every alarm names the new calendar.
        try folder.write("displayname", "Work")
        await daemon.folderChanged(folder.path, names: ["displayname"])
        #expect(try await daemon.calendarAlarms().map(\.delivery.calendar) == ["Work"])
    }

    /// An item planned by an older remindd (its etag names the plan's version) is read again at the next start,
    /// and planned as this one plans it: version 2 puts an alarm related to the end of an event, with days of
    /// the other sign than its length, a day before the end (version 1 stored it a day and an hour before the start).
    @Test func itemsPlannedByAnOlderVersionAreReadAgainAtTheNextStart() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("review.ics", """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:r
            SUMMARY:Review
            DTSTART;TZID=Europe/Berlin:20261203T100000
            DTEND;TZID=Europe/Berlin:20261203T110000
            BEGIN:VALARM
            TRIGGER;RELATED=END:-P1D
            END:VALARM
            END:VEVENT
            END:VCALENDAR

            """.replacingOccurrences(of: "\n", with: "\r\n"))
        let daemon = try await daemon(folder)
        func lastRead() -> String? { daemon.announcer.messages.last { $0.hasPrefix("Calendars read") } }
        // A day before its end: 11:00 in Berlin the day before.
        #expect(try await daemon.calendarFirings(count: 1).map(\.utc) == ["2026-12-02T10:00:00Z"])

        // As version 1 left it: the alarm a day and an hour before the start, under an etag of version 1.
        try await daemon.database.write { db in
            try db.execute(sql: "UPDATE calendarItem SET etag = replace(etag, ' v\(CalendarService.planVersion) ', ' v1 ')")
            try db.execute(sql: "UPDATE reminder SET rule = json_set(rule, '$.alarm', '-P1DT1H') WHERE origin IS NOT NULL")
        }
        try await daemon.restart()
        #expect(lastRead()?.contains("1 item in 1 folder; new or changed: 1; alarms added, changed or removed: 1 ") == true, "\(lastRead() ?? "")")
        #expect(try await daemon.calendarFirings(count: 1).map(\.utc) == ["2026-12-02T10:00:00Z"])
    }

    @Test func aCalendarsAlarmIsChangedInTheCalendarNotWithRemindctl() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("dentist.ics", Self.event("Dentist", uid: "d", start: "20261203T100000"))
        let daemon = try await daemon(folder)
        let error = await #expect(throws: VarlinkError.self) { try await daemon.call(Reminders.Remove.self, .init(reminder: "Dentist")) }
        #expect(error.map { "\($0)".contains("alarm of the read-only calendar 'personal'") } == true, "\(String(describing: error))")
        await #expect(throws: VarlinkError.self) {
            try await daemon.call(Reminders.Update.self, .init(reminder: "Dentist", name: "Other"))
        }
        // Disabling silences it here, and a rescan keeps it silenced.
        _ = try await daemon.call(Reminders.Disable.self, .init(reminder: "Dentist"))
        try folder.replace("dentist.ics", Self.event("Dentist", uid: "d", start: "20261203T103000"))
        await daemon.folderChanged(folder.path)
        await daemon.advance(to: instant("2026-12-04T00:00:00Z"))
        #expect(daemon.announcer.firings.isEmpty)
    }

    @Test func dismissStopsTheRepeatsAndSnoozeAnnouncesAgain() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("call.ics", Self.event("Call mum", uid: "c", start: "20261203T180000", extra: "")
            .replacingOccurrences(of: "TRIGGER:-PT15M", with: "TRIGGER:-PT15M\r\nREPEAT:3\r\nDURATION:PT5M"))
        try folder.write("pay.ics", Self.event("Pay rent", uid: "p", start: "20261203T190000"))
        let daemon = try await daemon(folder)
        await daemon.advance(to: instant("2026-12-03T16:46:00Z"))
        let call = try #require(daemon.firings(of: "Call mum").first)
        _ = await daemon.current.perform(.dismiss(reminderID: call.firing.reminder.id))
        await daemon.advance(to: instant("2026-12-03T17:46:00Z"))
        #expect(daemon.firings(of: "Call mum").map(\.kind) == [.fired])  // no repeat after Dismiss

        let pay = try #require(daemon.firings(of: "Pay rent").first)
        _ = await daemon.current.perform(.snooze(reminderID: pay.firing.reminder.id, minutes: 10))
        await daemon.advance(to: instant("2026-12-03T18:00:00Z"))
        #expect(daemon.firings(of: "Pay rent").map(\.kind) == [.fired, .snoozed])
        #expect(daemon.firings(of: "Pay rent").last?.handledAt == instant("2026-12-03T17:56:00Z"))
    }

    /// Each bad item is refused and reported once (not again at the next scan), and the good item beside them fires.
    @Test func hostileItemsAreRefusedAndReportedOnceAndTheRestWorks() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let outside = (folder.path as NSString).deletingLastPathComponent + "/outside.ics"
        try Self.event("Outside", uid: "o", start: "20261203T100000").write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link.ics", withDestinationPath: outside)
        try folder.write("good.ics", Self.event("Good", uid: "g", start: "20261203T120000"))
        try folder.write("huge.ics", String(repeating: "X", count: 2 << 20))
        try folder.write("new\nline.ics", Self.event("Newline", uid: "n", start: "20261203T100000"))
        try folder.write("garbage.ics", "this is not a calendar\n")
        try folder.write("secondly.ics", Self.event("Every second", uid: "s", start: "20261203T100000", alarm: "PT0S", extra: "RRULE:FREQ=SECONDLY\n"))
        let many = (0..<1001).map { "BEGIN:VEVENT\r\nUID:m\($0)\r\nDTSTART:20261203T100000Z\r\nEND:VEVENT\r\n" }.joined()
        try folder.write("many.ics", "BEGIN:VCALENDAR\r\n\(many)END:VCALENDAR\r\n")
        try folder.write("billion.ics", Self.event("Billion", uid: "b", start: "20261203T100000", alarm: "PT0S", extra: "RRULE:FREQ=HOURLY;COUNT=1000000000\n"))
        // A zone of its own with 100,000 transitions (one per RDATE value: 1.6 MB).
        let transitions = (0..<100_000).map { String(format: "%04d0101T000000", 1000 + $0 % 8000) }.joined(separator: ",")
        let zone = "BEGIN:VTIMEZONE\r\nTZID:Hostile\r\nBEGIN:STANDARD\r\nDTSTART:10000101T000000\r\nRDATE:\(transitions)\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0000\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
        try folder.write("zone.ics", Self.event("Zoned", uid: "z", start: "20261203T100000").replacingOccurrences(of: "TZID=Europe/Berlin", with: "TZID=Hostile")
            .replacingOccurrences(of: "BEGIN:VEVENT", with: zone + "BEGIN:VEVENT"))
        // Alarms that each fire once a minute but together every second: 60 alarms of a minutely event a second apart.
        let sixty = (0..<60).map { "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER:PT\($0)S\r\nEND:VALARM\r\n" }.joined()
        try folder.write("sixty.ics", Self.event("Sixty", uid: "60", start: "20261203T100000", extra: "RRULE:FREQ=MINUTELY\n")
            .replacingOccurrences(of: "BEGIN:VALARM", with: sixty + "BEGIN:VALARM"))
        // An RDATE list whose first three instants are a minute apart, and the rest a second apart.
        let rdates = (0..<3).map { String(format: "20261203T10%02d00", $0) } + (1..<50).map { String(format: "20261203T1002%02d", $0) }
        try folder.write("rdate.ics", Self.event("Rdate", uid: "r", start: "20261203T100000", alarm: "PT0S", extra: "RDATE;TZID=Europe/Berlin:\(rdates.joined(separator: ","))\n"))
        #expect(mkfifo(folder.path + "/fifo.ics", 0o600) == 0)
        try folder.write("notes.txt", "not an item: ignored")
        try folder.write("no-extension", "not an item: ignored")

        let daemon = try await daemon(folder)
        let names = try await daemon.calendarAlarms().map(\.name)
        #expect(names == ["Good"])
        let reports = daemon.announcer.messages.filter { $0.hasPrefix("Calendar 'personal'") }
        for name in [
            "link.ics", "huge.ics", "\"new\\nline.ics\"", "garbage.ics", "secondly.ics", "many.ics", "fifo.ics", "billion.ics", "zone.ics", "sixty.ics", "rdate.ics",
        ] {
            #expect(reports.filter { $0.contains("item \(name) ") }.count == 1, "\(name): \(reports)")
        }
        #expect(reports.count == 11, "\(reports)")
        #expect(!reports.contains { $0.contains("notes.txt") || $0.contains("no-extension") })

        // Scanned again with nothing changed: nothing read, written or reported again.
        let changes = try await daemon.database.read { $0.totalChangesCount }
        await daemon.folderChanged(folder.path)
        #expect(try await daemon.database.read { $0.totalChangesCount } == changes)
        #expect(daemon.announcer.messages.filter { $0.hasPrefix("Calendar 'personal'") }.count == 11)

        await daemon.advance(to: instant("2026-12-03T11:00:00Z"))
        #expect(daemon.announcer.firings.map(\.firing.reminder.name) == ["Good"])
    }

    /// 60 items of one minutely alarm each, a second apart: each item is within the once-a-minute rule, the folder
    /// is a flood. At most ``CalendarFloodGate/perMinute`` are announced in any minute, it is said once, and a dose
    /// due in the middle of it fires on time.
    @Test func aFolderWhoseItemsTogetherFireEverySecondAnnouncesAtMostTheBoundAndTheDoseOnTime() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        for second in 0..<60 {
            try folder.write("s\(second).ics", Self.event(
                "Tick \(second)", uid: "t\(second)", start: String(format: "20261203T1100%02d", second), alarm: "PT0S", extra: "RRULE:FREQ=MINUTELY\n"))
        }
        let daemon = try await daemon(folder)
        #expect(try await daemon.calendarAlarms().count == 60)
        try await daemon.add("Metformin", ["daily": true, "at": "11:01"])
        await daemon.advance(to: instant("2026-12-03T10:03:00Z"))
        let announced = daemon.announcer.firings.filter { $0.firing.reminder.delivery.calendar != nil && $0.kind.reachesThePerson }
            .map(\.firing.occurrence.instant.secondsSinceEpoch)
        let start = instant("2026-12-03T10:00:00Z").secondsSinceEpoch
        // In every 60 seconds, from any start: at most the bound.
        for from in start..<(start + 120) {
            #expect(announced.filter { $0 >= from && $0 < from + 60 }.count <= CalendarFloodGate.perMinute)
        }
        #expect(announced.count >= 3 * CalendarFloodGate.perMinute)  // held back, not silenced for good
        let held = daemon.firings(of: "Tick 30").filter { $0.kind == .suppressed }
        #expect(held.first?.detail?.hasPrefix("held back: calendar 'personal'") == true)
        #expect(daemon.announcer.messages.filter { $0.hasPrefix("Calendar 'personal': its alarms come more than") }.count == 1)
        let due = instant("2026-12-03T10:01:00Z")
        let dose = try #require(daemon.firings(of: "Metformin").first { $0.firing.occurrence.instant == due })
        #expect(dose.kind == .fired && dose.handledAt == due)
    }

    /// A reload without the calendar removes its alarms; the folder itself is never written.
    @Test func aReloadWithoutTheCalendarRemovesItsAlarmsAndTheFolderIsNeverWritten() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("a.ics", Self.event("Dentist", uid: "d", start: "20261203T100000"))
        try "Personal\n".write(toFile: folder.path + "/displayname", atomically: true, encoding: .utf8)
        let before = try FileManager.default.attributesOfItem(atPath: folder.path + "/a.ics")
        let daemon = try await daemon(folder)
        #expect(try await daemon.calendarAlarms().map(\.delivery.calendar) == ["Personal"])
        try await daemon.current.reload(DaemonConfiguration())
        #expect(try await daemon.calendarAlarms().isEmpty)
        let after = try FileManager.default.attributesOfItem(atPath: folder.path + "/a.ics")
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.ics", "displayname"])
    }
}
