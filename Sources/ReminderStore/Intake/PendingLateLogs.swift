import GRDB
import ReminderCore

/// Plain logs that may take a missed occurrence late but were recorded without saying so: a store's logs from
/// before late takes were matched when logged (2026-11-26), and a restored backup's. The store marks them
/// pending (`storeInstance.lateLogsToMatch`, set by migration v25 and by a restore); the daemon matches them
/// with each reminder's rule before it reads its schedule.
extension IntakeStore {
    /// Whether logs wait to be matched.
    public func lateLogsToMatch() throws(StoreError) -> Bool {
        try database.read { db in try Bool.fetchOne(db, sql: "SELECT lateLogsToMatch FROM storeInstance") ?? false }
    }

    /// The reminders with plain logs (not late takes).
    public func remindersWithPlainLogs() throws(StoreError) -> [Int64] {
        try database.read { db in try Int64.fetchAll(db, sql: "SELECT DISTINCT reminderId FROM intake WHERE forScheduledAt IS NULL ORDER BY reminderId") }
    }

    /// A reminder's plain logs, oldest first.
    public func plainLogs(reminderID: Int64) throws(StoreError) -> [(id: Int64, at: Instant)] {
        try database.read { db in
            try Row.fetchAll(
                db, IntakeRecord.all().of(reminderID).filter(IntakeRecord.Columns.forScheduledAt == nil)
                    .order(IntakeRecord.Columns.at, IntakeRecord.Columns.id).select(IntakeRecord.Columns.id, IntakeRecord.Columns.at)
            ).map { (id: $0[0], at: Instant(secondsSinceEpoch: $0[1])) }
        }
    }

    /// Records logs (by id) as late takes of their occurrences (one transaction, one statement compiled: one per
    /// log took 1.5 s of a first start's 2.6 s for 18,000 late logs).
    public func recordLateTakes(_ occurrences: [Int64: Instant]) throws(StoreError) {
        guard !occurrences.isEmpty else { return }
        try database.write { db in
            let (table, id, forScheduledAt) = (IntakeRecord.databaseTableName, IntakeRecord.Columns.id.name, IntakeRecord.Columns.forScheduledAt.name)
            let update = try db.cachedStatement(sql: "UPDATE \(table) SET \(forScheduledAt) = ? WHERE \(id) = ? AND \(forScheduledAt) IS NULL")
            for (logID, occurrence) in occurrences {
                try update.execute(arguments: [occurrence.secondsSinceEpoch, logID])
            }
        }
    }

    /// Records that no log waits to be matched any more.
    public func lateLogsMatched() throws(StoreError) {
        try database.write { db in try db.execute(sql: "UPDATE storeInstance SET lateLogsToMatch = 0") }
    }
}
