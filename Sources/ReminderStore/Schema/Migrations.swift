import GRDB

/// The schema: frozen migrations, the tables and columns they make, and which tables hold the user's data.
///
/// Adding a table: a new migration here (never edit a shipped one), its name in ``expectedSchema`` and in
/// ``backupTables`` or ``internalTables``, a record type beside the feature store that owns it.
extension ReminderStore {
    /// Every table of the current schema and its columns. `theSchemaListMatchesTheMigrations` (a test) keeps it
    /// equal to what the migrations create.
    static let expectedSchema: [String: Set<String>] = [
        "reminder": ["id", "name", "rule", "timeZone", "enabled", "createdAt", "handledThrough", "windowSeconds", "delivery", "origin"],
        "calendarItem": ["path", "etag"],
        "stockChange": ["id", "reminderId", "at", "kind", "amount", "seenLogs", "expires", "expirySaidAt"],
        "stockNotice": ["reminderId", "at", "left", "lastChangeId", "shortReportedAt"],
        "intake": ["id", "reminderId", "at", "timeZone", "forScheduledAt", "amount", "forced"],
        "firing": ["id", "reminderId", "reminderName", "slot", "scheduledAt", "handledAt", "kind", "lateSeconds", "slotsDue", "detail", "replanned", "repeats", "lastAnnouncedAt", "confirmed", "againPending",
            "escalatedAt", "escalationPending"],
        "restDay": ["date", "reason", "lightActivities"],
        "recovery": ["id", "usedAt", "firstDay", "lastDay"],
        "habitNotice": ["key", "announcedAt"],
        "workout": ["id", "exercise", "minutes", "intensity", "met", "kcal", "at", "timeZone"],
        "food": ["id", "name", "kcal", "at", "timeZone"],
        "profile": ["key", "value"],
        "snooze": ["id", "reminderId", "scheduledAt", "dueAt"],
        "outcome": ["id", "reminderId", "reminderName", "slot", "scheduledAt", "state", "decidedAt", "reason", "confirmed"],
        "storeInstance": ["id", "lateLogsToMatch", "followedZone"],
        "collectionItem": ["fileName", "uid", "kind", "localId", "etag", "text", "modifiedAt"],
        "calendarImport": ["reminderId", "uid", "key", "file"],
        "keptIntake": ["id", "reminderId", "reminderName", "reminderUid", "at", "timeZone", "forScheduledAt", "amount", "forced", "removedAt"],
    ]

    /// Refuses a store whose migrations are all recorded but a table or column of theirs is missing (dropped by
    /// hand, or a damaged copy).
    static func checkSchema(_ connection: SQLiteConnection) throws(StoreError) {
        for (table, columns) in expectedSchema.sorted(by: { $0.key < $1.key }) {
            let present = Set(try connection.strings("SELECT name FROM pragma_table_info('\(table)')"))
            if present.isEmpty { throw .corrupt(path: connection.reportedPath, detail: "table \(table) is missing") }
            if let column = columns.subtracting(present).sorted().first {
                throw .corrupt(path: connection.reportedPath, detail: "column \(table).\(column) is missing")
            }
        }
    }

