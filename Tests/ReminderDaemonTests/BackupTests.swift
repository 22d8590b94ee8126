import Foundation
import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Backup and restore through the daemon: a round trip gives the same tables and the same answers; what is
/// refused changes nothing; a merge adds only what is not there.
@Suite("Backup: export and import")
struct BackupTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-backup-\(UUID().uuidString)").path

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// A store a user would have after some weeks: reminders of several kinds and zones, logs, a skip, a
    /// snooze, rest days, workouts, food, a weight.
    func lived(now start: Instant) async throws -> TestDaemon {
        let daemon = try await TestDaemon(now: start)
        try await daemon.add("Pills", ["preset": "Twice a Day", "start": "08:00"], timeZone: "Europe/Berlin", [
            "window": "2h", "repeat": "10m", "repeatMax": 3, "dose": "1", "unit": "tablet", "refillDays": 5, "escalateCommand": .array(["/bin/true"]),
            "escalateAfter": "30m",
        ])
        try await daemon.add("Ibuprofen", ["asNeeded": true], timeZone: "UTC", ["dose": "400mg", "minInterval": "6h", "maxPerDay": 3])
        try await daemon.add("Prednisone", ["daily": true, "at": "09:00"], timeZone: "UTC", ["steps": "40mg until 2026-03-08; 20mg until 2026-03-30"])
        try await daemon.add("Amoxicillin", ["every": "8h", "start": "2026-03-01T08:00", "fromLastDose": true], timeZone: "UTC", ["dose": "1 capsule"])
        try await daemon.add("Rent", ["monthlyOn": "last-fri", "at": "10:00"], timeZone: "America/New_York")
        try await daemon.add("Vitamin D", ["weekly": "sun", "at": "09:00"], timeZone: nil)
        try await daemon.add("Stretch", ["every": "3d", "at": "18:00", "start": "2026-03-01"], timeZone: "Asia/Tokyo")
        try await daemon.call("StockSet", ["reminder": "Pills", "amount": "30"])
        for day in 0..<20 {
            await daemon.advance(to: start.adding(seconds: Int64(day) * 86400 + 7 * 3600 + 30 * 60))
            if day % 4 != 3 { try await daemon.call("Log", ["reminder": "Pills"].merging(day % 5 == 1 ? ["amount": "0.5"] : [:]) { $1 }) }
            if day % 3 == 0 {
                try await daemon.call("Done", ["reminder": "Ibuprofen"])
                try await daemon.call("Done", ["reminder": "Ibuprofen", "force": true])  // too soon: forced
                try await daemon.call("Log", ["reminder": "Amoxicillin"])
            }
            if day == 10 { try await daemon.call("StockAdd", ["reminder": "Pills", "amount": "20"]) }
            if day % 6 == 0 { try await daemon.call("WorkoutAdd", ["exercise": "running", "minutes": 30, "intensity": "moderate"]) }
            try await daemon.call("FoodAdd", ["name": "Oatmeal, \"large\"", "kcal": 350])
        }
        try await daemon.call("Skip", ["reminder": "Stretch", "reason": "sore"])
        try await daemon.call("RestMark", ["from": "2026-03-22", "reason": "Travel"])
        try await daemon.call("ProfileSet", ["weight": "82kg"])
        await daemon.advance(by: 3600)
        return daemon
    }

    /// Every answer a user reads that is derived from the store.
    func answers(_ daemon: TestDaemon) async throws -> [String: JSONValue] {
        var found: [String: JSONValue] = [:]
        for (name, parameters) in [
            ("Next", ["count": 20]), ("List", [:]), ("Occurrences", [:]), ("History", ["since": "2026-01-01"]), ("Streak", [:]),
            ("Calendar", [:]), ("Achievements", [:]), ("RestList", [:]), ("FreezeHistory", [:]), ("Day", [:]), ("ProfileGet", [:]),
            ("Stock", [:]), ("Logs", ["date": "2026-03-05"]),
        ] as [(String, [String: JSONValue])] {
            found[name] = try await daemon.call(name, parameters, as: JSONValue.self)
        }
        return found
    }

    func tables(_ daemon: TestDaemon) async throws -> JSONValue {
        try await daemon.exportBackup()["tables"] ?? .null
    }

    func write(_ value: JSONValue, _ name: String) throws -> String {
        let path = directory + "/" + name
        try Data(VarlinkWire.encode(value)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aRoundTripGivesTheSameTablesAndTheSameAnswers() async throws {
        let start = Instant(secondsSinceEpoch: 1_772_323_200)  // 2026-03-01T00:00:00Z
        let original = try await lived(now: start)
        let exported = try await original.exportBackup()
        let backup = JSONValue.object(exported)
        let path = try write(backup, "backup.json")
        // What the medication issue added is in it: forced doses, escalated occurrences, limits and a course.
        func rows(_ table: String) -> [[String: JSONValue]] {
            guard case .object(let tables)? = exported["tables"], case .array(let rows)? = tables[table] else { return [] }
            return rows.compactMap { if case .object(let row) = $0 { row } else { nil } }
        }
        #expect(rows("intake").contains { ($0["forced"] ?? .null) != .null })
        #expect(rows("firing").contains { ($0["escalatedAt"] ?? .null) != .null })
        #expect(rows("reminder").contains { row in if case .string(let delivery)? = row["delivery"] { delivery.contains("steps") } else { false } })

        let restored = try await TestDaemon(now: original.clock.now())
        let report = try await restored.call(Backup.Import.self, .init(path: path))
        #expect(report.tables.first { $0.table == "intake" }?.added == 15 + 3 * 7)
        #expect(try await tables(restored) == tables(original))
        #expect(try await answers(restored) == answers(original))
        // And it goes on alike: the next firings come at the same instants, announced once.
        await original.advance(by: 2 * 86400)
        await restored.advance(by: 2 * 86400)
        #expect(restored.announcer.firings.suffix(4).map(\.firing.slotID) == original.announcer.firings.suffix(4).map(\.firing.slotID))
        let (a, b) = (try await answers(restored), try await answers(original))
        for key in a.keys.sorted() where a[key] != b[key] {
            try Data(VarlinkWire.encode(a[key]!)).write(to: URL(fileURLWithPath: "/tmp/diff-restored-\(key).json"))
            try Data(VarlinkWire.encode(b[key]!)).write(to: URL(fileURLWithPath: "/tmp/diff-original-\(key).json"))
        }
        #expect(try await answers(restored) == answers(original))
    }

    /// What remindctl does with a file the daemon cannot see: sends it in parts, then imports the upload, which
    /// is gone afterwards; messages name it as the user gave it.
    @Test func anUploadSentInPartsIsImportedOnceAndNamedByItsLabel() async throws {
        let start = Instant(secondsSinceEpoch: 1_772_323_200)
        let original = try await lived(now: start)
        let backup = Data(VarlinkWire.encode(JSONValue.object(try await original.exportBackup())))
        let restored = try await TestDaemon(now: original.clock.now())
        var upload: String?
        for offset in stride(from: 0, to: backup.count, by: 4096) {
            let part = backup[offset..<min(offset + 4096, backup.count)]
            upload = try await restored.call(Backup.Upload.self, .init(upload: upload, name: "backup.json", data: part.base64EncodedString())).upload
        }
        let id = try #require(upload)
        _ = try await restored.call(Backup.Import.self, .init(upload: id, label: "~/old/backup.json"))
        #expect(try await tables(restored) == tables(original))
        await #expect { try await restored.call(Backup.Import.self, .init(upload: id)) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains("no upload '\(id)': it was imported already") == true
        }

        let broken = try await restored.call(Backup.Upload.self, .init(upload: nil, name: "broken.json", data: Data("{\"format\": ".utf8).base64EncodedString()))
        await #expect { try await restored.call(Backup.Import.self, .init(upload: broken.upload, label: "/home/u/broken.json", merge: true)) } throws: {
            let message = ($0 as? VarlinkError)?.string("message") ?? ""
            return message.hasPrefix("/home/u/broken.json is not a remindd backup, or is damaged") && !message.contains("uploads")
        }
    }

    @Test(arguments: ["", "/etc/passwd", "../x", "a/../../x", "a//b", "a/b/c/d", String(repeating: "x", count: 256)])
    func anUploadsFileNameIsOneToThreePlainComponents(name: String) async throws {
        let daemon = try await TestDaemon(now: Instant(secondsSinceEpoch: 1_772_323_200))
        await #expect { try await daemon.call(Backup.Upload.self, .init(upload: nil, name: name, data: "")) } throws: {
            ($0 as? VarlinkError)?.string("parameter") == "name"
        }
    }

    @Test func anUploadPartOverTheLimitOrNotBase64IsRefused() async throws {
        let daemon = try await TestDaemon(now: Instant(secondsSinceEpoch: 1_772_323_200))
        let big = Data(count: Backup.Upload.partSize + 1).base64EncodedString()
        for data in [big, "not base64!"] {
            await #expect { try await daemon.call(Backup.Upload.self, .init(upload: nil, name: "b.json", data: data)) } throws: {
                ($0 as? VarlinkError)?.string("parameter") == "data"
            }
        }
        await #expect { try await daemon.call(Backup.Upload.self, .init(upload: "nope", name: "b.json", data: "")) } throws: {
            ($0 as? VarlinkError)?.string("parameter") == "upload"
        }
    }

    @Test func aStoreWithDataIsRefusedUnlessMergeWhichAddsOnlyWhatIsMissing() async throws {
        let start = Instant(secondsSinceEpoch: 1_772_323_200)
        let original = try await lived(now: start)
        let path = try write(JSONValue.object(try await original.exportBackup()), "backup.json")

        let other = try await TestDaemon(now: original.clock.now())
        try await other.add("Pills", ["daily": true, "at": "09:00"], timeZone: "UTC")
        try await other.add("Water", ["daily": true, "at": "11:00"], timeZone: "UTC")
        let before = try await tables(other)
        await #expect { try await other.call(Backup.Import.self, .init(path: path)) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains("add --merge") == true
        }
        #expect(try await tables(other) == before)
        // Decided before the file is opened: a store with data refuses even a file that is not there.
        await #expect { try await other.call(Backup.Import.self, .init(path: directory + "/not-there.json")) } throws: {
            ($0 as? VarlinkError)?.string("message")?.contains("already holds") == true
        }

        let merged = try await other.call(Backup.Import.self, .init(path: path, merge: true))
        let reminders = try #require(merged.tables.first { $0.table == "reminder" })
        #expect(reminders.skipped == 2 && reminders.added == 6)  // Pills (by name) and the rest check-in are there
        let names = try await other.call(Reminders.List.self, .init()).reminders.map(\.name).sorted()
        #expect(names == ["Amoxicillin", "Ibuprofen", "Pills", "Planning a rest day this week?", "Prednisone", "Rent", "Stretch", "Vitamin D", "Water"])
        // Pills' logs went to the Pills already there; a second merge adds nothing.
        let again = try await other.call(Backup.Import.self, .init(path: path, merge: true))
        #expect(again.tables.allSatisfy { $0.added == 0 })
    }

    @Test(arguments: [
        ("not json at all", "is not a remindd backup, or is damaged"),
        (#"{"format": "remindd-backup", "version": 2, "schema": "v1", "exportedAt": "", "tables": {}}"#, "written by a newer remindd (backup format 2"),
        (#"{"format": "remindd-backup", "version": 1, "schema": "v99-future", "exportedAt": "", "tables": {}}"#, "schema 'v99-future' is unknown"),
        (#"{"format": "remindd-backup", "version": 1, "schema": "v1", "exportedAt": "", "tables": {"spaceship": []}}"#, "a table 'spaceship'"),
        (#"{"format": "remindd-backup", "version": 1, "schema": "v1", "exportedAt": "", "tables": {"food": [{"id": 1, "colour": "red"}]}}"#, "a column 'colour'"),
        (#"{"format": "remindd-backup", "version": 1, "schema": "v1", "exportedAt": "", "tables": {"food": [{"id": 1}]}}"#, "does not fit this store"),
    ])
    func aBadFileIsRefusedAndNothingChanges(_ content: String, _ reason: String) async throws {
        let daemon = try await TestDaemon(now: Instant(secondsSinceEpoch: 1_772_323_200))
        let before = try await tables(daemon)
        let path = directory + "/bad.json"
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        await #expect { try await daemon.call(Backup.Import.self, .init(path: path)) } throws: {
            let message = ($0 as? VarlinkError)?.string("message") ?? ""
            return message.contains(reason) && message.hasSuffix("nothing was changed")
        }
        #expect(try await tables(daemon) == before)
    }
}
