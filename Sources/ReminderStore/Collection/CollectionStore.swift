import GRDB
import ReminderCore

/// The linked collection's side of the store: the items as remindd last wrote or read them, and what another
/// device's items change here (a reminder added or changed, a log or a skip made there, an item removed), each
/// applied with its item's row in one transaction.
public struct CollectionStore: Sendable {
    let database: ReminderStore

    /// This store's id, which the occurrence tasks it writes first carry (`X-REMINDD-WRITER`).
    public func instanceID() throws(StoreError) -> String {
        try database.read { db in try StoreInstanceRecord.id(in: db) }
    }

    /// Every item's row, by file name.
    public func items() throws(StoreError) -> [String: CollectionItemRecord] {
        try database.read { db in
            Dictionary(uniqueKeysWithValues: try CollectionItemRecord.fetchAll(db).map { ($0.fileName, $0) })
        }
    }

    /// Every item's row without its text (`text` is empty), by file name: what a scan compares (etags, kinds,
    /// local rows). The texts of 100,000 items held over 60 MB for a scan that reads none of them.
    public func itemsWithoutText() throws(StoreError) -> [String: CollectionItemRecord] {
        try database.read { db in
            // SQL: the record decoded with an empty text in place of the column's.
            let rows = try CollectionItemRecord.fetchAll(db, sql: "SELECT fileName, uid, kind, localId, etag, '' AS text, modifiedAt FROM collectionItem")
            return Dictionary(uniqueKeysWithValues: rows.map { ($0.fileName, $0) })
        }
    }

    /// The texts of the items with these file names (those that exist): read a page at a time by a publish of
    /// everything, which holds the items without their texts (100,000 of them took 50 MB).
    public func texts(of fileNames: [String]) throws(StoreError) -> [String: String] {
        try database.read { db in
            var texts: [String: String] = [:]
            let rows = try Row.fetchCursor(db, CollectionItemRecord.filter(keys: fileNames).select(CollectionItemRecord.Columns.fileName, CollectionItemRecord.Columns.text))
            while let row = try rows.next() { texts[row[0]] = row[1] }
            return texts
        }
    }

    /// The rows of the files `names` (with the completions kept under `name#key`), by file name: a scan of the
    /// entries the watcher named reads these, not every row.
    public func items(named names: Set<String>) throws(StoreError) -> [String: CollectionItemRecord] {
        try database.read { db in
            var found: [String: CollectionItemRecord] = [:]
            for name in names {
                // `name#...`: the range from "name#" to "name$" ('$' follows '#'), on the file name's index.
                let fileName = CollectionItemRecord.Columns.fileName
                for item in try CollectionItemRecord.filter(fileName == name || (fileName >= name + "#" && fileName < name + "$")).fetchAll(db) {
                    found[item.fileName] = item
                }
            }
            return found
        }
    }

    /// How many files are linked (completions under `name#key` not counted): read only when a named file is gone,
    /// to judge whether the folder lost most of them (a count of every row, at each of remindd's own writes, was
    /// most of a publish's cost with 100,000 items).
    public func linkedFileCount() throws(StoreError) -> Int {
        try database.read { db in try CollectionItemRecord.all().files().fetchCount(db) }
    }

    /// The file of the reminder item (or alias) that has `uid`, if any.
    public func fileName(ofReminderUID uid: String) throws(StoreError) -> String? {
        try database.read { db in
            try CollectionItemRecord.all().reminder(uid: uid).select(CollectionItemRecord.Columns.fileName, as: String.self).fetchOne(db)
        }
    }

    /// The logs and skips kept while their reminder was gone (not applied here: no local row), their own files.
    public func keptRecords() throws(StoreError) -> [CollectionItemRecord] {
        try database.read { db in
            try CollectionItemRecord.filter(["taken", "skipped"].contains(CollectionItemRecord.Columns.kind) && CollectionItemRecord.Columns.localId == nil)
                .files().fetchAll(db)
        }
    }

    /// Records an item as written or read.
    public func save(_ item: CollectionItemRecord) throws(StoreError) {
        try save([item])
    }

    /// Records items as written, in one transaction.
    public func save(_ items: [CollectionItemRecord]) throws(StoreError) {
        guard !items.isEmpty else { return }
        try database.write { db in for item in items { try item.save(db) } }
    }

