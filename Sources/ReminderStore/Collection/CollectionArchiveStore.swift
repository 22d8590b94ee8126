import GRDB
import ReminderCore

/// The store's side of folding old logs and skips into monthly archive items (``CollectionArchive``).
extension CollectionStore {
    /// One log or skip of a month, with its item's row if it has one.
    public struct ArchivedRecord: Sendable, Hashable {
        public var kind: CollectionItemRecord.Kind
        public var localId: Int64
        public var at: Instant
        public var timeZone: String
        public var occurrence: Instant?
        public var amount: Int64?
        public var reason: String?
        public var row: CollectionItemRecord?
    }

    /// The reminders and quarters (UTC, named by their first month: `2026-07`) that have logs or skips before `cutoff` not folded yet: with an
    /// item of their own, or none. A task app's completion kept in its task's item (`file#key`) is not folded: the
    /// item says it.
    public func monthsToFold(before cutoff: Instant) throws(StoreError) -> Set<Month> {
        try database.read { db in
            var months: Set<Month> = []
            let sql = """
                SELECT r.localId, t.at FROM (
                    SELECT id, reminderId, at, 'taken' AS kind FROM intake WHERE at < :cutoff
                    UNION ALL SELECT id, reminderId, decidedAt, 'skipped' FROM outcome WHERE state = 'skipped' AND decidedAt < :cutoff
                ) t
                JOIN collectionItem r ON r.kind = 'reminder' AND r.localId = t.reminderId
                WHERE NOT EXISTS (SELECT 1 FROM collectionItem c WHERE c.kind = t.kind AND c.localId = t.id AND c.fileName LIKE '%#%')
                """
            for row in try Row.fetchAll(db, sql: sql, arguments: ["cutoff": cutoff.secondsSinceEpoch]) {
                months.insert(Month(reminderID: row[0], month: CollectionArchive.month(of: Instant(secondsSinceEpoch: row[1]))))
            }
            return months
        }
    }

    /// A reminder and a UTC quarter (``CollectionArchive/month``).
    public struct Month: Sendable, Hashable, Comparable {
        public var reminderID: Int64
        public var month: String

        public init(reminderID: Int64, month: String) { (self.reminderID, self.month) = (reminderID, month) }

        public static func < (a: Month, b: Month) -> Bool { (a.reminderID, a.month) < (b.reminderID, b.month) }

        /// Its first instant and the next quarter's.
        var span: (from: Int64, to: Int64) {
            let first = ISO8601.parseDate(month + "-01")!
            let next = first.month >= 10 ? LocalDate(year: first.year + 1, month: 1, day: 1)! : LocalDate(year: first.year, month: first.month + 3, day: 1)!
            return (Int64(first.dayNumber) * 86_400, Int64(next.dayNumber) * 86_400)
        }
    }

    /// Every log and skip of a reminder in a month that is folded or to be folded (not a completion kept in a
    /// task's item), with its row.
    public func records(of month: Month) throws(StoreError) -> [ArchivedRecord] {
        try database.read { db in
            let (from, to) = month.span
            let logs = try IntakeRecord.filter(IntakeRecord.Columns.reminderId == month.reminderID && IntakeRecord.Columns.at >= from && IntakeRecord.Columns.at < to).fetchAll(db)
            let skips = try OutcomeRecord.filter(OutcomeRecord.Columns.reminderId == month.reminderID && OutcomeRecord.Columns.decidedAt >= from && OutcomeRecord.Columns.decidedAt < to)
                .skips().stored().fetchAll(db)
            let item = CollectionItemRecord.Columns.self
            func rows(_ kind: CollectionItemRecord.Kind, _ ids: [Int64]) throws -> [Int64: CollectionItemRecord] {
                Dictionary(try CollectionItemRecord.filter(item.kind == kind.rawValue && ids.contains(item.localId)).fetchAll(db).map { ($0.localId!, $0) }) { a, _ in a }
            }
            let logRows = try rows(.taken, logs.compactMap(\.id))
            let skipRows = try rows(.skipped, skips.map(\.id))
            func folded(_ row: CollectionItemRecord?) -> Bool { row.map { !$0.fileName.contains("#") || $0.fileName.contains("-archive-") } ?? true }
            var found: [ArchivedRecord] = []
            for log in logs where folded(logRows[log.id]) {
                found.append(ArchivedRecord(
                    kind: .taken, localId: log.id, at: Instant(secondsSinceEpoch: log.at), timeZone: log.timeZone,
                    occurrence: log.forScheduledAt.map(Instant.init(secondsSinceEpoch:)), amount: log.amount, reason: nil, row: logRows[log.id]))
            }
            for skip in skips where folded(skipRows[skip.id]) {
                found.append(ArchivedRecord(
                    kind: .skipped, localId: skip.id, at: Instant(secondsSinceEpoch: skip.decidedAt), timeZone: "UTC",
                    occurrence: Instant(secondsSinceEpoch: skip.scheduledAt), amount: nil, reason: skip.reason.flatMap { $0.isEmpty ? nil : $0 }, row: skipRows[skip.id]))
            }
            return found
        }
    }