    /// The schema, one migration per version; never edit a shipped migration, add a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "reminder") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique().collate(.nocase)
                t.column("rule", .text).notNull()  // RuleSpec as JSON: the user's own words, re-validated on load
                t.column("timeZone", .text)  // null: follows the system zone
                t.column("enabled", .boolean).notNull().defaults(to: true)
                t.column("createdAt", .integer).notNull()
                t.column("handledThrough", .integer).notNull()  // firings at or before this instant are handled
            }
            try db.create(table: "intake") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("reminder", onDelete: .cascade).notNull()
                t.column("at", .integer).notNull()
                t.column("timeZone", .text).notNull()
            }
            try db.create(index: "intake_by_reminder_time", on: "intake", columns: ["reminderId", "at"])
            try db.create(table: "firing") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("reminderId", .integer).notNull()  // kept after the reminder is removed: history
                t.column("reminderName", .text).notNull()
                t.column("slot", .text).notNull()
                t.column("scheduledAt", .integer).notNull()
                t.column("handledAt", .integer).notNull()
                t.column("kind", .text).notNull()
                t.column("lateSeconds", .integer).notNull()
                t.column("slotsDue", .integer).notNull()
                t.column("detail", .text)
                t.uniqueKey(["reminderId", "slot", "scheduledAt"])
            }
            try db.create(index: "firing_by_time", on: "firing", columns: ["handledAt"])
        }
        migrator.registerMigration("v2-habits") { db in
            try db.create(table: "restDay") { t in
                t.primaryKey("date", .text)  // YYYY-MM-DD
                t.column("reason", .text).notNull()
                t.column("lightActivities", .text).notNull().defaults(to: "")  // one per line
            }
            try db.create(table: "recovery") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("usedAt", .integer).notNull()
                t.column("firstDay", .integer).notNull()  // day numbers of the restored missed days
                t.column("lastDay", .integer).notNull()
            }
            try db.create(table: "habitNotice") { t in
                t.primaryKey("key", .text)  // what was announced in the journal, once: "achievement:first_rest_day"
                t.column("announcedAt", .integer).notNull()
            }
        }
        migrator.registerMigration("v3-fitness") { db in
            try db.create(table: "workout") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("exercise", .text).notNull()  // library id
                t.column("minutes", .integer).notNull()
                t.column("intensity", .text).notNull()
                t.column("met", .double).notNull()
                t.column("kcal", .integer).notNull()
                t.column("at", .integer).notNull()
                t.column("timeZone", .text).notNull()
            }
            try db.create(table: "food") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("kcal", .integer).notNull()
                t.column("at", .integer).notNull()
                t.column("timeZone", .text).notNull()
            }
            try db.create(table: "profile") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v4-snoozes") { db in
            try db.create(table: "snooze") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("reminder", onDelete: .cascade).notNull()
                t.column("scheduledAt", .integer).notNull()  // the firing being repeated
                t.column("dueAt", .integer).notNull()
            }
        }
        migrator.registerMigration("v5-replanned-firings") { db in
            // A slot may be handled again after the clock went back (see `recordFiring`): the unique key gains
            // `replanned`, 0 for a slot's first record and 1, 2, ... for each later one. SQLite cannot change a
            // table's unique key, so the table is rebuilt. (Its columns repeat v1's on purpose: a shipped migration
            // is frozen, so the two never share code that could change under one of them.)
            try db.create(table: "firing_v5") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("reminderId", .integer).notNull()  // kept after the reminder is removed: history
                t.column("reminderName", .text).notNull()
                t.column("slot", .text).notNull()
                t.column("scheduledAt", .integer).notNull()
                t.column("handledAt", .integer).notNull()
                t.column("kind", .text).notNull()
                t.column("lateSeconds", .integer).notNull()
                t.column("slotsDue", .integer).notNull()
                t.column("detail", .text)
                t.column("replanned", .integer).notNull().defaults(to: 0)
                t.uniqueKey(["reminderId", "slot", "scheduledAt", "replanned"])
            }
            try db.execute(sql: """
                INSERT INTO firing_v5 (id, reminderId, reminderName, slot, scheduledAt, handledAt, kind, lateSeconds, slotsDue, detail)
                SELECT id, reminderId, reminderName, slot, scheduledAt, handledAt, kind, lateSeconds, slotsDue, detail FROM firing;
                DROP TABLE firing;
                ALTER TABLE firing_v5 RENAME TO firing;
                """)
            try db.create(index: "firing_by_time", on: "firing", columns: ["handledAt"])
        }
        migrator.registerMigration("v6-occurrence-outcomes") { db in
            // A reminder's own window (nil: until its next occurrence); what became of an occurrence once its
            // window closed with nothing logged (missed), or when the user skipped it.
            try db.alter(table: "reminder") { t in t.add(column: "windowSeconds", .integer) }
            try db.create(table: "outcome") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("reminderId", .integer).notNull()  // kept after the reminder is removed: history
                t.column("reminderName", .text).notNull()
                t.column("slot", .text).notNull()
                t.column("scheduledAt", .integer).notNull()
                t.column("state", .text).notNull()
                t.column("decidedAt", .integer).notNull()
                t.column("reason", .text)
                t.uniqueKey(["reminderId", "scheduledAt", "state"])
            }
            try db.create(index: "outcome_by_time", on: "outcome", columns: ["decidedAt"])
        }
        migrator.registerMigration("v7-delivery") { db in
            // Repeats until acknowledged, a command per reminder, critical urgency: JSON, null for the default.
            try db.alter(table: "reminder") { t in t.add(column: "delivery", .text) }
            try db.create(index: "intake_by_time", on: "intake", columns: ["at"])
        }
        migrator.registerMigration("v8-repeats-and-skips") { db in
            // Repeats and the last re-announcement survive a restart; skips per reminder for per-goal streaks.
            try db.alter(table: "firing") { t in
                t.add(column: "repeats", .integer).notNull().defaults(to: 0)
                t.add(column: "lastAnnouncedAt", .integer)
            }
            try db.create(index: "outcome_by_reminder", on: "outcome", columns: ["reminderId", "scheduledAt"])
        }
        migrator.registerMigration("v9-announcement-ledger") { db in
            // A firing is recorded unconfirmed, announced, then confirmed: one left unconfirmed by a crash is
            // looked up in the journal at the next start (by its store instance and id) and announced if absent.
            try db.alter(table: "firing") { t in t.add(column: "confirmed", .boolean).notNull().defaults(to: true) }
            // A partial index: the few unconfirmed rows, found at once.
            try db.create(index: "firing_unconfirmed", on: "firing", columns: ["id"], condition: Column("confirmed") == false)
            // Which store this is, for the journal: ids of a new or restored store repeat another's.
            try db.create(table: "storeInstance") { t in t.column("id", .text).notNull() }
            // SQL: the query interface has no randomblob.
            try db.execute(sql: "INSERT INTO storeInstance (id) VALUES (lower(hex(randomblob(16))))")
        }
        migrator.registerMigration("v10-unconfirmed-notes") { db in
            // A missed note and a repeat (or snooze) are recorded, announced, then confirmed like a firing: one a
            // crash left unconfirmed is looked up in the journal at the next start and announced if absent.
            try db.alter(table: "outcome") { t in t.add(column: "confirmed", .boolean).notNull().defaults(to: true) }
            try db.create(index: "outcome_unconfirmed", on: "outcome", columns: ["id"], condition: Column("confirmed") == false)
            // The repeat number of an announcement again noted but not confirmed (0: a snooze), else null.
            try db.alter(table: "firing") { t in t.add(column: "againPending", .integer) }
            try db.create(index: "firing_again_pending", on: "firing", columns: ["id"], condition: Column("againPending") != nil)
        }
        migrator.registerMigration("v11-taken-late") { db in
            // A log made for a missed occurrence after its window closed ("Taken late"): the occurrence's instant.
            // Such a log neither covers nor suppresses another occurrence.
            try db.alter(table: "intake") { t in t.add(column: "forScheduledAt", .integer) }
            try db.create(index: "intake_taken_late", on: "intake", columns: ["reminderId", "forScheduledAt"], condition: Column("forScheduledAt") != nil)
        }
        migrator.registerMigration("v12-calendar-alarms") { db in
            // A read-only calendar's alarm is a reminder whose origin is the item file it came from (its
            // absolute path); null for the user's own reminders. Found by folder when the folder is rescanned.
            try db.alter(table: "reminder") { t in t.add(column: "origin", .text) }
            try db.create(index: "reminder_by_origin", on: "reminder", columns: ["origin"], condition: Column("origin") != nil)
        }
        migrator.registerMigration("v13-collection-items") { db in
            // The linked collection's items as remindd last wrote or read them: which row each stands for, the
            // file's etag then (mtime, inode, size: an equal one was not touched since) and its text (what a
            // rewrite keeps of other clients' properties). Sync state, rebuilt from the folder: not backed up.
            try db.create(table: "collectionItem") { t in
                t.column("fileName", .text).primaryKey()
                t.column("uid", .text).notNull()
                t.column("kind", .text).notNull()  // reminder, taken, skipped, foreign
                t.column("localId", .integer)  // reminder.id, intake.id or outcome.id
                t.column("etag", .text).notNull()
                t.column("text", .text).notNull()
                t.column("modifiedAt", .integer).notNull()
            }
            try db.create(index: "collectionItem_by_row", on: "collectionItem", columns: ["kind", "localId"])
        }
        migrator.registerMigration("v14-calendar-items") { db in
            // What the alarms of each read-only calendar item were planned from (the file's etag, the planner's
            // version, the calendar's name): an item unchanged since is not read again at the next start. Derived
            // from the folders: not backed up.
            try db.create(table: "calendarItem") { t in
                t.column("path", .text).primaryKey()
                t.column("etag", .text).notNull()
            }
        }
        migrator.registerMigration("v15-intake-amount") { db in
            // How much a log took, in thousandths of its reminder's dose unit (a half tablet: 500); null for a log
            // of a reminder without a dose.
            try db.alter(table: "intake") { t in t.add(column: "amount", .integer) }
        }
        migrator.registerMigration("v16-stock") { db in
            // A medication's stock: each count (set) and refill (added), in thousandths of the dose's unit; what is
            // left follows from them and the logs' amounts. And when the low-stock notice was last given, with what
            // was left then and the last change it saw (the stock grows past that: it may be given again).
            try db.create(table: "stockChange") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("reminder", onDelete: .cascade).notNull()
                t.column("at", .integer).notNull()
                t.column("kind", .text).notNull()  // set, added
                t.column("amount", .integer).notNull()
            }
            try db.create(table: "stockNotice") { t in
                t.primaryKey("reminderId", .integer).references("reminder", onDelete: .cascade)
                t.column("at", .integer).notNull()
                t.column("left", .integer).notNull()
                t.column("lastChangeId", .integer).notNull()
            }
        }
        migrator.registerMigration("v17-stock-short-reported") { db in
            // The last dose logged with less left than it took that was said in the journal (each is said once).
            try db.alter(table: "stockNotice") { t in t.add(column: "shortReportedAt", .integer) }
        }
        migrator.registerMigration("v18-firing-escalated") { db in
            // When the occurrence's escalation ran at its `--escalate-after` delay (epoch seconds): once, across
            // restarts, and not again when it is missed.
            try db.alter(table: "firing") { t in t.add(column: "escalatedAt", .integer) }
        }
        migrator.registerMigration("v19-intake-forced") { db in
            // 1 for a dose logged with --force past its reminder's limits (--min-interval, --max-per-day).
            try db.alter(table: "intake") { t in t.add(column: "forced", .boolean) }
        }
        migrator.registerMigration("v20-escalation-pending") { db in
            // 1 from when an escalation is noted (before its command runs) until it is confirmed as announced: a
            // crash between is looked up in the journal at the next start, not run again on a guess.
            try db.alter(table: "firing") { t in t.add(column: "escalationPending", .boolean) }
        }
        migrator.registerMigration("v21-as-needed-index") { db in
            // The reminders taken as needed, which `Next` and `today` list, found without reading every rule (with
            // 100,000 reminders the scan made a `Next` call 17 ms). The query repeats the WHERE term word for word
            // (``RemindersStore/asNeededTerm``): only then does SQLite use a partial index.
            try db.execute(sql: "CREATE INDEX reminder_as_needed ON reminder(id) WHERE \(RemindersStore.asNeededTerm)")
        }
        migrator.registerMigration("v22-collection-item-uid") { db in
            // A log or skip from the collection finds its reminder's item by UID: without an index, each of a
            // collection's 30,000 logs read every row (the first read of three years of logs did not end in 600 s).
            try db.create(index: "collectionItem_by_uid", on: "collectionItem", columns: ["uid"])
        }
        migrator.registerMigration("v23-kept-intake") { db in
            // The logs of a reminder removed on another device: kept here (a sync never erases a dose history),
            // with their ids, and put back when an item of the same UID comes back.
            try db.create(table: "keptIntake") { t in
                t.primaryKey("id", .integer)  // the log's own id in `intake`
                t.column("reminderId", .integer).notNull()
                t.column("reminderName", .text).notNull()
                t.column("reminderUid", .text).notNull()
                t.column("at", .integer).notNull()
                t.column("timeZone", .text).notNull()
                t.column("forScheduledAt", .integer)
                t.column("amount", .integer)
                t.column("forced", .boolean)
                t.column("removedAt", .integer).notNull()
            }
            try db.create(index: "keptIntake_by_uid", on: "keptIntake", columns: ["reminderUid"])
        }
        migrator.registerMigration("v24-calendar-import") { db in
            // Which event and alarm of an imported iCalendar file a reminder came from: `import --update` changes
            // it in place (its logs kept) when the file is imported again.
            try db.create(table: "calendarImport") { t in
                t.primaryKey("reminderId", .integer).references("reminder", onDelete: .cascade)
                t.column("uid", .text).notNull()
                t.column("key", .text).notNull().unique()
                t.column("file", .text).notNull()
            }
            try db.create(index: "calendarImport_by_uid", on: "calendarImport", columns: ["uid"])
        }
        migrator.registerMigration("v25-stock-seen-logs") { db in
            // How many of the reminder's logs (with an amount) in the count's own second it already saw: `log`
            // then `stock set 300` in one second leaves 300, not 290 (ids change in a merge: a count stays).
            try db.alter(table: "stockChange") { t in t.add(column: "seenLogs", .integer).notNull().defaults(to: 0) }
            // Plain logs that may take a missed occurrence late, matched by the daemon at its next start (a rule
            // is needed): logs made before late takes were matched when logged (2026-11-26) and restored ones.
            try db.alter(table: "storeInstance") { t in t.add(column: "lateLogsToMatch", .boolean).notNull().defaults(to: false) }
            try db.execute(sql: "UPDATE storeInstance SET lateLogsToMatch = EXISTS (SELECT 1 FROM intake WHERE forScheduledAt IS NULL)")
        }
        migrator.registerMigration("v26-followed-zone") { db in
            // The zone the reminders without their own followed when remindd last ran: a start in another one
            // (the machine travelled while off) moves them as a change while running does (`ZoneMove`).
            try db.alter(table: "storeInstance") { t in t.add(column: "followedZone", .text) }
        }
        migrator.registerMigration("v27-stock-packs") { db in
            // A count or a refill is a pack with the last day it may be used (YYYY-MM-DD; NULL: none, which every
            // earlier count and refill is), and when its expiry was said (once).
            try db.alter(table: "stockChange") { t in
                t.add(column: "expires", .text)
                t.add(column: "expirySaidAt", .integer)
            }
        }
        migrator.registerMigration("v28-firing-by-reminder") { db in
            // One reminder's history, newest first (`history --reminder`): with only the unique key's index, a
            // reminder of twenty years' firings had every one of them read and sorted for the newest 20 (814 ms).
            try db.create(index: "firing_by_reminder_time", on: "firing", columns: ["reminderId", "handledAt"])
        }
        return migrator
    }


    /// The tables that hold the user's data, in the order a backup writes and restores them (parents first:
    /// reminders before what refers to them). The one list of them: `everyTableIsBackedUpOrInternal` (a test)
    /// fails when a migration adds a table that is in neither this list nor ``internalTables``.
    public static let backupTables = [
        "reminder", "calendarImport", "firing", "food", "habitNotice", "intake", "keptIntake", "outcome", "profile", "recovery", "restDay", "snooze", "stockChange",
        "workout",
    ]

    /// The tables that describe this store rather than hold the user's data: never backed up or restored.
    public static let internalTables: Set<String> = ["storeInstance", "collectionItem", "calendarItem", "stockNotice"]
}
