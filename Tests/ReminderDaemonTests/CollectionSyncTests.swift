import Foundation
import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Two devices ("laptop" and "desktop"), each with its remindd and its own copy of a linked collection, kept in
/// step by a vdirsyncer-like two-way sync (``FolderSync``), on one manual time: what is added, logged, skipped,
/// changed or removed on one is on the other after a sync, and no log is lost.
@Suite("Linked collection")
struct CollectionSyncTests {
    /// Two daemons, two folders and the sync between them, from `now`.
    final class Devices {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-devices-\(UUID().uuidString)").path
        let laptop: TestDaemon
        let desktop: TestDaemon
        let link: FolderSync

        init(now: String) async throws {
            var daemons: [TestDaemon] = []
            for name in ["laptop", "desktop"] {
                try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
                var configuration = DaemonConfiguration()
                configuration.collection = root + "/" + name
                daemons.append(try await TestDaemon(now: instant(now), systemZone: "Europe/Berlin", configuration: configuration))
            }
            (laptop, desktop) = (daemons[0], daemons[1])
            link = FolderSync(root + "/laptop", root + "/desktop")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// vdirsyncer runs, then each daemon's watcher reports its folder.
        func sync() async throws {
            try link.sync()
            await laptop.folderChanged(root + "/laptop")
            await desktop.folderChanged(root + "/desktop")
        }

        /// vdirsyncer runs, then each daemon's watcher names the entries it changed there (as inotify does).
        func syncNamed() async throws {
            try link.sync()
            await laptop.folderChanged(root + "/laptop", names: link.changedNames.a)
            await desktop.folderChanged(root + "/desktop", names: link.changedNames.b)
        }

        /// Time passes on both devices until the items each found gone are applied as deletions made elsewhere
        /// (``PendingRemovals``: a folder being emptied is not taken for them).
        func letRemovalsSettle() async {
            let then = laptop.clock.now().adding(seconds: PendingRemovals.quietSeconds)
            await laptop.advance(to: then)
            await desktop.advance(to: then)
        }

        /// Time passes on both devices.
        func advance(to text: String) async {
            await laptop.advance(to: instant(text))
            await desktop.advance(to: instant(text))
        }

        func files(_ device: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: root + "/" + device).filter { $0.hasSuffix(".ics") }.sorted()
        }
    }

