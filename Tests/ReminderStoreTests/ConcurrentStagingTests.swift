import Foundation
import GRDB
import Synchronization
import ReminderCore
import Testing

@testable import ReminderStore

/// Imports and restores that run at once (two clients'): each stages its rows on the writer's
/// connection between short transactions, and must move only its own.
@Suite("Concurrent staging")
struct ConcurrentStagingTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "remindd-staging-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    var path: String { directory + "/remindd.sqlite" }
    let now = Instant(secondsSinceEpoch: 1_795_000_000)

    private func rows(_ names: [String]) throws -> [CalendarImportStaging.Row] {
        try names.enumerated().map { position, name in
            let fields = ReminderFields(
                name: name, rule: RuleSpec(daily: true, at: "08:00"), timeZone: "UTC", enabled: true,
                createdAt: now.secondsSinceEpoch, handledThrough: now.secondsSinceEpoch)
            return .init(position: position, values: try fields.columnValues().map { $0?.databaseValue ?? .null }, uid: name, key: name)
        }
    }

    /// Work's file is staged, then home's (as when the second import starts while the first stages its chunks);
    /// work's move adds work's reminders, under work's file, and home's then adds home's. With one set of table
    /// names, home's staging emptied work's tables: work's move added home's reminders under work's file.
    @Test func twoImportsStagedAtOnceEachMoveTheirOwnReminders() throws {
        let store = try ReminderStore(path: path)
        let work = CalendarImportStaging(database: store, columns: ReminderFields.columnNames)
        let home = CalendarImportStaging(database: store, columns: ReminderFields.columnNames)
        let workNames = (1...2_500).map { "Work \($0)" }
        let homeNames = (1...2_500).map { "Home \($0)" }
        try work.stage(try rows(workNames))
        try home.stage(try rows(homeNames))
        _ = try store.write { db in try work.move(file: "work.ics", in: db) }
        work.drop()
        _ = try store.write { db in try home.move(file: "home.ics", in: db) }
        home.drop()
        let byFile = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT r.name, c.file FROM calendarImport c JOIN reminder r ON r.id = c.reminderId ORDER BY r.id")
        }
        #expect(byFile.count == 5_000)
        #expect(byFile.filter { $0["file"] == "work.ics" }.map { $0["name"] as String } == workNames)
        #expect(byFile.filter { $0["file"] == "home.ics" }.map { $0["name"] as String } == homeNames)
    }

    /// Two merges of different backups run on two threads at once, twice: each adds every reminder of its
    /// own file, and the store then holds both files' reminders, each once.
    @Test func twoRestoresAtOnceEachAddTheirOwnRows() throws {
        let store = try ReminderStore(path: path)
        let schema = ReminderStore.migrator.migrations.last!
        for round in 1...2 {
            let files = try ["a", "b"].map { label in
                let file = directory + "/\(label)\(round).json"
                let reminders = (1...1_500).map { number in
                    #"{"id": \#(number), "name": "\#(label)\#(round) \#(number)", "rule": "{\"daily\":true,\"at\":\"08:00\"}", "timeZone": null, "enabled": 1, "createdAt": 1795000000, "handledThrough": 1795000000}"#
                }
                let intakes = (1...1_500).map { #"{"id": \#($0), "reminderId": \#($0), "at": 1795000000, "timeZone": "UTC"}"# }
                try """
                    {"format": "remindd-backup", "version": 1, "schema": "\(schema)", "exportedAt": "now", "tables": {
                      "reminder": [\(reminders.joined(separator: ",\n"))],
                      "intake": [\(intakes.joined(separator: ",\n"))]}}
                    """.write(toFile: file, atomically: true, encoding: .utf8)
                return file
            }
            let reports = Mutex<[String: Result<RestoreReport, any Error>]>([:])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let result = Result { try store.backups.restore(path: files[index], merge: true) }
                reports.withLock { $0[files[index]] = result }
            }
            for file in files {
                let report = try #require(try reports.withLock { $0[file] }?.get())
                #expect(report.added["reminder"] == 1_500 && report.added["intake"] == 1_500)
            }
            for label in ["a", "b"] {
                let counts = try store.read { db in
                    try Row.fetchOne(db, sql: """
                        SELECT count(DISTINCT r.id) AS reminders, count(i.id) AS intakes FROM reminder r LEFT JOIN intake i ON i.reminderId = r.id
                        WHERE r.name LIKE ?
                        """, arguments: ["\(label)\(round) %"])
                }
                #expect(counts?["reminders"] == 1_500 && counts?["intakes"] == 1_500, "\(label)\(round)")
            }
        }
    }

    /// A restore into an empty store replaces every table; a reminder and its dose logged while the backup was
    /// staged (or while its move waited for a lull in the firings) made the store no longer empty: the move is
    /// refused and both are kept. It replaced them before (the store was checked only before the staging).
    @Test func aRestoreIntoAnEmptyStoreKeepsWhatWasLoggedWhileItWasStaged() throws {
        let store = try ReminderStore(path: path)
        let schema = ReminderStore.migrator.migrations.last!
        let file = directory + "/backup.json"
        try """
            {"format": "remindd-backup", "version": 1, "schema": "\(schema)", "exportedAt": "now", "tables": {
              "reminder": [{"id": 1, "name": "Dose", "rule": "{\\"daily\\":true,\\"at\\":\\"08:00\\"}", "timeZone": "UTC", "enabled": 1, "createdAt": 1795000000, "handledThrough": 1795000000}],
              "intake": [{"id": 1, "reminderId": 1, "at": 1795000000, "timeZone": "UTC"}]}}
            """.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try !store.backups.holdsUserData(builtIn: []))
        let staged = try store.backups.stageRestore(path: file, merge: false)
        try store.write { db in
            try db.execute(sql: """
                INSERT INTO reminder (name, rule, timeZone, enabled, createdAt, handledThrough) VALUES ('Vitamin D', '{"daily":true,"at":"09:00"}', 'UTC', 1, ?1, ?1)
                """, arguments: [now.secondsSinceEpoch])
            try db.execute(sql: "INSERT INTO intake (reminderId, at, timeZone) VALUES (?, ?, 'UTC')", arguments: [db.lastInsertedRowID, now.secondsSinceEpoch])
        }
        #expect {
            _ = try store.backups.restoreStaged(staged, builtIn: [])
        } throws: { error in
            (error as? BackupRefused)?.description.contains("add --merge") == true
        }
        let kept = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT r.name, count(i.id) AS logs FROM reminder r LEFT JOIN intake i ON i.reminderId = r.id GROUP BY r.id")
        }
        #expect(kept.map { "\($0["name"] as String): \($0["logs"] as Int)" } == ["Vitamin D: 1"])
        // The same file into a store that stayed empty is restored.
        let emptyPath = directory + "/empty.sqlite"
        let empty = try ReminderStore(path: emptyPath)
        let report = try empty.backups.restore(path: file, merge: false)
        #expect(report.added["reminder"] == 1 && report.added["intake"] == 1)
    }
}

extension BackupStore {
    /// A restore's two steps at once, as the daemon takes them when no firing is due.
    func restore(path: String, merge: Bool) throws -> RestoreReport {
        try restoreStaged(try stageRestore(path: path, merge: merge), builtIn: [])
    }
}
