import Foundation
import GRDB
import ReminderCore
import Testing

@testable import ReminderStore

/// The store on a real SQLite file in a temporary directory.
@Suite("ReminderStore")
struct ReminderStoreTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "remindd-store-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    var path: String { directory + "/remindd.sqlite" }
    let now = Instant(secondsSinceEpoch: 1_795_000_000)
    let daily = RuleSpec(daily: true, at: "08:00")

    @Test func remindersSurviveReopening() throws {
        let store = try ReminderStore(path: path)
        let added = try store.reminders.add(name: "Vitamin D", rule: RuleSpec(weekly: "sun", at: "09:00"), timeZone: "Europe/Berlin", now: now)
        try store.close()
        let reopened = try ReminderStore(path: path)
        let all = try reopened.reminders.all()
        #expect(all == [added])
        #expect(all.first?.rule == RuleSpec(weekly: "sun", at: "09:00"))
        #expect(try reopened.reminders.find("vitamin d").id == added.id)
        #expect(try reopened.reminders.find(String(added.id)).name == "Vitamin D")
    }

    /// An iCalendar import whose reminders share a name in any case (checked on the staged rows, before the move's
    /// transaction) adds nothing, and leaves nothing staged behind: the next import of other names is added whole.
    @Test func anImportWhoseRemindersShareANameAddsNothing() throws {
        let store = try ReminderStore(path: path)
        func planned(_ names: String...) -> [ImportedCalendarReminder] {
            names.map { ImportedCalendarReminder(ImportedReminder(name: $0, rule: daily, enabled: true, createdAt: now, logs: []), uid: $0, key: $0) }
        }
        func imported(_ planned: [ImportedCalendarReminder]) throws -> (ids: [(id: Int64, updated: Bool)], removed: [String]) {
            try store.backups.importStaged(try store.backups.stageCalendar(planned, file: "work.ics", now: now))
        }
        #expect { try imported(planned("Standup", "Physio", "STANDUP")) } throws: { error in
            guard case StoreError.nameTaken(let name) = error else { return false }
            return name.lowercased() == "standup"
        }
        #expect(try store.reminders.all().isEmpty)
        let added = try imported(planned("Standup", "Physio"))
        #expect(added.ids.map(\.updated) == [false, false])
        #expect(try store.reminders.all().map(\.name) == ["Standup", "Physio"])
    }

    /// The counts `Status` reports are kept between commits, and every write that changes them is seen: added,
    /// disabled, removed, written by hand in SQL; a firing's `handledThrough` leaves them as they are.
    @Test func theRemindersCountsFollowEveryWriteThatChangesThem() throws {
        let store = try ReminderStore(path: path)
        #expect(try store.reminders.counts() == (0, 0))
        let vitamin = try store.reminders.add(name: "Vitamin D", rule: daily, timeZone: "UTC", now: now)
        _ = try store.reminders.add(name: "Meds", rule: daily, timeZone: "UTC", now: now)
        #expect(try store.reminders.counts() == (2, 2))
        var disabled = vitamin
        disabled.enabled = false
        _ = try store.reminders.update(disabled, now: now)
        #expect(try store.reminders.counts() == (2, 1))
        try store.reminders.moved(to: "UTC", handledThrough: [(vitamin.id, now.adding(seconds: 60))])
        #expect(try store.reminders.counts() == (2, 1))
        try store.write { db in try db.execute(sql: "UPDATE reminder SET enabled = 1") }
        #expect(try store.reminders.counts() == (2, 2))
        try store.write { db in
            try db.execute(sql: "INSERT INTO reminder (name, rule, timeZone, enabled, createdAt, handledThrough) SELECT name || ' copy', rule, timeZone, 0, createdAt, handledThrough FROM reminder")
        }
        #expect(try store.reminders.counts() == (4, 2))
        try store.reminders.remove(id: vitamin.id)
        #expect(try store.reminders.counts() == (3, 1))
        // A rolled-back write changes nothing, and the next count is still right.
        #expect(throws: StoreError.self) {
            try store.write { db in
                try db.execute(sql: "DELETE FROM reminder")
                throw StoreError.notFound("rolled back")
            }
        }
        #expect(try store.reminders.counts() == (3, 1))
        try store.close()
        #expect(try ReminderStore(path: path).reminders.counts() == (3, 1))
    }

    @Test func anExportReadsOneSnapshotPageByPageWhileWritesGoOn() throws {
        let store = try ReminderStore(path: path)
        let first = try store.reminders.add(name: "A", rule: daily, timeZone: "UTC", now: now)
        _ = try store.reminders.add(name: "B", rule: daily, timeZone: "UTC", now: now)
        var pages = try store.backups.pages(pageSize: 1)
        let page = try #require(try pages.next())
        #expect(page.table == "reminder" && page.rows.map { $0["name"] } == [.text("A")])
        // Written while the export is under way (the writer does not wait for it): not in this export.
        _ = try store.reminders.add(name: "C", rule: daily, timeZone: "UTC", now: now)
        _ = try store.intake.log(reminderID: first.id, at: now, timeZone: "UTC")
        var tables: [String: [[String: StoreValue]]] = [page.table: page.rows]
        var order = [page.table]
        while let next = try pages.next() {
            if order.last != next.table { order.append(next.table) }
            tables[next.table, default: []] += next.rows
        }
        #expect(tables["reminder"]?.map { $0["name"] } == [.text("A"), .text("B")])
        #expect(tables["intake"] == [])
        #expect(order == ReminderStore.backupTables)  // every table once, its pages together
        #expect(pages.schema == ReminderStore.migrator.migrations.last)
    }

    /// A backup as older remindd wrote it (keys sorted: `tables` before `version`, `reminder` after `intake`),
    /// with an id beyond a Double's 53 bits, is read row by row and restored exactly.
    @Test func aBackupFileIsReadInAnyKeyOrderWithExactIntegers() throws {
        let store = try ReminderStore(path: path)
        let file = directory + "/backup.json"
        let schema = ReminderStore.migrator.migrations.last!
        try """
            {"exportedAt": "now", "format": "remindd-backup", "schema": "\(schema)", "tables": {
              "intake": [ {"id": 9007199254740993, "reminderId": 4, "at": 1795000000, "timeZone": "UTC"}
                 , {"id": 2, "reminderId": 4, "at": 1795000060, "timeZone": "UTC"} ],
              "reminder": [{"id": 4, "name": "Caf\\u00e9 \\"late\\"", "rule": "{\\"daily\\":true,\\"at\\":\\"08:00\\"}", "timeZone": null,
                            "enabled": 1, "createdAt": 1795000000, "handledThrough": 1795000000}]
            }, "version": 1}
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let report = try store.backups.restore(path: file, merge: false)
        #expect(report.added["intake"] == 2 && report.added["reminder"] == 1)
        #expect(try store.reminders.all().map(\.name) == ["Café \"late\""])
        #expect(try store.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM intake ORDER BY at") } == [9_007_199_254_740_993, 2])
    }

    @Test(arguments: [
        (#"{"format": "remindd-backup", "version": 1, "schema": "v1", "tables": {"intake": [{"id": 1, "#, "the file ends in the middle"),
        (#"{"format": "remindd-backup", "version": 1, "schema": "v1", "tables": {"intake": [[1, 2]]}}"#, "expected '{'"),
        (#"{"format": "remindd-backup", "version": 1, "schema": "v1", "tables": {"food": [{"name": true}]}}"#, "not a column value"),
        (#"{"format": "remindd-backup", "version": 1, "schema": "v1", "tables": {"food": [], "food": []}}"#, "the table 'food' comes twice"),
        (#"{"format": "remindd-backup", "version": 1, "schema": "v1", "tables": {}} trailing"#, "something follows the document"),
        (#"{"format": "remindd-backup", "schema": "v1", "tables": {}}"#, "no 'version'"),
    ])
    func aDamagedBackupFileIsRefusedWithItsPlaceAndChangesNothing(_ content: String, _ reason: String) throws {
        let store = try ReminderStore(path: path)
        let before = try store.reminders.all()
        let file = directory + "/damaged.json"
        try content.write(toFile: file, atomically: true, encoding: .utf8)
        #expect { try store.backups.restore(path: file, merge: false) } throws: { error in
            "\(error)".contains(reason) && "\(error)".hasPrefix("not a remindd backup, or is damaged")
        }
        #expect(try store.reminders.all() == before)
    }

    @Test func aPipeIsRefusedAtOnceNotReadFrom() throws {
        let store = try ReminderStore(path: path)
        let pipe = directory + "/pipe.json"
        #expect(mkfifo(pipe, 0o600) == 0)
        #expect { try store.backups.restore(path: pipe, merge: false) } throws: { "\($0)".contains("not a regular file") }
    }

    @Test func firingsOfAnOlderStoreSurviveTheReplannedMigration() throws {
        let old = try DatabaseQueue(path: path)
        try ReminderStore.migrator.migrate(old, upTo: "v4-snoozes")
        try old.write { db in
            try db.execute(sql: """
                INSERT INTO reminder (name, rule, createdAt, handledThrough) VALUES ('Meds', '{"daily":true,"at":"08:00"}', 0, 60);
                INSERT INTO firing (reminderId, reminderName, slot, scheduledAt, handledAt, kind, lateSeconds, slotsDue)
                VALUES (1, 'Meds', 'reminder-1-08-00', 60, 60, 'fired', 0, 1)
                """)
        }
        try old.close()
        let store = try ReminderStore(path: path)
        let history = try store.firings.history(since: Instant(secondsSinceEpoch: 0))
        #expect(history.map(\.slot) == ["reminder-1-08-00"])
        #expect(history.map(\.replanned) == [0])
    }

    @Test func duplicateNamesAreRefusedAndNothingIsWritten() throws {
        let store = try ReminderStore(path: path)
        _ = try store.reminders.add(name: "Meds", rule: daily, timeZone: nil, now: now)
        #expect(throws: StoreError.nameTaken("MEDS")) { try store.reminders.add(name: "MEDS", rule: daily, timeZone: nil, now: now) }
        #expect(try store.reminders.all().count == 1)
    }

    @Test func intakeIsReadBackByRange() throws {
        let store = try ReminderStore(path: path)
        let reminder = try store.reminders.add(name: "Meds", rule: daily, timeZone: nil, now: now)
        for offset in [-7200, -3600, 0] {
            _ = try store.intake.log(reminderID: reminder.id, at: now.adding(seconds: Int64(offset)), timeZone: "UTC")
        }
        #expect(try store.intake.instants(reminderID: reminder.id, from: now.adding(seconds: -3600), through: now) == [now.adding(seconds: -3600), now])
        try store.reminders.remove(id: reminder.id)
        #expect(try store.intake.instants(reminderID: reminder.id, from: now.adding(seconds: -9999), through: now).isEmpty)
    }

    @Test func aSnoozeSurvivesReopeningAndASecondSnoozeOfTheOccurrenceReplacesIt() throws {
        let store = try ReminderStore(path: path)
        let reminder = try store.reminders.add(name: "Meds", rule: daily, timeZone: nil, now: now)
        try store.firings.setSnooze(reminderID: reminder.id, scheduledAt: now, dueAt: now.adding(seconds: 600))
        try store.firings.setSnooze(reminderID: reminder.id, scheduledAt: now, dueAt: now.adding(seconds: 900))
        try store.close()
        let reopened = try ReminderStore(path: path)
        let pending = try reopened.firings.snoozes()
        #expect(pending.count == 1 && pending[0].reminderId == reminder.id && pending[0].dueAt == now.adding(seconds: 900).secondsSinceEpoch)
        try reopened.firings.removeSnooze(reminderID: reminder.id, scheduledAt: now)
        #expect(try reopened.firings.snoozes().isEmpty)
    }

    @Test func aDeletedLogIsGoneAndTheDeliverySettingsRoundTrip() throws {
        let store = try ReminderStore(path: path)
        let delivery = Delivery(
            repeating: RepeatSettings(plan: RepeatPlan(intervalSeconds: 600, maximum: 3)), hook: HookSettings(command: ["/bin/echo", "a b"]),
            notification: NotificationSettings(urgency: .critical))
        let reminder = try store.reminders.add(name: "Meds", rule: daily, timeZone: nil, delivery: delivery, now: now)
        let first = try store.intake.log(reminderID: reminder.id, at: now, timeZone: "UTC")
        let second = try store.intake.log(reminderID: reminder.id, at: now.adding(seconds: 60), timeZone: "UTC")
        #expect(try store.intake.delete(id: first.id) == first)
        #expect(try store.intake.delete(id: first.id) == nil)
        #expect(try store.intake.records(from: now, through: now.adding(seconds: 60)) == [second])
        try store.close()
        #expect(try ReminderStore(path: path).reminders.find("Meds").delivery == delivery)
    }

    @Test func theRuleColumnIsJSONThatAnyParserReadsBack() throws {
        let hostile = "a \"quoted\" \\ back/slash,\n\t\u{1}\u{1F} é 💊"
        let specs = [
            RuleSpec(daily: true, at: "08:00,20:00"), RuleSpec(daily: false),
            RuleSpec(monthly: hostile, skip: "", rrule: "FREQ=WEEKLY;BYDAY=MO", rdate: hostile, alarm: "-PT15M"),
            RuleSpec(weekly: "mon", monthlyOn: "2nd-sun", yearly: "02-29", every: "2w", preset: "Twice a Day", once: "2026-12-24T18:00",
                     start: "2026-12-01", until: "2027-01-01", onCalendar: "Mon..Fri 09:00", exdate: "2026-12-25T09:00"),
            RuleSpec(asNeeded: true), RuleSpec(every: "8h", start: "2026-12-01T08:00", fromLastDose: true), RuleSpec(),
        ]
        for spec in specs {
            let text = RuleSpecColumn.encode(spec)
            // Written as JSONEncoder wrote the column before (sorted keys, slashes as they are).
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            #expect(text == String(decoding: try encoder.encode(spec), as: UTF8.self))
            // Read back by Foundation's parser (not the column's own) and by the column.
            #expect(try JSONDecoder().decode(RuleSpec.self, from: Data(text.utf8)) == spec)
            #expect(try RuleSpecColumn.decode(text) == spec)
        }
        #expect(RuleSpecColumn.encode(RuleSpec(daily: true, at: "09:00")) == #"{"at":"09:00","daily":true}"#)
    }

    /// A rule column written by hand or by another JSON writer (spaces, escapes, nulls, `\u` escapes) reads as
    /// Foundation's parser reads it, and what is not a rule is refused as it refuses it.
    @Test(arguments: [
        #"{"at":"09:00","daily":true}"#, #" { "at" : "09:00" ,"daily": false , "until" : null } "#, #"{}"#,
        #"{"weekly":"mon\/tue","at":"a \"b\" \\ \n\t\r\b\f"}"#, #"{"at":"\u00e9 08:00","daily":true}"#,
        #"{"rrule":"FREQ=DAILY","start":"2026-12-01T08:00","alarm":"-PT15M","asNeeded":true,"fromLastDose":false}"#,
        #"{"at":"09:00""#, #"{"at":09}"#, #"{"at":"09:00",}"#, #"{"daily":tru}"#, #"{"at":"09:00"} x"#, #"[]"#,
        #"{} x"#, #" {} "#, #"{"at":"09:00","colour":"red"}"#, #"{"daily":"yes"}"#, #"{"at":true}"#, #"{"weekly":null,"at":"07:00"}"#,
    ])
    func aRuleColumnWrittenByAnyWriterReadsAsJSONDecoderReadsIt(_ text: String) {
        let expected = try? JSONDecoder().decode(RuleSpec.self, from: Data(text.utf8))
        #expect((try? RuleSpecColumn.decode(text)) == expected, "\(text)")
    }

    /// The store's lists read each row at the column indexes found once for its statement; GRDB's own fetch reads
    /// by name: every field, set or not, reads the same both ways.
    @Test func rowsReadAtTheStatementsIndexesAreTheRowsReadByName() throws {
        let store = try ReminderStore(path: path)
        let full = ReminderFields(
            name: "Standup", rule: RuleSpec(start: "2026-12-01T10:00", rrule: "FREQ=DAILY", alarm: "-PT15M"), timeZone: "Europe/Berlin",
            enabled: false, createdAt: now.secondsSinceEpoch - 60, handledThrough: now.secondsSinceEpoch + 5, windowSeconds: 600,
            delivery: Delivery(repeating: RepeatSettings(plan: RepeatPlan(intervalSeconds: 300, maximum: 2)), calendar: "work"), origin: "/cal/a.ics")
        let bare = ReminderFields(name: "Water", rule: RuleSpec(daily: true, at: "09:00"), timeZone: nil, enabled: true, createdAt: now.secondsSinceEpoch, handledThrough: now.secondsSinceEpoch)
        let rows = try store.write { db in [try full.insert(db), try bare.insert(db)] }
        let byName = try store.read { db in try StoredReminder.order(StoredReminder.Columns.id).fetchAll(db) }
        #expect(byName == rows)
        #expect(try store.reminders.all() == rows)
        #expect(try store.reminders.all(among: rows.map(\.id).reversed()) == rows)
        #expect(try store.reminders.all(after: 0, limit: 1) == [rows[0]])
    }

    @Test func aRowInsertedWithTheCachedStatementReadsBackAsWritten() throws {
        let store = try ReminderStore(path: path)
        let fields = ReminderFields(
            name: "Standup", rule: RuleSpec(start: "2026-12-01T10:00", rrule: "FREQ=DAILY", alarm: "-PT15M"), timeZone: "Europe/Berlin",
            enabled: true, createdAt: now.secondsSinceEpoch, handledThrough: now.secondsSinceEpoch + 5, windowSeconds: 600,
            delivery: Delivery(repeating: RepeatSettings(plan: RepeatPlan(intervalSeconds: 300, maximum: 2)), calendar: "work"), origin: "/cal/a.ics")
        let row = try store.write { db in try fields.insert(db) }
        #expect(row.fields == fields)
        #expect(try store.read { db in try StoredReminder.fetchOne(db, key: row.id) } == row)
    }

    @Test func changingTheRuleMovesHandledThroughToNow() throws {
        let store = try ReminderStore(path: path)
        var reminder = try store.reminders.add(name: "Meds", rule: daily, timeZone: nil, now: now)
        reminder.rule = RuleSpec(daily: true, at: "09:00")
        let updated = try store.reminders.update(reminder, now: now.adding(seconds: 86400))
        #expect(updated.handledThrough == now.secondsSinceEpoch + 86400)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedUntouched() throws {
        let garbage = Data(repeating: 0x41, count: 8192)
        #expect(FileManager.default.createFile(atPath: path, contents: garbage))
        #expect {
            try ReminderStore(path: path)
        } throws: { error in
            guard case .corrupt = error as? StoreError else { return false }
            return true
        }
        #expect(FileManager.default.contents(atPath: path) == garbage)
    }

    @Test func theDatabaseIsInWALMode() throws {
        let store = try ReminderStore(path: path)
        _ = try store.reminders.add(name: "Meds", rule: daily, timeZone: nil, now: now)
        let header = FileManager.default.contents(atPath: path)!
        // SQLite file header bytes 18 and 19 are 2 in WAL mode.
        #expect(header[18] == 2 && header[19] == 2)
    }

    // MARK: Damaged, foreign, replaced

    /// Opens the store and expects it refused with `expected`, the file left as it was.
    private func expectRefused(_ expected: StoreError) throws {
        let before = FileManager.default.contents(atPath: path)
        #expect(throws: expected) { try ReminderStore(path: path) }
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    /// Edits the file behind the store's back, as another program would.
    private func tamper(_ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
        try queue.close()
    }

    /// A page damaged behind the store's back (the header and the schema intact) is found by `PRAGMA
    /// quick_check` before anything is written, and nothing is.
    @Test func aDamagedPageIsFoundBeforeAnythingIsWritten() throws {
        let store = try ReminderStore(path: path)
        let id = try store.reminders.add(name: "Meds", rule: daily, timeZone: nil, now: now).id
        try store.close()
        try tamper("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
            INSERT INTO intake (reminderId, at, timeZone) SELECT \(id), i, 'UTC' FROM n
            """)
        try tamper("PRAGMA wal_checkpoint(TRUNCATE)")  // every page in the file, none left in the WAL
        let file = try #require(FileHandle(forUpdatingAtPath: path))
        let size = try file.seekToEnd()
        try file.seek(toOffset: size - 4096 + 8)  // the last page's cell pointers
        try file.write(contentsOf: Data(repeating: 0xFF, count: 32))
        try file.close()
        let before = FileManager.default.contents(atPath: path)

        // quick_check says "out of range", or a read before it that lands on the page "malformed" (which comes
        // first depends on what the last page holds): either way refused as damaged, and nothing written.
        #expect {
            try ReminderStore(path: path)
        } throws: { error in
            guard case .corrupt(_, let detail) = error as? StoreError else { return false }
            return detail.contains("out of range") || detail.contains("malformed")
        }
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    @Test func anEmptyFileIsRefused() throws {
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        try expectRefused(.corrupt(path: path, detail: "the file is empty"))
    }

    @Test func anotherProgramsDatabaseIsRefused() throws {
        try tamper("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('mine')")
        try expectRefused(.foreign(path: path))
    }

    @Test func aSchemaVersionFromTheFutureIsRefused() throws {
        try ReminderStore(path: path).close()
        try tamper("PRAGMA user_version = 99")
        try expectRefused(.newerSchema(path: path))
    }

    @Test func aDroppedTableIsNoticed() throws {
        try ReminderStore(path: path).close()
        try tamper("DROP TABLE intake")
        try expectRefused(.corrupt(path: path, detail: "table intake is missing"))
    }

    @Test func aNewStoreIsMarkedAsRemindds() throws {
        try ReminderStore(path: path).close()
        let queue = try DatabaseQueue(path: path)
        let (applicationID, version) = try queue.read { db in
            (try Int32.fetchOne(db, sql: "PRAGMA application_id"), try Int.fetchOne(db, sql: "PRAGMA user_version"))
        }
        try queue.close()
        #expect(applicationID == ReminderStore.applicationID)
        #expect(version == ReminderStore.migrator.migrations.count)
        #expect(!FileManager.default.fileExists(atPath: path + ".new"))
    }

    @Test func aStartCutShortAfterCreatingTheFileStartsAgain() throws {
        try ReminderStore.createMarked(path)  // killed right after: a marked file with no tables
        let store = try ReminderStore(path: path)
        #expect(try store.reminders.all().isEmpty)
    }

    @Test func theSchemaListMatchesTheMigrations() throws {
        let queue = try DatabaseQueue()
        try ReminderStore.migrator.migrate(queue)
        let tables = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'")
                .map { ($0, Set(try db.columns(in: $0).map(\.name))) }
        }
        #expect(Dictionary(uniqueKeysWithValues: tables) == ReminderStore.expectedSchema)
    }

    /// Each table has its record type (adding a table means a migration, a record type and the feature store that
    /// owns it): a table without one fails here.
    @Test func everyTableHasItsRecordType() {
        let records: [any TableRecord.Type] = [
            StoredReminder.self, IntakeRecord.self, FiringRecord.self, OutcomeRecord.self, SnoozeRecord.self, RestDayRecord.self,
            RecoveryRecord.self, HabitNoticeRecord.self, WorkoutRecord.self, FoodRecord.self, ProfileRecord.self, StoreInstanceRecord.self,
            CollectionItemRecord.self, CalendarItemRecord.self, StockChangeRecord.self, StockNoticeRecord.self, KeptIntakeRecord.self, CalendarImportRecord.self,
        ]
        #expect(Set(records.map { $0.databaseTableName }) == Set(ReminderStore.expectedSchema.keys))
        #expect(Set(ReminderStore.backupTables).union(ReminderStore.internalTables) == Set(ReminderStore.expectedSchema.keys))
    }

    /// A broken link at the database's path (the disk it points to is not mounted) was replaced by a new,
    /// empty store; it is refused like a damaged file, and the link is left as it was.
    @Test func aBrokenSymbolicLinkIsRefusedAndLeftAlone() throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path + "-elsewhere/remindd.sqlite")
        #expect(throws: StoreError.self) { try ReminderStore(path: path) }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == path + "-elsewhere/remindd.sqlite")
    }

    @Test func everyTableIsBackedUpOrInternal() {
        let listed = Set(ReminderStore.backupTables).union(ReminderStore.internalTables)
        #expect(listed == Set(ReminderStore.expectedSchema.keys))
        #expect(ReminderStore.backupTables.count == Set(ReminderStore.backupTables).count)
        #expect(ReminderStore.backupTables.first == "reminder")  // parents first
    }

    @Test func writesAreRefusedOnceTheFileIsDeleted() throws {
        let store = try ReminderStore(path: path)
        _ = try store.reminders.add(name: "Meds", rule: daily, timeZone: nil, now: now)
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: StoreError.replaced(path: path)) { try store.reminders.add(name: "Vitamin D", rule: daily, timeZone: nil, now: now) }
    }

    @Test func writesAreRefusedOnceTheFileIsReplaced() throws {
        let store = try ReminderStore(path: path)
        let other = directory + "/other.sqlite"
        try ReminderStore(path: other).close()
        #expect(rename(other, path) == 0)
        #expect(throws: StoreError.replaced(path: path)) { try store.reminders.add(name: "Vitamin D", rule: daily, timeZone: nil, now: now) }
        try store.close()
        #expect(try ReminderStore(path: path).reminders.all().isEmpty)
    }

    @Test func aSecondOpenerIsRefusedAndNamesTheFirst() throws {
        let first = try ReminderStore(path: path)
        #expect(throws: StoreError.locked(path: path, pid: getpid())) { try ReminderStore(path: path) }
        try first.close()
        _ = try ReminderStore(path: path)
    }

    @Test func aLegacyDatabaseIsMovedOnceAndNeverWhileOpen() throws {
        let legacy = directory + "/config/remindd.sqlite"
        let old = try ReminderStore(path: legacy)
        _ = try old.reminders.add(name: "Meds", rule: daily, timeZone: nil, now: now)
        // Not while a daemon has it open.
        #expect(throws: StoreError.locked(path: legacy, pid: getpid())) { try ReminderStore.adoptLegacy(from: legacy, to: path) }
        try old.close()
        #expect(try ReminderStore.adoptLegacy(from: legacy, to: path))
        #expect(!FileManager.default.fileExists(atPath: legacy))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/config").isEmpty)
        #expect(try ReminderStore(path: path).reminders.all().map(\.name) == ["Meds"])
        #expect(try !ReminderStore.adoptLegacy(from: legacy, to: path))
    }
}
