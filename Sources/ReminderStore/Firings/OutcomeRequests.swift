import GRDB
import ReminderCore

extension DerivableRequest<OutcomeRecord> {
    /// The occurrences skipped on purpose (not those missed).
    public func skips() -> Self { filter(OutcomeRecord.Columns.state == OutcomeRecord.State.skipped.rawValue) }

    /// The outcomes of one reminder.
    public func of(_ reminderID: Int64) -> Self { filter(OutcomeRecord.Columns.reminderId == reminderID) }
}

// MARK: In other stores' transactions

extension FiringsStore {
    /// The reminders that have skips, in `db`'s transaction.
    static func reminderIDsWithSkips(in db: Database) throws -> Set<Int64> {
        try OutcomeRecord.all().skips().select(OutcomeRecord.Columns.reminderId, as: Int64.self).distinct().fetchSet(db)
    }

    /// Records that an occurrence of a reminder was skipped (another device skipped it), unless it was decided
    /// already. - Returns: the skip's id, or nil when the occurrence was decided otherwise (missed) here.
    static func recordSkip(of reminder: StoredReminder, occurrence: Instant, at: Instant, reason: String?, in db: Database) throws -> Int64? {
        let reminderID = reminder.id
        let skip = OutcomeRecord(
            reminderId: reminderID, reminderName: reminder.name, slot: "", scheduledAt: occurrence.secondsSinceEpoch, state: .skipped,
            decidedAt: at.secondsSinceEpoch, reason: reason)
        try skip.insert(db, onConflict: .ignore)
        return try OutcomeRecord.all().skips().of(reminderID).filter(OutcomeRecord.Columns.scheduledAt == occurrence.secondsSinceEpoch)
            .select(OutcomeRecord.Columns.id, as: Int64.self).fetchOne(db)
    }

    /// Deletes a skip. - Returns: its reminder, or nil when there was no such skip.
    static func deleteSkip(_ id: Int64, in db: Database) throws -> Int64? {
        guard let skip = try OutcomeRecord.all().skips().filter(key: id).fetchOne(db) else { return nil }
        try skip.delete(db)
        return skip.reminderId
    }
}