    /// Forgets an item (its file was removed).
    public func forget(fileName: String) throws(StoreError) {
        try database.write { db in _ = try CollectionItemRecord.deleteOne(db, key: fileName) }
    }

    /// The reminders remindd publishes (its own, not a calendar's alarms), by id after `after`, `limit` of them:
    /// a publish of everything reads them a page at a time.
    public func publishedReminders(after: Int64, limit: Int) throws(StoreError) -> [StoredReminder] {
        try page(StoredReminder.all().own(), after: after, limit: limit)
    }

    /// Every log, by id after `after`, `limit` of them.
    public func publishedLogs(after: Int64, limit: Int) throws(StoreError) -> [IntakeRecord] {
        try page(IntakeRecord.all(), after: after, limit: limit)
    }

    /// The skips, by id after `after`, `limit` of them.
    public func publishedSkips(after: Int64, limit: Int) throws(StoreError) -> [Stored<OutcomeRecord>] {
        try page(OutcomeRecord.all().skips().stored(), after: after, limit: limit)
    }

    /// A page of rows by id (each of these tables' `id` is its rowid: an auto-incremented primary key).
    private func page<Record: FetchableRecord>(_ request: QueryInterfaceRequest<Record>, after: Int64, limit: Int) throws(StoreError) -> [Record] {
        try database.read { db in try request.filter(Column.rowID > after).order(Column.rowID).limit(limit).fetchAll(db) }
    }

    /// The reminders that have logs or skips.
    public func reminderIDsWithRecords() throws(StoreError) -> Set<Int64> {
        try database.read { db in try IntakeStore.reminderIDsWithLogs(in: db).union(try FiringsStore.reminderIDsWithSkips(in: db)) }
    }

    /// What remindd publishes of the rows in `changes` (those that still exist), with the reminders their logs and
    /// skips belong to, and the items of all of them: a publish after a change reads these, not every row.
    public func published(_ changes: CollectionChanges) throws(StoreError) -> (
        rows: (reminders: [StoredReminder], logs: [IntakeRecord], skips: [Stored<OutcomeRecord>]), items: [String: CollectionItemRecord]
    ) {
        try database.read { db in
            let logs = try IntakeRecord.filter(keys: changes.logs).order(IntakeRecord.Columns.id).fetchAll(db)
            let skips = try OutcomeRecord.filter(keys: changes.skips).skips().order(OutcomeRecord.Columns.id).stored().fetchAll(db)
            let reminderIDs = changes.reminders.union(logs.map(\.reminderId)).union(skips.map(\.reminderId))
            let reminders = try StoredReminder.filter(keys: reminderIDs).own().order(StoredReminder.Columns.id).fetchAll(db)
            let localId = CollectionItemRecord.Columns.localId, kind = CollectionItemRecord.Columns.kind
            let items = try CollectionItemRecord.filter(
                ([CollectionItemRecord.Kind.reminder.rawValue, CollectionItemRecord.Kind.occurrence.rawValue].contains(kind) && reminderIDs.contains(localId))
                    || (kind == CollectionItemRecord.Kind.taken.rawValue && changes.logs.contains(localId))
                    || (kind == CollectionItemRecord.Kind.skipped.rawValue && changes.skips.contains(localId))
            ).fetchAll(db)
            return ((reminders, logs, skips), Dictionary(items.map { ($0.fileName, $0) }) { a, _ in a })
        }
    }

    /// Whether the reminder of an item's UID exists here (a log's item names its reminder by UID).
    public func isLinkedReminder(uid: String) throws(StoreError) -> Bool {
        try database.read { db in try Self.linkedReminder(uid: uid, in: db) != nil }
    }

