import GRDB
import ReminderCore

/// Which event and alarm of an imported iCalendar file a reminder came from (see `CalendarImport.Reminder.key`).
public struct CalendarImportRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "calendarImport"

    public var reminderId: Int64
    /// The event's UID.
    public var uid: String
    /// The UID with the override's RECURRENCE-ID and the alarm's number.
    public var key: String
    /// The file as the user named it.
    public var file: String

    /// The columns, for queries.
    public enum Columns {
        public static let uid = Column(CodingKeys.uid)
        public static let key = Column(CodingKeys.key)
    }
}

/// A reminder planned from an iCalendar file, with the event and alarm it comes from.
public struct ImportedCalendarReminder: Sendable {
    public var reminder: ImportedReminder
    public var uid: String?
    public var key: String?

    public init(_ reminder: ImportedReminder, uid: String?, key: String?) {
        (self.reminder, self.uid, self.key) = (reminder, uid, key)
    }
}

extension BackupStore {
    /// The names of reminders imported before from events of these keys, by key.
    public func imported(keys: [String]) throws(StoreError) -> [String: String] {
        try database.read { db in
            var names: [String: String] = [:]
            for row in try CalendarImportRecord.filter(keys.contains(CalendarImportRecord.Columns.key)).fetchAll(db) {
                names[row.key] = try StoredReminder.fetchOne(db, key: row.reminderId)?.name
            }
            return names
        }
    }

    /// Adds the reminders of an iCalendar file in one transaction (a name taken by another reminder refuses them
    /// all). A reminder imported before from the same event and alarm (its key) is changed in place instead: its
    /// id, logs and history stay. Those imported before from the file's events (same UIDs) that the file no longer
    /// plans (an alarm removed) are removed. - Returns: each reminder's id and whether it was there before, and the
    /// names of those removed.
    public func importCalendar(_ planned: [ImportedCalendarReminder], file: String, now: Instant) throws(StoreError) -> (ids: [(id: Int64, updated: Bool)], removed: [String]) {
        try database.write { db in
            var ids: [(Int64, Bool)] = []
            let uids = Set(planned.compactMap(\.uid))
            let keys = Set(planned.compactMap(\.key))
            let before = try CalendarImportRecord.filter(uids.contains(CalendarImportRecord.Columns.uid)).fetchAll(db)
            var removed: [String] = []
            for stale in before where !keys.contains(stale.key) {
                if let reminder = try StoredReminder.fetchOne(db, key: stale.reminderId) {
                    removed.append(reminder.name)
                    try reminder.delete(db)
                }
            }
            let known = Dictionary(before.map { ($0.key, $0.reminderId) }) { a, _ in a }
            for item in planned {
                let imported = item.reminder
                var reminder = try item.key.flatMap { known[$0] }.flatMap { try StoredReminder.fetchOne(db, key: $0) }
                    ?? StoredReminder(id: nil, name: imported.name, rule: imported.rule, timeZone: imported.timeZone, enabled: true,
                                      createdAt: min(imported.createdAt, now).secondsSinceEpoch, handledThrough: now.secondsSinceEpoch)
                let updated = reminder.id != nil
                if let holder = try RemindersStore.holder(ofName: imported.name, in: db),
                    holder != reminder.id {
                    throw StoreError.nameTaken(imported.name)
                }
                if updated, reminder.rule != imported.rule || reminder.timeZone != imported.timeZone {
                    reminder.handledThrough = max(reminder.handledThrough, now.secondsSinceEpoch)
                }
                (reminder.name, reminder.rule, reminder.timeZone) = (imported.name, imported.rule, imported.timeZone)
                reminder.delivery.repeating.plan = imported.delivery.repeating.plan
                try reminder.save(db)
                if let uid = item.uid, let key = item.key {
                    try CalendarImportRecord(reminderId: reminder.id!, uid: uid, key: key, file: file).save(db)
                }
                ids.append((reminder.id!, updated))
            }
            return (ids, removed)
        }
    }
}
