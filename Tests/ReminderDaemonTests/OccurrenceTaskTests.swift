import Foundation
import ReminderCore
import ReminderInterface
import ReminderStore
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// `collection-mode = "occurrences"`: each occurrence of the next 48 hours is a plain task that any phone task
/// app completes; a completion is a dose at its COMPLETED time, once; a cancellation a skip; a dose logged or
/// skipped anywhere closes its task; the window moves at the scheduler's wake-ups.
@Suite("Occurrence tasks")
struct OccurrenceTaskTests {
    /// One device with its collection in `occurrences` mode (and a second one, linked, when asked).
    final class Phone {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-tasks-\(UUID().uuidString)").path
        let laptop: TestDaemon
        let desktop: TestDaemon
        let link: FolderSync
        var folder: String { root + "/laptop" }

        init(now: String = "2026-12-01T06:00:00Z") async throws {
            var daemons: [TestDaemon] = []
            for name in ["laptop", "desktop"] {
                try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
                var configuration = DaemonConfiguration()
                configuration.collection = root + "/" + name
                configuration.collectionMode = .occurrences
                daemons.append(try await TestDaemon(now: instant(now), systemZone: "Europe/Berlin", configuration: configuration))
            }
            (laptop, desktop) = (daemons[0], daemons[1])
            link = FolderSync(root + "/laptop", root + "/desktop")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// The texts of the items on a device, by file name.
        func items(_ device: String = "laptop") throws -> [String: String] {
            let folder = root + "/" + device
            var texts: [String: String] = [:]
            for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".ics") {
                texts[file] = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            }
            return texts
        }

        /// The occurrence tasks of a device (their DUE lines, sorted).
        func taskDues(_ device: String = "laptop") throws -> [String] {
            try items(device).values.filter { $0.contains("X-REMINDD-OCCURRENCE-OF") }.compactMap { text in
                text.components(separatedBy: "\r\n").first { $0.hasPrefix("DUE:") }
            }.sorted()
        }

        /// The task due at `due` (`20261201T070000Z`): its file and text.
        func task(_ due: String, _ device: String = "laptop") throws -> (file: String, text: String) {
            let found = try items(device).first { $0.value.contains("X-REMINDD-OCCURRENCE-OF:") && $0.value.contains("X-REMINDD-OCCURRENCE:" + due + "\r\n") }
            return try #require(found.map { ($0.key, $0.value) })
        }

        /// A task app changes the task due at `due`: `edit` rewrites its text, and the watcher reports it.
        func phone(_ due: String, _ edit: (String) -> String) async throws {
            let (file, text) = try task(due)
            let edited = edit(text)
            #expect(edited != text)
            try edited.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
            await laptop.folderChanged(folder)
        }

        /// Both watchers report their folders.
        func readBoth() async {
            await laptop.folderChanged(folder)
            await desktop.folderChanged(root + "/desktop")
        }

        /// vdirsyncer runs `times` times, each run followed by both watchers reporting their folders.
        func syncBoth(times: Int) async throws {
            for _ in 0..<times {
                try link.sync()
                await readBoth()
            }
        }

        func logs(_ device: TestDaemon, _ date: String) async throws -> [String] {
            try await device.call(Reminders.Logs.self, .init(date: date)).logs.filter { $0.reminderName == "Metformin" }.map(\.utc)
        }

        func states(_ device: TestDaemon, _ date: String) async throws -> [String] {
            try await device.call(Reminders.Occurrences.self, .init(date: date, reminder: "Metformin")).occurrences.map(\.state)
        }
    }

    static let metformin: [String: JSONValue] = ["dose": "500", "unit": "mg", "window": "2h"]

    /// Metformin at 08:00 and 20:00 (Berlin) added on the laptop, read by the desktop, both at 07:30 UTC (08:30 there).
    static func linkedMetformin() async throws -> Phone {
        let phone = try await Phone()
        try await phone.laptop.add("Metformin", ["daily": true, "at": "08:00,20:00"], timeZone: "Europe/Berlin", metformin)
        try phone.link.sync()
        await phone.desktop.folderChanged(phone.root + "/desktop")
        await phone.laptop.advance(to: instant("2026-12-01T07:30:00Z"))
        await phone.desktop.advance(to: instant("2026-12-01T07:30:00Z"))
        return phone
    }