    /// Applies a reminder another device wrote: changes the reminder its item stands for (keeping this machine's
    /// command and calendar settings), or adopts an unlinked reminder of the same name, or adds it (a name taken
    /// here gets " (2)" ...). - Returns: the reminder's id, and the file of this device's own item when it gave
    /// way to the other's (the caller removes it from the folder).
    public func apply(_ reminder: CollectionItem.Reminder, item: CollectionItemRecord, now: Instant) throws(StoreError) -> (id: Int64, dropped: String?) {
        try database.write { db in
            var dropped: String?
            var row: StoredReminder?
            if let id = item.localId { row = try StoredReminder.fetchOne(db, key: id) }
            if row == nil, let namesake = try StoredReminder.all().named(reminder.name).own().fetchOne(db) {
                // Added on each device before they were linked (or the built-in check-in of each): one reminder, not
                // two. The smaller UID is kept on both devices: the other device's item becomes an alias here, or
                // this device's own item gives way to it.
                let own = try CollectionItemRecord.filter(CollectionItemRecord.Columns.kind == CollectionItemRecord.Kind.reminder.rawValue && CollectionItemRecord.Columns.localId == namesake.id).fetchOne(db)
                if let own, own.uid < reminder.uid {
                    var alias = item
                    (alias.kind, alias.localId) = (.alias, namesake.id)
                    try alias.save(db)
                    return (namesake.id, nil)
                }
                if let own {
                    try CollectionItemRecord.deleteOne(db, key: own.fileName)
                    dropped = own.fileName
                }
                row = namesake
            }
            let returning = row == nil ? try Self.returningID(reminder.uid, db) : nil
            var fields = row?.fields ?? ReminderFields(
                name: reminder.name, rule: reminder.rule, timeZone: reminder.timeZone,
                enabled: reminder.enabled, createdAt: now.secondsSinceEpoch, handledThrough: now.secondsSinceEpoch)
            // When it was added where it was added: the same occurrences are its own on every device.
            if let created = reminder.created { fields.createdAt = min(created.secondsSinceEpoch, now.secondsSinceEpoch) }
            if row != nil, fields.rule != reminder.rule || fields.timeZone != reminder.timeZone || (!fields.enabled && reminder.enabled) {
                fields.handledThrough = max(fields.handledThrough, now.secondsSinceEpoch)
            }
            fields.name = try Self.freeName(reminder.name, for: row?.id ?? returning, db)
            (fields.rule, fields.timeZone, fields.enabled, fields.windowSeconds) = (reminder.rule, reminder.timeZone, reminder.enabled, reminder.windowSeconds)
            fields.delivery = fields.delivery.merging(synced: reminder.delivery)
            let updated: StoredReminder
            if let row {
                updated = StoredReminder(id: row.id, fields: fields)
                try updated.update(db)
            } else {
                updated = try fields.insert(db, id: returning)
                try IntakeStore.restoreKeptLogs(uid: reminder.uid, to: updated.id, in: db)
            }
            var saved = item
            saved.localId = updated.id
            try saved.save(db)
            return (updated.id, dropped)
        }
    }

    /// Applies a log or a skip another device made, unless it is here already. A dose past the reminder's limits
    /// (`--min-interval`, `--max-per-day`, counted with this device's doses) is recorded as forced, as `--force`
    /// records it. - Returns: its reminder's id, or nil when the reminder is not known here (yet: its item may
    /// come with a later scan), and whether the dose was past the limits.
    public func apply(_ record: CollectionItem.Record, item: CollectionItemRecord) throws(StoreError) -> (reminderID: Int64, forced: Bool)? {
        try database.write { db in try Self.apply(record, item: item, in: db) }
    }

    /// ``apply(_:item:)`` for each of `batch`, in one transaction: one flush to the disk, not one per log (the
    /// first read of 30,000 logs from another device spent a minute on them). When the transaction fails, each
    /// is applied in its own, so that one that cannot be applied keeps none of the others out.
    public func apply(_ batch: [(record: CollectionItem.Record, item: CollectionItemRecord)]) -> [Result<(reminderID: Int64, forced: Bool)?, StoreError>] {
        do {
            return try database.write { db in try batch.map { .success(try Self.apply($0.record, item: $0.item, in: db)) } }
        } catch {
            return batch.map { entry in Result { () throws(StoreError) in try apply(entry.record, item: entry.item) } }
        }
    }