    /// The first publish (every reminder) is the start-up read's: a call made before it (the calendars are read
    /// first) returns without publishing, where it ran that publish itself and waited for it (43 s with 100,000
    /// reminders); the read then publishes the change with the rest.
    @Test func aCallBeforeTheFirstReadDoesNotPublishEverythingItself() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-first-read-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = DaemonConfiguration()
        configuration.collection = folder
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), configuration: configuration, readsFolders: false)
        try await daemon.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "UTC")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        await daemon.current.scanFolders()
        let items = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ics") }
        let texts = try items.map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
        #expect(texts.filter { $0.contains("SUMMARY:Metformin") }.count == 1)
    }

    @Test func aReminderAddedOnTheLaptopFiresOnTheDesktopAtTheSameInstant() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Vitamin D", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin", ["window": "2h", "repeat": "10m"])
        #expect(try devices.files("laptop").count == 2)  // with the weekly rest check-in, built in on each device
        try await devices.sync()
        let mirrored = try #require(try await devices.desktop.ownReminders().first { $0.name == "Vitamin D" })
        #expect(mirrored.timeZone == "Europe/Berlin" && mirrored.windowSeconds == 7200 && mirrored.delivery.repeating.plan?.intervalSeconds == 600)
        #expect(mirrored.next?.utc == "2026-12-01T07:00:00Z")
        await devices.advance(to: "2026-12-01T07:00:01Z")
        #expect(devices.laptop.firings(of: "Vitamin D").map(\.scheduled) == [instant("2026-12-01T07:00:00Z")])
        #expect(devices.desktop.firings(of: "Vitamin D").map(\.scheduled) == [instant("2026-12-01T07:00:00Z")])
        // Each device had its own rest check-in: after the next sync one of them (the same on both) is left.
        try await devices.sync()
        #expect(try devices.files("laptop") == (try devices.files("desktop")))
        #expect(try devices.files("laptop").count == 2)
        let (laptop, desktop) = (try await devices.laptop.ownReminders(), try await devices.desktop.ownReminders())
        #expect(laptop.count == 1 && laptop == desktop)
        // Synced again with nothing changed: no file is written on either side.
        let before = try devices.files("laptop").map { try FileManager.default.attributesOfItem(atPath: devices.root + "/laptop/" + $0)[.modificationDate] as? Date }
        #expect(try devices.link.sync() == 0)
        try await devices.sync()
        let after = try devices.files("laptop").map { try FileManager.default.attributesOfItem(atPath: devices.root + "/laptop/" + $0)[.modificationDate] as? Date }
        #expect(before == after)
    }

    @Test func doneOnTheLaptopBeforeTheInstantIsNotAnnouncedOnTheDesktop() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Vitamin D", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin", ["window": "2h"])
        try await devices.sync()
        await devices.advance(to: "2026-12-01T06:50:00Z")
        try await devices.laptop.log("Vitamin D")
        try await devices.sync()
        await devices.advance(to: "2026-12-01T07:30:00Z")
        #expect(devices.desktop.firings(of: "Vitamin D").map(\.kind) == [.suppressed])
        // As on the laptop: logged ahead of its time (suppressed), at the laptop's time.
        let today = try await devices.desktop.call(Reminders.Occurrences.self, .init(date: "2026-12-01", reminder: "Vitamin D")).occurrences
        #expect(today == (try await devices.laptop.call(Reminders.Occurrences.self, .init(date: "2026-12-01", reminder: "Vitamin D")).occurrences).map {
            var same = $0
            (same.reminderId, same.slot) = (today.first?.reminderId ?? 0, today.first?.slot ?? "")
            return same
        })
        #expect(today.map(\.state) == ["suppressed"])
        #expect(today.first?.loggedUtc == "2026-12-01T06:50:00Z")
    }

    @Test func doneOnTheLaptopAfterBothFiredStopsTheDesktopsRepeatsAndNeitherRecordsMissed() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Vitamin D", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin", ["window": "2h", "repeat": "10m"])
        try await devices.sync()
        await devices.advance(to: "2026-12-01T07:05:00Z")
        _ = try await devices.laptop.call(Reminders.Done.self, .init(reminder: "Vitamin D"))
        try await devices.sync()
        #expect(devices.desktop.announcer.occurrences.map(\.state) == [.taken])  // its notification closes
        await devices.advance(to: "2026-12-01T10:00:00Z")
        #expect(devices.desktop.firings(of: "Vitamin D").map(\.kind) == [.fired])  // no repeat after the sync
        #expect(!devices.laptop.announcer.occurrences.contains { $0.state == .missed })
        #expect(!devices.desktop.announcer.occurrences.contains { $0.state == .missed })
    }

    @Test func aDoseAndTheAmountEachLogTookReachTheOtherDeviceButNeverItsEscalationCommand() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin", [
            "dose": "2", "unit": "tablet", "escalateCommand": .array(["/bin/true"]),
        ])
        try await devices.sync()
        let there = try await devices.desktop.call(Reminders.Get.self, .init(reminder: "Metformin")).reminder
        #expect(there.delivery.medication.dose == 2 && there.delivery.medication.unit == "tablet" && there.delivery.escalation.command == nil)
        _ = try await devices.laptop.call(Reminders.Log.self, .init(reminder: "Metformin", amount: "1"))
        try await devices.sync()
        let logs = try await devices.desktop.call(Reminders.Logs.self, .init(date: "2026-12-01", reminder: "Metformin")).logs
        #expect(logs.map(\.amount) == [1] && logs.map(\.unit) == ["tablet"])
    }

    /// A medication's safety settings go with it: a dose the laptop's limits refuse is refused on the desktop
    /// too, and a tapering course says the same step on both.
    @Test func doseLimitsATaperAndAsNeededReachTheOtherDevice() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Ibuprofen", ["asNeeded": true], ["dose": "400mg", "minInterval": "6h", "maxPerDay": .number(3)])
        try await devices.laptop.add("Prednisone", ["daily": true, "at": "08:00"], timeZone: "UTC", ["steps": "40mg until 2026-12-02; 20mg until 2026-12-04"])
        try await devices.sync()
        let ibuprofen = try await devices.desktop.call(Reminders.Get.self, .init(reminder: "Ibuprofen")).reminder
        #expect(ibuprofen.rule.asNeeded == true && ibuprofen.delivery.medication.minIntervalSeconds == 6 * 3600 && ibuprofen.delivery.medication.maxPerDay == 3)
        let prednisone = try await devices.desktop.call(Reminders.Get.self, .init(reminder: "Prednisone")).reminder
        #expect(prednisone.delivery.medication.steps?.map(\.dose) == [40, 20] && prednisone.rule.until == "2026-12-04")
        _ = try await devices.laptop.call(Reminders.Done.self, .init(reminder: "Ibuprofen"))
        try await devices.sync()
        await #expect { try await devices.desktop.call(Reminders.Done.self, .init(reminder: "Ibuprofen")) } throws: {
            ($0 as? VarlinkError)?.name == "io.remindd.Reminders.DoseNotAllowed"
        }
    }

    @Test func skippedOnTheDesktopIsSkippedOnTheLaptop() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Vitamin D", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin")
        try await devices.sync()
        _ = try await devices.desktop.call(Reminders.Skip.self, .init(reminder: "Vitamin D", reason: "blood test"))
        try await devices.sync()
        let today = try await devices.laptop.call(Reminders.Occurrences.self, .init(date: "2026-12-01", reminder: "Vitamin D")).occurrences
        #expect(today.map(\.state) == ["skipped"])
        await devices.advance(to: "2026-12-01T08:00:00Z")
        #expect(devices.laptop.firings(of: "Vitamin D").allSatisfy { $0.kind != .fired })
    }

    /// The watcher names the entries a sync changed: those alone are looked at (not the folder and every row),
    /// and a reminder, a change, a log, a skip and a removal each arrive as with a whole scan.
    @Test func theEntriesTheWatcherNamesCarryEveryKindOfChange() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Vitamin D", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin")
        try await devices.laptop.add("Iron", ["daily": true, "at": "09:00"], timeZone: "Europe/Berlin")
        try await devices.syncNamed()
        #expect(Set(try await devices.desktop.ownReminders().map(\.name)) == ["Vitamin D", "Iron"])
        _ = try await devices.desktop.call(Reminders.Update.self, .init(reminder: "Iron", rule: RuleSpec(daily: true, at: "10:00")))
        _ = try await devices.desktop.call(Reminders.Skip.self, .init(reminder: "Vitamin D", reason: "blood test"))
        await devices.advance(to: "2026-12-01T07:30:00Z")
        try await devices.desktop.log("Iron")
        try await devices.syncNamed()
        // The same reminders (the desktop added them in the order its scan met their items).
        #expect(Set(try await devices.laptop.ownReminders()) == Set(try await devices.desktop.ownReminders()))
        #expect(try await devices.laptop.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.map(\.reminderName) == ["Iron"])
        let today = try await devices.laptop.call(Reminders.Occurrences.self, .init(date: "2026-12-01", reminder: "Vitamin D")).occurrences
        #expect(today.map(\.state) == ["skipped"])
        _ = try await devices.desktop.call(Reminders.Remove.self, .init(reminder: "Iron"))
        try await devices.syncNamed()
        await devices.letRemovalsSettle()
        #expect(try await devices.laptop.ownReminders().map(\.name) == ["Vitamin D"])
    }

    @Test func updatedOnOneAndDeletedOnTheOtherEndsTheSameOnBoth() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Vitamin D", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin")
        try await devices.sync()
        _ = try await devices.laptop.call(Reminders.Update.self, .init(reminder: "Vitamin D", rule: RuleSpec(daily: true, at: "09:00")))
        _ = try await devices.desktop.call(Reminders.Remove.self, .init(reminder: "Vitamin D"))
        try await devices.sync()
        try await devices.sync()
        #expect(try await devices.laptop.ownReminders() == (try await devices.desktop.ownReminders()))
    }

    @Test func editedOnBothBetweenTwoSyncsEndsIdenticalWithTheConflictNotedAndNoLogLost() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Vitamin D", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin")
        try await devices.sync()
        await devices.advance(to: "2026-12-01T07:01:00Z")
        try await devices.laptop.log("Vitamin D")
        _ = try await devices.laptop.call(Reminders.Update.self, .init(reminder: "Vitamin D", rule: RuleSpec(daily: true, at: "08:30")))
        await devices.advance(to: "2026-12-01T07:02:00Z")
        try await devices.desktop.log("Vitamin D")
        _ = try await devices.desktop.call(Reminders.Update.self, .init(reminder: "Vitamin D", rule: RuleSpec(daily: true, at: "09:00")))
        try await devices.sync()
        try await devices.sync()
        #expect(devices.link.conflicts.count == 1)
        let laptop = try await devices.laptop.ownReminders()
        #expect(laptop == (try await devices.desktop.ownReminders()))
        #expect(laptop.first?.rule.at == "09:00")  // the later change
        let logs = try await devices.laptop.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.map(\.utc)
        #expect(logs == ["2026-12-01T07:01:00Z", "2026-12-01T07:02:00Z"])
        #expect(try await devices.desktop.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.map(\.utc) == logs)
    }

    /// Thunderbird and jtx Board mark one instance of a recurring task done with an override (RECURRENCE-ID,
    /// STATUS:COMPLETED) in the task's own file: that occurrence is taken, once, at the COMPLETED time.
    @Test func anInstanceMarkedDoneByAnotherClientIsTakenOnce() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Vitamin D", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin", ["window": "2h"])
        let folder = devices.root + "/laptop"
        let file = try #require(try devices.files("laptop").first { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8).contains("SUMMARY:Vitamin D") })
        let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
        let uid = try #require(text.split(separator: "\r\n").first { $0.hasPrefix("UID:") }).dropFirst(4)
        let override = "BEGIN:VTODO\r\nUID:\(uid)\r\nRECURRENCE-ID;TZID=Europe/Berlin:20261201T080000\r\nSUMMARY:Vitamin D\r\nSTATUS:COMPLETED\r\nCOMPLETED:20261201T070500Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        try text.replacingOccurrences(of: "END:VCALENDAR\r\n", with: override).write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
        devices.laptop.clock.set(instant("2026-12-01T07:10:00Z"))
        await devices.laptop.folderChanged(folder)
        await devices.laptop.folderChanged(folder)
        let today = try await devices.laptop.call(Reminders.Occurrences.self, .init(date: "2026-12-01", reminder: "Vitamin D")).occurrences
        #expect(today.map(\.state) == ["taken"])
        #expect(today.first?.loggedUtc == "2026-12-01T07:05:00Z")
        #expect(try await devices.laptop.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.count == 1)
        // Kept in the task's file (not a log item of its own), and the override survives remindd's rewrites.
        #expect(try devices.files("laptop").count == 2)
        _ = try await devices.laptop.call(Reminders.Update.self, .init(reminder: "Vitamin D", window: "3h"))
        #expect(try String(contentsOfFile: folder + "/" + file, encoding: .utf8).contains("RECURRENCE-ID;TZID=Europe/Berlin:20261201T080000\r\n"))
    }

    /// A dose's item read before its reminder's (another sync brings the reminder later, and the watcher names
    /// only that file): it waits, and is applied when the reminder comes (it was read again only at a whole
    /// scan, which a named one never is: a dose on one device only, found with Xandikos, #61).
    @Test func aDoseReadBeforeItsReminderIsAppliedWhenTheReminderComesInALaterNamedScan() async throws {
        let devices = try await Devices(now: "2026-12-01T08:00:00Z")
        try await devices.desktop.add("Iron", ["daily": true, "at": "09:00"], timeZone: "Europe/Berlin")
        try await devices.desktop.log("Iron")
        let (desktop, laptop) = (devices.root + "/desktop", devices.root + "/laptop")
        let files = try devices.files("desktop")
        let text = { (file: String) in try String(contentsOfFile: desktop + "/" + file, encoding: .utf8) }
        let logFile = try #require(try files.first { try text($0).contains("X-REMINDD-RECORD:TAKEN") })
        let reminderFile = try #require(try files.first { try text($0).contains("SUMMARY:Iron\r\n") && !text($0).contains("X-REMINDD-RECORD") })
        try text(logFile).write(toFile: laptop + "/" + logFile, atomically: true, encoding: .utf8)
        await devices.laptop.folderChanged(laptop, names: [logFile])
        #expect(try await devices.laptop.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.isEmpty)
        try text(reminderFile).write(toFile: laptop + "/" + reminderFile, atomically: true, encoding: .utf8)
        await devices.laptop.folderChanged(laptop, names: [reminderFile])
        let logs = try await devices.laptop.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs
        #expect(logs.map(\.reminderName) == ["Iron"] && logs.map(\.utc) == ["2026-12-01T08:00:00Z"], "\(logs)")
    }

    /// A collection is untrusted input: each bad item is refused and reported once, and the good one beside it works.
    @Test func hostileItemsInTheCollectionAreRefusedAndReportedOnce() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.desktop.add("Good", ["daily": true, "at": "09:00"], timeZone: "Europe/Berlin")
        try await devices.desktop.add("Duplicate", ["daily": true, "at": "10:00"], timeZone: "Europe/Berlin")
        let good = try devices.files("desktop")
        try devices.link.sync()
        let folder = devices.root + "/laptop"
        let rule = #"{"rrule":"FREQ=MINUTELY;COUNT=1000000000"\,"start":"2026-12-01T08:00"}"#
        let reminder = { (uid: String, rule: String) in
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:Hostile\r\nX-REMINDD-RULE:\(rule)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        }
        try reminder("billion", rule).write(toFile: folder + "/billion.ics", atomically: true, encoding: .utf8)
        try reminder("exec", #"{"daily":true\,"at":"25:00"}"#).write(toFile: folder + "/badrule.ics", atomically: true, encoding: .utf8)
        try String(repeating: "X", count: 50 << 20).write(toFile: folder + "/huge.ics", atomically: true, encoding: .utf8)
        let many = (0..<10_000).map { "BEGIN:VTODO\r\nUID:m\($0)\r\nEND:VTODO\r\n" }.joined()
        try "BEGIN:VCALENDAR\r\n\(many)END:VCALENDAR\r\n".write(toFile: folder + "/many.ics", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.ics", withDestinationPath: "/etc/passwd")
        try "x".write(toFile: folder + "/new\nline.ics", atomically: true, encoding: .utf8)
        // Another file claiming the UID of a reminder already here.
        let copied = try String(contentsOfFile: folder + "/" + good[0], encoding: .utf8).replacingOccurrences(of: "SUMMARY:", with: "SUMMARY:Impostor ")
        try copied.write(toFile: folder + "/impostor.ics", atomically: true, encoding: .utf8)
        await devices.laptop.folderChanged(folder)
        await devices.laptop.folderChanged(folder)
        let names = try await devices.laptop.ownReminders().map(\.name)
        #expect(names == ["Duplicate", "Good"] || names == ["Good", "Duplicate"], "\(names)")
        let reports = devices.laptop.announcer.messages.filter { $0.hasPrefix("Collection: item") }
        for name in ["billion.ics", "badrule.ics", "huge.ics", "link.ics", "\"new\\nline.ics\"", "impostor.ics"] {
            #expect(reports.filter { $0.contains("item \(name) ") }.count == 1, "\(name): \(reports)")
        }
        #expect(!names.contains { $0.hasPrefix("Hostile") || $0.hasPrefix("Impostor") })
    }
}

extension TestDaemon {
    /// The user's reminders (the built-in habit notice left out), with the ids and slots each device gives its
    /// own set to 0.
    func ownReminders() async throws -> [ReminderValue] {
        try await call(Reminders.List.self, .init()).reminders.filter { $0.name != "Planning a rest day this week?" }.map { reminder in
            var same = reminder
            same.id = 0
            same.next?.reminderId = 0
            same.next?.slot = ""
            return same
        }
    }
}