    @Test func eachOccurrenceOfTheNext48HoursIsAPlainTaskAndTheReminderAJournal() async throws {
        let phone = try await Phone()
        try await phone.laptop.add("Metformin", ["daily": true, "at": "08:00,20:00"], timeZone: "Europe/Berlin", Self.metformin)
        #expect(try phone.taskDues() == ["DUE:20261201T070000Z", "DUE:20261201T190000Z", "DUE:20261202T070000Z", "DUE:20261202T190000Z"])
        let task = try phone.task("20261201T070000Z").text
        for line in ["DTSTART:20261201T070000Z", "SUMMARY:Metformin\\, 500 mg", "DESCRIPTION:Take 500 mg", "TRIGGER;RELATED=END:PT0S", "BEGIN:VALARM"] {
            #expect(task.contains(line + "\r\n"), "\(line) not in\n\(task)")
        }
        #expect(!task.contains("RRULE") && !task.contains("STATUS"))
        // The reminder itself: a journal (no task, no alarm) that other remindd devices read.
        let reminder = try #require(try phone.items().values.first { $0.contains("X-REMINDD-RULE") && $0.contains("Metformin") })
        #expect(reminder.contains("BEGIN:VJOURNAL") && !reminder.contains("BEGIN:VTODO") && !reminder.contains("VALARM"), "\(reminder)")
        #expect(task.contains("RELATED-TO;RELTYPE=PARENT:" + (reminder.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }?.dropFirst(4) ?? "?")))
        // The other device reads the reminder from the journal and writes the same tasks, byte for byte.
        try phone.link.sync()
        await phone.desktop.folderChanged(phone.root + "/desktop")
        #expect(try await phone.desktop.ownReminders().map(\.name) == ["Metformin"])
        // (Each device had its own rest check-in: one is left after the next sync.)
        try phone.link.sync()
        await phone.laptop.folderChanged(phone.folder)
        await phone.desktop.folderChanged(phone.root + "/desktop")
        try phone.link.sync()
        #expect(try phone.items("desktop") == (try phone.items("laptop")))
        #expect(try phone.taskDues("desktop").count == 4)
    }