    private static func apply(_ record: CollectionItem.Record, item: CollectionItemRecord, in db: Database) throws -> (reminderID: Int64, forced: Bool)? {
        guard let reminder = try linkedReminder(uid: record.reminder, in: db) else { return nil }
        let reminderID = reminder.id
        var saved = item
        var forced = false
        switch record.kind {
        case .taken:
            if let id = item.localId, var here = try IntakeRecord.fetchOne(db, key: id), here.reminderId == reminderID {
                // The log's item came back with another time (two devices' versions of one phone's tick, one kept).
                (here.at, here.timeZone, here.forScheduledAt) = (record.at.secondsSinceEpoch, record.timeZone, record.occurrence?.secondsSinceEpoch)
                try here.update(db)
                try saved.save(db)
                return (reminderID, false)
            }
            // A log put back with its reminder (``restoreKeptLogs``) whose item is read again: the same log.
            let sameLogs = try IntakeStore.logs(of: reminderID, at: record.at, for: record.occurrence, in: db)
            let linkedLogs = try CollectionItemRecord.filter(CollectionItemRecord.Columns.kind == CollectionItemRecord.Kind.taken.rawValue && sameLogs.contains(CollectionItemRecord.Columns.localId))
                .select(CollectionItemRecord.Columns.localId, as: Int64.self).fetchSet(db)
            if let same = sameLogs.first(where: { !linkedLogs.contains($0) }) {
                saved.localId = same
                try saved.save(db)
                return (reminderID, false)
            }
            var log = IntakeFields(
                reminderId: reminderID, at: record.at.secondsSinceEpoch, timeZone: record.timeZone, forScheduledAt: record.occurrence?.secondsSinceEpoch,
                amount: record.amount)
            if case let limits = reminder.delivery.medication.limits, !limits.isEmpty {
                let reach = max(limits.minIntervalSeconds ?? 0, 86400)
                let doses = try IntakeStore.doses(of: reminderID, from: record.at.adding(seconds: -reach), through: record.at.adding(seconds: reach), in: db)
                forced = limits.breach(at: record.at, doses: doses) != nil
                log.forced = forced ? true : nil
            }
            saved.localId = try log.insert(db).id
        case .skipped:
            saved.localId = try FiringsStore.recordSkip(of: reminder, occurrence: record.occurrence ?? record.at, at: record.at, reason: record.reason, in: db)
        }
        try saved.save(db)
        return (reminderID, forced)
    }

    /// Removes what an item stood for (its file is gone from the folder), with the item's row. A reminder's logs
    /// are kept aside (``KeptIntakeRecord``), not removed with it. - Returns: the reminder it concerned, if any,
    /// and how many of its logs were kept.
    public func remove(_ item: CollectionItemRecord, now: Instant) throws(StoreError) -> (reminderID: Int64, keptLogs: Int)? {
        try database.write { db in
            var reminderID: Int64?
            var kept = 0
            if let id = item.localId {
                switch item.kind {
                case .reminder:
                    guard let reminder = try StoredReminder.fetchOne(db, key: id) else { break }
                    kept = try IntakeStore.keepLogs(of: reminder, uid: item.uid, now: now, in: db)
                    if try reminder.delete(db) { reminderID = id }
                case .taken:
                    reminderID = try IntakeStore.deleteLog(id, in: db)
                case .skipped:
                    reminderID = try FiringsStore.deleteSkip(id, in: db)
                case .foreign, .alias, .occurrence, .archive, .removed:
                    break  // an occurrence task deleted in an app: written again while it is in the window
                }
            }
            _ = try CollectionItemRecord.deleteOne(db, key: item.fileName)
            return reminderID.map { ($0, kept) }
        }
    }

    /// The reminder an item's UID stands for here (its own item, or an alias), when it exists.
    static func linkedReminder(uid: String, in db: Database) throws -> StoredReminder? {
        for localID in try CollectionItemRecord.all().reminder(uid: uid).select(CollectionItemRecord.Columns.localId, as: Int64?.self).fetchAll(db).compactMap({ $0 }) {
            if let reminder = try StoredReminder.fetchOne(db, key: localID) { return reminder }
        }
        return nil
    }

    /// The id a reminder removed on another device had, when its item comes back and the id is free: its firing
    /// history, outcomes and kept logs are its own again.
    private static func returningID(_ uid: String, _ db: Database) throws -> Int64? {
        guard let id = try Int64.fetchOne(db, KeptIntakeRecord.filter(KeptIntakeRecord.Columns.reminderUid == uid).select(KeptIntakeRecord.Columns.reminderId)) else { return nil }
        return try StoredReminder.exists(db, key: id) ? nil : id
    }

    /// `name` if no other reminder has it, else "name (2)", "name (3)" ...
    private static func freeName(_ name: String, for id: Int64?, _ db: Database) throws -> String {
        for attempt in 1...1000 {
            let candidate = attempt == 1 ? name : "\(name.prefix(ReminderName.maximumLength - 8)) (\(attempt))"
            let holder = try RemindersStore.holder(ofName: candidate, in: db)
            if holder == nil || holder == id { return candidate }
        }
        throw StoreError.nameTaken(name)
    }
}
