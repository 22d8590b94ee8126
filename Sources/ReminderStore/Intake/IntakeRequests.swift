import GRDB
import ReminderCore

extension DerivableRequest<IntakeRecord> {
    /// The logs of one reminder.
    public func of(_ reminderID: Int64) -> Self { filter(IntakeRecord.Columns.reminderId == reminderID) }

    /// The logs from one instant through another (inclusive).
    public func between(_ from: Instant, _ through: Instant) -> Self {
        filter((from.secondsSinceEpoch...through.secondsSinceEpoch).contains(IntakeRecord.Columns.at))
    }
}

// MARK: In other stores' transactions

extension IntakeStore {
    /// The reminders that have logs, in `db`'s transaction.
    static func reminderIDsWithLogs(in db: Database) throws -> Set<Int64> {
        try IntakeRecord.select(IntakeRecord.Columns.reminderId, as: Int64.self).distinct().fetchSet(db)
    }

    /// The instants of a reminder's doses from one instant through another, late takes too.
    static func doses(of reminderID: Int64, from: Instant, through: Instant, in db: Database) throws -> [Instant] {
        try IntakeRecord.all().of(reminderID).between(from, through).select(IntakeRecord.Columns.at, as: Int64.self).fetchAll(db)
            .map(Instant.init(secondsSinceEpoch:))
    }

    /// Each dose of a reminder since `instant` that has an amount, with it: read by a cursor (years of doses held
    /// as records cost 170 bytes each).
    static func forEachAmount(of reminderID: Int64, since instant: Instant, in db: Database, _ body: (Instant, Int64) -> Void) throws {
        let request = IntakeRecord.all().of(reminderID).filter(IntakeRecord.Columns.at >= instant.secondsSinceEpoch && IntakeRecord.Columns.amount != nil)
            .order(IntakeRecord.Columns.at, IntakeRecord.Columns.id)
        let rows = try Row.fetchCursor(db, request.select(IntakeRecord.Columns.at, IntakeRecord.Columns.amount))
        while let row = try rows.next() { body(Instant(secondsSinceEpoch: row[0]), row[1]) }
    }

    /// How many logs with an amount a reminder has in the second of `instant`.
    static func amountsLogged(by reminderID: Int64, at instant: Instant, in db: Database) throws -> Int64 {
        try Int64(IntakeRecord.all().of(reminderID).between(instant, instant).filter(IntakeRecord.Columns.amount != nil).fetchCount(db))
    }

    /// The logs of a reminder at `at` for `occurrence` (nil: not a late take), by id.
    static func logs(of reminderID: Int64, at: Instant, for occurrence: Instant?, in db: Database) throws -> [Int64] {
        try IntakeRecord.all().of(reminderID).between(at, at)
            .filter(IntakeRecord.Columns.forScheduledAt == occurrence?.secondsSinceEpoch)
            .select(IntakeRecord.Columns.id, as: Int64.self).fetchAll(db)
    }

    /// Deletes a log. - Returns: its reminder, or nil when there was no such log.
    static func deleteLog(_ id: Int64, in db: Database) throws -> Int64? {
        guard let log = try IntakeRecord.fetchOne(db, key: id) else { return nil }
        try log.delete(db)
        return log.reminderId
    }

    /// Keeps aside the logs of a reminder about to be removed (``KeptIntakeRecord``), with its name and UID, so
    /// that they come back with it. - Returns: how many.
    static func keepLogs(of reminder: StoredReminder, uid: String, now: Instant, in db: Database) throws -> Int {
        let logs = try IntakeRecord.all().of(reminder.id).fetchAll(db)
        for log in logs {
            try KeptIntakeRecord(
                id: log.id, reminderId: log.reminderId, reminderName: reminder.name, reminderUid: uid, at: log.at, timeZone: log.timeZone,
                forScheduledAt: log.forScheduledAt, amount: log.amount, forced: log.forced, removedAt: now.secondsSinceEpoch
            ).save(db)
        }
        return logs.count
    }

    /// Puts back the logs kept when the reminder of this UID was removed, with their own ids, as the logs of
    /// `reminderID` (a log whose id was taken meanwhile stays out).
    static func restoreKeptLogs(uid: String, to reminderID: Int64, in db: Database) throws {
        let kept = KeptIntakeRecord.filter(KeptIntakeRecord.Columns.reminderUid == uid)
        for log in try kept.fetchAll(db) {
            let restored = IntakeFields(
                reminderId: reminderID, at: log.at, timeZone: log.timeZone, forScheduledAt: log.forScheduledAt, amount: log.amount, forced: log.forced)
            try restored.insertUnlessTaken(db, id: log.id)
        }
        try kept.deleteAll(db)
    }
}