    @Test func aTaskCompletedOrCancelledInAnyAppIsADoseOrASkipOnce() async throws {
        let phone = try await Phone()
        try await phone.laptop.add("Metformin", ["daily": true, "at": "08:00,20:00"], timeZone: "Europe/Berlin", Self.metformin)
        await phone.laptop.advance(to: instant("2026-12-01T07:30:00Z"))
        // Tasks.org: STATUS and COMPLETED.
        try await phone.phone("20261201T070000Z") { $0.replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nCOMPLETED:20261201T071000Z\r\nEND:VTODO") }
        #expect(try await phone.logs(phone.laptop, "2026-12-01") == ["2026-12-01T07:10:00Z"])
        #expect(try await phone.states(phone.laptop, "2026-12-01") == ["taken", "upcoming"])
        // The dose it took, as a log here takes it (it recorded none: the stock did not count the phone's ticks).
        let logged = try await phone.laptop.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs
        #expect(logged.map(\.amount) == [500] && logged.map(\.unit) == ["mg"])
        // Read again (the watcher, a sync): still one dose; the task now says remindd closed it.
        await phone.laptop.folderChanged(phone.folder)
        #expect(try await phone.logs(phone.laptop, "2026-12-01") == ["2026-12-01T07:10:00Z"])
        #expect(try phone.task("20261201T070000Z").text.contains("X-REMINDD-CLOSED:TAKEN\r\n"))
        // jtx Board style: PERCENT-COMPLETE and COMPLETED, no STATUS; taken ahead of its time: it suppresses it.
        await phone.laptop.advance(to: instant("2026-12-01T18:50:00Z"))
        try await phone.phone("20261201T190000Z") { $0.replacingOccurrences(of: "END:VTODO", with: "PERCENT-COMPLETE:100\r\nCOMPLETED:20261201T184500Z\r\nEND:VTODO") }
        #expect(try await phone.logs(phone.laptop, "2026-12-01") == ["2026-12-01T07:10:00Z", "2026-12-01T18:45:00Z"])
        await phone.laptop.advance(to: instant("2026-12-01T19:00:01Z"))
        #expect(phone.laptop.firings(of: "Metformin").last?.kind == .suppressed)
        // Cancelled (any app): tomorrow morning's dose is skipped, and not announced.
        try await phone.phone("20261202T070000Z") { $0.replacingOccurrences(of: "END:VTODO", with: "STATUS:CANCELLED\r\nEND:VTODO") }
        #expect(try await phone.states(phone.laptop, "2026-12-02") == ["skipped", "upcoming"])
        // A completion without COMPLETED: at the time it was seen.
        await phone.laptop.advance(to: instant("2026-12-02T19:05:00Z"))
        try await phone.phone("20261202T190000Z") { $0.replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nEND:VTODO") }
        #expect(try await phone.logs(phone.laptop, "2026-12-02") == ["2026-12-02T19:05:00Z"])
        #expect(!phone.laptop.announcer.occurrences.contains { $0.state == .missed })
    }

    @Test func aDoseLoggedOrSkippedHereOrMissedClosesItsTaskAndThePhoneCannotDoubleIt() async throws {
        let phone = try await Phone()
        try await phone.laptop.add("Metformin", ["daily": true, "at": "08:00,20:00"], timeZone: "Europe/Berlin", Self.metformin)
        await phone.laptop.advance(to: instant("2026-12-01T07:05:00Z"))
        let before = try phone.task("20261201T070000Z").text
        try await phone.laptop.log("Metformin")
        let closed = try phone.task("20261201T070000Z").text
        #expect(closed.contains("STATUS:COMPLETED\r\nCOMPLETED:20261201T070500Z\r\nPERCENT-COMPLETE:100\r\n"), "\(closed)")
        // A phone that had not synced yet ticks it too (its version wins the conflict): still one dose.
        try before.replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nCOMPLETED:20261201T070700Z\r\nEND:VTODO")
            .write(toFile: phone.folder + "/" + phone.task("20261201T070000Z").file, atomically: true, encoding: .utf8)
        await phone.laptop.folderChanged(phone.folder)
        #expect(try await phone.logs(phone.laptop, "2026-12-01") == ["2026-12-01T07:05:00Z"])
        _ = try await phone.laptop.call(Reminders.Skip.self, .init(reminder: "Metformin", reason: "fasting"))
        let skipped = try phone.task("20261201T190000Z").text
        #expect(skipped.contains("STATUS:CANCELLED\r\nX-REMINDD-CLOSED:SKIPPED\r\n"), "\(skipped)")
        // Missed at its window's end (2 h): cancelled for the apps too.
        await phone.laptop.advance(to: instant("2026-12-02T09:00:01Z"))
        #expect(phone.laptop.announcer.occurrences.contains { $0.state == .missed })
        #expect(try phone.task("20261202T070000Z").text.contains("STATUS:CANCELLED\r\nX-REMINDD-CLOSED:MISSED\r\n"))
    }

    @Test func theWindowMovesAtTheSchedulersWakeUpsAndOldTasksGo() async throws {
        let phone = try await Phone()
        try await phone.laptop.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin", Self.metformin)
        #expect(try phone.taskDues() == ["DUE:20261201T070000Z", "DUE:20261202T070000Z"])
        // Dec 3 08:00 comes into the window 48 h before it: at Dec 1 07:00, not later.
        await phone.laptop.advance(to: instant("2026-12-01T07:00:00Z"))
        #expect(try phone.taskDues() == ["DUE:20261201T070000Z", "DUE:20261202T070000Z", "DUE:20261203T070000Z"])
        await phone.laptop.advance(to: instant("2026-12-03T07:00:02Z"))
        #expect(try phone.taskDues() == ["DUE:20261202T070000Z", "DUE:20261203T070000Z", "DUE:20261204T070000Z", "DUE:20261205T070000Z"])
        // A changed schedule: the tasks of the old times go, the new ones ahead come (none for the times it did not
        // have before the change).
        _ = try await phone.laptop.call(Reminders.Update.self, .init(reminder: "Metformin", rule: .init(daily: true, at: "09:00")))
        #expect(try phone.taskDues() == ["DUE:20261203T080000Z", "DUE:20261204T080000Z"])
        // Removed: its tasks go with it.
        _ = try await phone.laptop.call(Reminders.Remove.self, .init(reminder: "Metformin"))
        #expect(try phone.taskDues().isEmpty)
    }

    /// Two devices whose windows move at the same instant: only the reminder's current writer (who wrote its
    /// latest task) writes the new task; the other reads it and writes nothing (both wrote it, and the second
    /// upload failed at every move: a 409 and a failed sync in the journal). With the writer off, the other
    /// still writes it, 12 hours later and 36 hours before its time, and is the writer from then on.
    @Test func aNewTaskIsWrittenByOneDeviceOnly() async throws {
        let phone = try await Phone()
        try await phone.laptop.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin", Self.metformin)
        func syncBoth() async throws { try await phone.syncBoth(times: 2) }
        try await syncBoth()
        let ids = try [phone.laptop, phone.desktop].map { try ReminderStore(database: $0.database).collection.instanceID() }
        // The laptop wrote the first tasks (the desktop read them): each says so, on both devices.
        #expect(try phone.task("20261201T070000Z", "desktop").text.contains("X-REMINDD-WRITER:" + ids[0] + "\r\n"))
        // Dec 3 08:00 comes into both windows at Dec 1 07:00: the laptop writes it, the desktop reads it.
        await phone.laptop.advance(to: instant("2026-12-01T07:00:00Z"))
        await phone.desktop.advance(to: instant("2026-12-01T07:00:00Z"))
        #expect(try phone.taskDues("laptop").contains("DUE:20261203T070000Z"))
        #expect(try !phone.taskDues("desktop").contains("DUE:20261203T070000Z"))
        try phone.link.sync()
        await phone.desktop.folderChanged(phone.root + "/desktop")
        #expect(try phone.link.sync() == 0 && phone.link.conflicts.isEmpty)  // read, not written again
        #expect(try phone.items("laptop") == (try phone.items("desktop")))
        // The laptop is off: Dec 4's task comes from the desktop at Dec 2 19:00, not at 07:00.
        await phone.desktop.advance(to: instant("2026-12-02T07:00:00Z"))
        #expect(try !phone.taskDues("desktop").contains("DUE:20261204T070000Z"))
        await phone.desktop.advance(to: instant("2026-12-02T19:00:00Z"))
        #expect(try phone.task("20261204T070000Z", "desktop").text.contains("X-REMINDD-WRITER:" + ids[1] + "\r\n"))
        // The laptop wakes up: it catches up (writing Dec 4's too, before it has read the desktop's: the one
        // conflict, settled to the later version); the desktop is the writer now, and the laptop writes Dec 5's
        // no sooner than it.
        await phone.laptop.advance(to: instant("2026-12-02T19:00:00Z"))
        try await syncBoth()
        #expect(phone.link.conflicts.map(\.name) == [try phone.task("20261204T070000Z", "desktop").file])
        #expect(try phone.task("20261204T070000Z", "laptop").text.contains("X-REMINDD-WRITER:" + ids[1] + "\r\n"))
        await phone.laptop.advance(to: instant("2026-12-03T07:00:00Z"))
        await phone.desktop.advance(to: instant("2026-12-03T07:00:00Z"))
        #expect(try !phone.taskDues("laptop").contains("DUE:20261205T070000Z"))
        #expect(try phone.taskDues("desktop").contains("DUE:20261205T070000Z"))
        try await syncBoth()
        #expect(phone.link.conflicts.count == 1)
        #expect(try phone.items("laptop") == (try phone.items("desktop")))
    }

    @Test func aCompletionIsReadByBothDevicesAsOneDose() async throws {
        let phone = try await Self.linkedMetformin()
        // The phone's change reaches both folders (the server), and both read it before either syncs again.
        let (file, text) = try phone.task("20261201T070000Z")
        let completed = text.replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nCOMPLETED:20261201T071000Z\r\nEND:VTODO")
        for device in ["laptop", "desktop"] { try completed.write(toFile: phone.root + "/" + device + "/" + file, atomically: true, encoding: .utf8) }
        await phone.readBoth()
        try await phone.syncBoth(times: 3)
        #expect(try await phone.logs(phone.laptop, "2026-12-01") == ["2026-12-01T07:10:00Z"])
        #expect(try await phone.logs(phone.desktop, "2026-12-01") == ["2026-12-01T07:10:00Z"])
        #expect(try phone.items("laptop") == (try phone.items("desktop")))
    }

    /// #61 item 2: two phones tick one dose at different times, each reaching another computer first (the
    /// server kept one version, after each computer had read the other): every device ends with one dose, at one
    /// time, the same on all.
    @Test func twoCompletionsOfOneOccurrenceConvergeToOneDoseAtOneTime() async throws {
        let phone = try await Self.linkedMetformin()
        let (file, text) = try phone.task("20261201T070000Z")
        for (device, minute) in [("laptop", "10"), ("desktop", "20")] {
            let completed = text.replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nCOMPLETED:20261201T07\(minute)00Z\r\nEND:VTODO")
            try completed.write(toFile: phone.root + "/" + device + "/" + file, atomically: true, encoding: .utf8)
        }
        await phone.readBoth()
        try await phone.syncBoth(times: 3)
        let laptop = try await phone.logs(phone.laptop, "2026-12-01")
        #expect(laptop.count == 1, "\(laptop)")
        #expect(try await phone.logs(phone.desktop, "2026-12-01") == laptop)
        #expect(try phone.items("laptop") == (try phone.items("desktop")))
    }

    /// #61 item 2, decided: a task deleted in an app is no skip (a whole list deleted at once would silence two
    /// days of doses); it is written again while in the window, the same on every device, and its dose fires.
    @Test func aTaskDeletedInAnAppIsWrittenAgainOnEveryDeviceAndItsDoseFires() async throws {
        let phone = try await Self.linkedMetformin()
        let (file, _) = try phone.task("20261201T190000Z")
        try FileManager.default.removeItem(atPath: phone.folder + "/" + file)
        try FileManager.default.removeItem(atPath: phone.root + "/desktop/" + file)  // the server's deletion reached both
        await phone.readBoth()
        for device in [phone.laptop, phone.desktop] { await device.advance(by: PendingRemovals.quietSeconds) }
        try await phone.syncBoth(times: 2)
        #expect(try phone.task("20261201T190000Z").file == file)
        #expect(try phone.task("20261201T190000Z", "desktop").file == file)
        #expect(try await phone.states(phone.laptop, "2026-12-01") == ["due", "upcoming"])
        #expect(try await phone.states(phone.desktop, "2026-12-01").last == "upcoming")
        await phone.laptop.advance(to: instant("2026-12-01T19:00:01Z"))
        #expect(phone.laptop.firings(of: "Metformin").last?.kind == .fired)
    }

    @Test func hostileTasksAreRefusedAndSaidOnce() async throws {
        let phone = try await Phone()
        try await phone.laptop.add("Metformin", ["daily": true, "at": "08:00,20:00"], timeZone: "Europe/Berlin", Self.metformin)
        await phone.laptop.advance(to: instant("2026-12-01T07:30:00Z"))
        let (_, text) = try phone.task("20261201T070000Z")
        let uid = try #require(text.components(separatedBy: "\r\n").first { $0.hasPrefix("X-REMINDD-OCCURRENCE-OF:") }).dropFirst("X-REMINDD-OCCURRENCE-OF:".count)
        let cases = [
            ("unknown", text.replacingOccurrences(of: String(uid), with: "no-such-reminder").replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nEND:VTODO")),
            ("1900", text.replacingOccurrences(of: "UID:", with: "UID:x").replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nCOMPLETED:19000101T000000Z\r\nEND:VTODO")),
            ("9999", text.replacingOccurrences(of: "UID:", with: "UID:y").replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nCOMPLETED:99991231T000000Z\r\nEND:VTODO")),
            ("not-an-occurrence", text.replacingOccurrences(of: "UID:", with: "UID:z").replacingOccurrences(of: "X-REMINDD-OCCURRENCE:20261201T070000Z", with: "X-REMINDD-OCCURRENCE:20261201T071300Z")
                .replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nEND:VTODO")),
            ("garbage", text.replacingOccurrences(of: "X-REMINDD-OCCURRENCE:20261201T070000Z", with: "X-REMINDD-OCCURRENCE:yesterday")),
        ]
        for (name, hostile) in cases { try hostile.write(toFile: phone.folder + "/hostile-\(name).ics", atomically: true, encoding: .utf8) }
        await phone.laptop.folderChanged(phone.folder)
        await phone.laptop.folderChanged(phone.folder)
        #expect(try await phone.logs(phone.laptop, "2026-12-01").isEmpty)
        #expect(try await phone.laptop.call(Reminders.Logs.self, .init(date: "1900-01-01")).logs.isEmpty)
        let said = phone.laptop.announcer.messages.filter { $0.contains("hostile-") }
        #expect(said.count == cases.count, "\(said)")
        #expect(try await phone.states(phone.laptop, "2026-12-01") == ["due", "upcoming"])
    }

    /// #57 item 2: a task app's "complete all" over today's and tomorrow's twelve Metformin tasks made twelve doses of
    /// 500 mg in one second, and today's six occurrences were shown as suppressed and never announced. Now a task
    /// is only its own occurrence's dose: the one due within 30 minutes is taken; the eleven ahead are no doses,
    /// said in one line, and today's other five are announced at their times.
    @Test func tasksTickedAheadAreNoDosesAndSilenceNothing() async throws {
        let phone = try await Phone()
        try await phone.laptop.add("Metformin", ["daily": true, "at": "08:00,10:00,12:00,14:00,16:00,18:00"], timeZone: "Europe/Berlin", Self.metformin)
        await phone.laptop.advance(to: instant("2026-12-01T06:35:00Z"))
        let dues = try phone.taskDues().map { String($0.dropFirst("DUE:".count)) }
        #expect(dues.count == 12)
        for due in dues {
            let (file, text) = try phone.task(due)
            try text.replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nCOMPLETED:20261201T063500Z\r\nEND:VTODO")
                .write(toFile: phone.folder + "/" + file, atomically: true, encoding: .utf8)
        }
        await phone.laptop.folderChanged(phone.folder)
        #expect(try await phone.logs(phone.laptop, "2026-12-01") == ["2026-12-01T06:35:00Z"], "one dose: 08:00's, ticked 25 minutes early")
        #expect(try await phone.logs(phone.laptop, "2026-12-02").isEmpty)
        #expect(try await phone.states(phone.laptop, "2026-12-01") == ["suppressed", "upcoming", "upcoming", "upcoming", "upcoming", "upcoming"])
        let said = phone.laptop.announcer.messages.filter { $0.contains("marked done before") }
        #expect(said.count == 1 && said[0].contains("11 tasks"), "\(said)")
        await phone.laptop.advance(to: instant("2026-12-01T17:00:30Z"))
        #expect(phone.laptop.firings(of: "Metformin").map(\.kind) == [.suppressed, .fired, .fired, .fired, .fired, .fired])
    }

    /// 500 tasks completed at one instant (three reminders every 10 minutes): at most one dose per occurrence, and
    /// only for the occurrence next due within 30 minutes: three doses, not 500.
    @Test func fiveHundredTasksCompletedAtOnceAreAtMostTheirOwnOccurrencesDoses() async throws {
        let phone = try await Phone()
        for name in ["Metformin", "Water", "Stretch"] {
            try await phone.laptop.add(name, ["every": "10m", "start": "2026-12-01T06:05"], timeZone: "UTC")
        }
        let tasks = try phone.items().filter { $0.value.contains("X-REMINDD-OCCURRENCE-OF:") }.sorted { $0.key < $1.key }.prefix(500)
        #expect(tasks.count == 500)
        for (file, text) in tasks {
            try text.replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nCOMPLETED:20261201T060000Z\r\nEND:VTODO")
                .write(toFile: phone.folder + "/" + file, atomically: true, encoding: .utf8)
        }
        await phone.laptop.folderChanged(phone.folder)
        let logs = try await phone.laptop.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs
        #expect(logs.count <= 3 && Set(logs.map(\.reminderName)).count == logs.count, "\(logs.map(\.reminderName))")
        #expect(try await phone.laptop.call(Reminders.Logs.self, .init(date: "2026-12-02")).logs.isEmpty)
    }
}
