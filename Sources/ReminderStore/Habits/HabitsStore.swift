import GRDB
import ReminderCore

/// Rest days, the one-time recovery, and the habit notices announced once (the habit service's store).
public struct HabitsStore: Sendable {
    let database: ReminderStore

    /// Marks (or re-marks) rest days; all or nothing.
    public func markRestDays(_ days: [RestDayRecord]) throws(StoreError) {
        try database.write { db in
            for day in days { try day.upsert(db) }
        }
    }

    /// Removes a rest day; false when the date was not marked.
    public func unmarkRestDay(_ date: String) throws(StoreError) -> Bool {
        try database.write { db in try RestDayRecord.deleteOne(db, key: date) }
    }

    /// Every rest day, by date.
    public func restDays() throws(StoreError) -> [RestDayRecord] {
        try database.read { db in try RestDayRecord.order(RestDayRecord.Columns.date).fetchAll(db) }
    }

    /// The one-time manual recovery, if it was used.
    public func recovery() throws(StoreError) -> RecoveryRecord? {
        try database.read { db in try RecoveryRecord.order(RecoveryRecord.Columns.id).fetchOne(db) }
    }

    /// Records the manual recovery; refuses a second one (it can be used once, ever).
    public func recordRecovery(days: ClosedRange<Int>, at instant: Instant) throws(StoreError) -> Bool {
        try database.write { db in
            guard try RecoveryRecord.fetchCount(db) == 0 else { return false }
            var record = RecoveryRecord(id: nil, usedAt: instant.secondsSinceEpoch, firstDay: days.lowerBound, lastDay: days.upperBound)
            try record.insert(db)
            return true
        }
    }

    /// Records that a notice was announced; false when it had been already (so it is announced once).
    public func recordNotice(_ key: String, at instant: Instant) throws(StoreError) -> Bool {
        try database.write { db in
            try HabitNoticeRecord(key: key, announcedAt: instant.secondsSinceEpoch).insert(db, onConflict: .ignore)
            return db.changesCount > 0
        }
    }
}