    /// The UIDs of a reminder's records deleted from the archives of a month (their `removed` rows).
    public func removedRecords(reminderUID: String, month: String) throws(StoreError) -> Set<String> {
        try database.read { db in
            let prefix = CollectionItem.fileName(uid: reminderUID + "-archive-" + month)
            let stem = String(prefix.dropLast(".ics".count))
            let rows = try CollectionItemRecord.filter(CollectionItemRecord.Columns.kind == CollectionItemRecord.Kind.removed.rawValue
                && CollectionItemRecord.Columns.fileName.like(stem + "%#%")).fetchAll(db)
            return Set(rows.map(\.uid))
        }
    }

    /// The rows of these UIDs whose log or skip exists here (or that say it was removed), by UID: an archive's
    /// records this device has, under any file. A row left by a log that went with its reminder is not one.
    public func rows(uids: Set<String>) throws(StoreError) -> [String: CollectionItemRecord] {
        try database.read { db in
            var found: [String: CollectionItemRecord] = [:]
            for part in ReminderStore.inParts(Array(uids)) {
                for row in try CollectionItemRecord.filter(part.contains(CollectionItemRecord.Columns.uid)).fetchAll(db) {
                    switch row.kind {
                    case .taken: if let id = row.localId, try IntakeRecord.exists(db, key: id) { found[row.uid] = row }
                    case .skipped: if let id = row.localId, try OutcomeRecord.exists(db, key: id) { found[row.uid] = row }
                    case .removed: found[row.uid] = row
                    default: continue
                    }
                }
            }
            return found
        }
    }

    /// The archive items of the reminders with these UIDs.
    public func archives(ofReminders uids: [String]) throws(StoreError) -> [CollectionItemRecord] {
        try database.read { db in
            try uids.flatMap { uid in
                let stem = String(CollectionItem.fileName(uid: uid + "-archive-").dropLast(".ics".count))
                return try CollectionItemRecord.filter(CollectionItemRecord.Columns.kind == CollectionItemRecord.Kind.archive.rawValue
                    && CollectionItemRecord.Columns.fileName.like(stem + "%")).fetchAll(db)
            }
        }
    }

    /// Replaces rows in one transaction: `removed` forgotten, `saved` recorded.
    public func replace(removing removed: [String], saving saved: [CollectionItemRecord]) throws(StoreError) {
        try database.write { db in
            for fileName in removed { _ = try CollectionItemRecord.deleteOne(db, key: fileName) }
            for row in saved { try row.save(db) }
        }
    }
}

extension CollectionStore {
    /// The UID of a reminder's item and its name (nil: it has no item, or is gone).
    public func link(ofReminder id: Int64) throws(StoreError) -> (uid: String, name: String)? {
        try database.read { db in
            guard let reminder = try StoredReminder.fetchOne(db, key: id),
                let row = try CollectionItemRecord.filter(CollectionItemRecord.Columns.kind == CollectionItemRecord.Kind.reminder.rawValue && CollectionItemRecord.Columns.localId == id).fetchOne(db)
            else { return nil }
            return (row.uid, reminder.name)
        }
    }
}
