import Foundation
import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// `ImportCalendar` on a manual clock: the reminders fire at the alarms' instants, and a file refused for any
/// reason changes nothing.
@Suite("Importing a calendar file")
struct CalendarImportServiceTests {
    static let file = """
        BEGIN:VCALENDAR
        BEGIN:VEVENT
        UID:a
        SUMMARY:Physio
        DTSTART;TZID=Europe/Berlin:20261202T170000
        RRULE:FREQ=WEEKLY;COUNT=3
        BEGIN:VALARM
        TRIGGER:-PT30M
        REPEAT:1
        DURATION:PT5M
        END:VALARM
        END:VEVENT
        END:VCALENDAR

        """

    private func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-import-\(UUID().uuidString).ics").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func importedAlarmsFireAndASecondImportIsRefusedWithNothingChanged() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T00:00:00Z"))
        let path = try write(Self.file)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reply = try await daemon.call(Backup.ImportCalendar.self, .init(path: path))
        #expect(reply.reminders.map(\.name) == ["Physio"])
        #expect(reply.reminders.first?.next == "2026-12-02T16:30:00+01:00")
        let before = try await daemon.call(Reminders.List.self, .init()).reminders
        await #expect(throws: VarlinkError.self) { try await daemon.call(Backup.ImportCalendar.self, .init(path: path)) }
        #expect(try await daemon.call(Reminders.List.self, .init()).reminders == before)

        await daemon.advance(to: instant("2026-12-20T00:00:00Z"))
        let firings = daemon.firings(of: "Physio")
        // On time (the import arms the wake-up: the first firing came late before), each repeated once 5 minutes on.
        #expect(firings.filter { $0.kind == .fired }.map(\.scheduled) == ["2026-12-02T15:30:00Z", "2026-12-09T15:30:00Z", "2026-12-16T15:30:00Z"].map(instant))
        #expect(firings.filter { $0.kind == .repeated }.count == 3)
    }

    /// An alarm at the event's start, and one at an instant (an absolute trigger), are an event's: announced
    /// with the event's time and dismissed, never "taken" (both became plain one-off reminders that offered
    /// Taken).
    @Test func anAlarmAtTheEventsStartOrAtAnInstantIsAnEventsNeverTaken() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T00:00:00Z"))
        let path = try write("""
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:s
            SUMMARY:Dentist
            DTSTART;TZID=Europe/Berlin:20261202T170000
            BEGIN:VALARM
            TRIGGER:PT0S
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:t
            SUMMARY:Train
            DTSTART;TZID=Europe/Berlin:20261203T090000
            RRULE:FREQ=DAILY;COUNT=3
            BEGIN:VALARM
            TRIGGER;VALUE=DATE-TIME:20261203T073000Z
            END:VALARM
            END:VEVENT
            END:VCALENDAR

            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reply = try await daemon.call(Backup.ImportCalendar.self, .init(path: path))
        #expect(reply.reminders.map(\.next) == ["2026-12-02T17:00:00+01:00", "2026-12-03T08:30:00+01:00"])
        await daemon.advance(to: instant("2026-12-06T00:00:00Z"))
        let dentist = try #require(daemon.firings(of: "Dentist").first)
        #expect(FiringWording.isEvent(dentist.firing.reminder))
        #expect(FiringWording.english.event(dentist.firing)?.text == "at Wed 17:00, starting now")
        // The absolute alarm once (RFC 5545), not with each of the three instances.
        #expect(daemon.firings(of: "Train").map(\.firing.occurrence.instant) == [instant("2026-12-03T07:30:00Z")])
        let train = try #require(daemon.firings(of: "Train").first)
        #expect(FiringWording.isEvent(train.firing.reminder))
        #expect(FiringWording.english.event(train.firing)?.text == "at Thu 09:00, in 30m")
    }

    /// The new reminders are staged and moved in one go: a name another reminder has refuses them all (nothing
    /// added, nothing staged left behind for the next import), and an id a removed reminder had (its history
    /// keeps it) is never given to an imported one.
    @Test func aTakenNameRefusesTheWholeImportAndIdsAreNeverReused() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T00:00:00Z"))
        let path = try write(Self.file)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mine = try await daemon.add("Physio", ["daily": true, "at": "09:00"], timeZone: "UTC")
        let before = try await daemon.call(Reminders.List.self, .init()).reminders
        await #expect { try await daemon.call(Backup.ImportCalendar.self, .init(path: path)) } throws: {
            "\($0)".contains("Physio")
        }
        #expect(try await daemon.call(Reminders.List.self, .init()).reminders == before)
        _ = try await daemon.call(Reminders.Remove.self, .init(reminder: "Physio"))
        let imported = try await daemon.call(Backup.ImportCalendar.self, .init(path: path)).reminders
        #expect(imported.map(\.name) == ["Physio"])
        #expect(try #require(imported.first?.id) > mine.id)
        #expect(try await daemon.call(Reminders.Get.self, .init(reminder: "Physio")).reminder.id == imported.first?.id)
    }

    /// A file with a good event and a bad one: refused at the bad one's line, and the good one is not added.
    @Test func aFileWithOneBadEventAddsNothing() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T00:00:00Z"))
        let bad = Self.file.replacingOccurrences(of: "END:VCALENDAR", with: "BEGIN:VEVENT\nSUMMARY:Bad\nDTSTART:20261205T100000\nRRULE:FREQ=DAILY;INTERVAL=0\nEND:VEVENT\nEND:VCALENDAR")
        let path = try write(bad)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = await #expect(throws: VarlinkError.self) { try await daemon.call(Backup.ImportCalendar.self, .init(path: path)) }
        #expect(error.map { "\($0)".contains(":16: RRULE: INTERVAL=0") } == true, "\(String(describing: error))")
        #expect(try await daemon.call(Reminders.List.self, .init()).reminders.allSatisfy { $0.name != "Physio" })
    }

    /// The same file, edited, imported again: refused with the way to update; with `update`, the event's reminder
    /// is changed in place (same id, its log kept), a new event added, and an alarm no longer in the file removed,
    /// in one transaction.
    @Test func importingAnEditedFileAgainWithUpdateChangesWhatCameFromItInPlace() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T00:00:00Z"))
        let twoAlarms = Self.file.replacingOccurrences(of: "END:VEVENT", with: "BEGIN:VALARM\nTRIGGER:-P1D\nEND:VALARM\nEND:VEVENT")
        let path = try write(twoAlarms)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try await daemon.call(Backup.ImportCalendar.self, .init(path: path)).reminders
        #expect(first.map(\.name) == ["Physio (30 minutes before)", "Physio (1 day before)"])
        _ = try await daemon.call(Reminders.Log.self, .init(reminder: "Physio (30 minutes before)"))
        // Moved to 18:00, its day-before alarm dropped, and a new event.
        let edited = Self.file.replacingOccurrences(of: "T170000", with: "T180000").replacingOccurrences(of: "END:VCALENDAR", with: """
            BEGIN:VEVENT
            UID:b
            SUMMARY:Dentist
            DTSTART;TZID=Europe/Berlin:20261210T090000
            BEGIN:VALARM
            TRIGGER:-PT1H
            END:VALARM
            END:VEVENT
            END:VCALENDAR
            """)
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        let refused = await #expect(throws: VarlinkError.self) { try await daemon.call(Backup.ImportCalendar.self, .init(path: path)) }
        #expect("\(String(describing: refused))".contains("add --update to change them in place"))
        #expect(try await daemon.call(Reminders.List.self, .init()).reminders.contains { $0.name == "Physio (1 day before)" })

        let updated = try await daemon.call(Backup.ImportCalendar.self, .init(path: path, update: true))
        #expect(updated.reminders.map(\.name) == ["Physio", "Dentist"])
        #expect(updated.reminders.map { $0.updated ?? false } == [true, false])
        #expect(updated.reminders.first?.id == first.first?.id)
        #expect(updated.reminders.first?.next == "2026-12-02T17:30:00+01:00")
        #expect(updated.removed == ["Physio (1 day before)"])
        let names = try await daemon.call(Reminders.List.self, .init()).reminders.map(\.name)
        #expect(names.contains("Physio") && names.contains("Dentist") && !names.contains("Physio (1 day before)"))
        let logs = try await daemon.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs
        #expect(logs.map(\.reminderName) == ["Physio"])
    }
}
