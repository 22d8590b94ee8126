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

/// An iCalendar file's reminders staged by ``BackupStore/stageCalendar(_:file:now:)``, to be added by
/// ``BackupStore/importStaged(_:)`` (which drops the staging tables, whatever it ends in).
public struct StagedCalendarImport: Sendable {
    let planned: [ImportedCalendarReminder]
    let file: String
    let now: Instant
    /// The keys imported before: those reminders are changed in place.
    let known: Set<String>
    let staging: CalendarImportStaging?
    /// How many new reminders the move writes.
    public let rows: Int
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

    /// Stages the new reminders of an iCalendar file (``CalendarImportStaging``), the writer free between its
    /// chunks; ``importStaged(_:)`` then adds them. Written row by row in the one transaction, 106,504 of them
    /// held the writer for seconds, and doses due meanwhile waited for it.
    public func stageCalendar(_ planned: [ImportedCalendarReminder], file: String, now: Instant) throws(StoreError) -> StagedCalendarImport {
        let keys = Set(planned.compactMap(\.key))
        let known = try database.read { db in
            try Set(String.fetchAll(db, CalendarImportRecord.filter(keys.contains(CalendarImportRecord.Columns.key)).select(CalendarImportRecord.Columns.key)))
        }
        let news = planned.enumerated().filter { !($0.element.key.map(known.contains) ?? false) }
        let (columns, rows) = try encoded(news.map { ($0.offset, $0.element) }, now: now)
        let staging = rows.isEmpty ? nil : CalendarImportStaging(database: database, columns: columns)
        do {
            try staging?.stage(rows)
        } catch {
            staging?.drop()
            throw error
        }
        return StagedCalendarImport(planned: planned, file: file, now: now, known: known, staging: staging, rows: rows.count)
    }

    /// Adds a staged iCalendar file's reminders in one transaction (a name taken by another reminder refuses them
    /// all), and drops what was staged. A reminder imported before from the same event and alarm (its key) is
    /// changed in place instead: its id, logs and history stay. Those imported before from the file's events
    /// (same UIDs) that the file no longer plans (an alarm removed) are removed. - Returns: each reminder's id and
    /// whether it was there before, and the names of those removed.
    public func importStaged(_ staged: StagedCalendarImport) throws(StoreError) -> (ids: [(id: Int64, updated: Bool)], removed: [String]) {
        let (planned, file, now, known, staging) = (staged.planned, staged.file, staged.now, staged.known, staged.staging)
        defer { staging?.drop() }
        let keys = Set(planned.compactMap(\.key))
        return try database.write { db in
            let uids = Set(planned.compactMap(\.uid))
            let before = try CalendarImportRecord.filter(uids.contains(CalendarImportRecord.Columns.uid)).fetchAll(db)
            var removed: [String] = []
            for stale in before where !keys.contains(stale.key) {
                if let reminder = try StoredReminder.fetchOne(db, key: stale.reminderId) {
                    removed.append(reminder.name)
                    try reminder.delete(db)
                }
            }
            let existing = Dictionary(before.map { ($0.key, $0.reminderId) }) { a, _ in a }
            var ids: [Int: (Int64, Bool)] = [:]
            for (index, item) in planned.enumerated() {
                guard let key = item.key, known.contains(key) else { continue }
                guard let id = existing[key], var reminder = try StoredReminder.fetchOne(db, key: id) else {
                    throw StoreError.unavailable(path: database.path, detail: "the calendar's reminders changed during the import; import it again")
                }
                let imported = item.reminder
                if let holder = try RemindersStore.holder(ofName: imported.name, in: db), holder != reminder.id { throw StoreError.nameTaken(imported.name) }
                if reminder.rule != imported.rule || reminder.timeZone != imported.timeZone {
                    reminder.handledThrough = max(reminder.handledThrough, now.secondsSinceEpoch)
                }
                (reminder.name, reminder.rule, reminder.timeZone) = (imported.name, imported.rule, imported.timeZone)
                reminder.delivery.repeating.plan = imported.delivery.repeating.plan
                try reminder.update(db)
                if let uid = item.uid { try CalendarImportRecord(reminderId: id, uid: uid, key: key, file: file).save(db) }
                ids[index] = (id, true)
            }
            let base = try staging?.move(file: file, in: db) ?? 0
            return (planned.indices.map { ids[$0] ?? (base + Int64($0), false) }, removed)
        }
    }

    /// The new reminders' rows, encoded as the store writes them, and the columns they give (all but `id`).
    private func encoded(_ items: [(position: Int, item: ImportedCalendarReminder)], now: Instant) throws(StoreError) -> ([String], [CalendarImportStaging.Row]) {
        do {
            let rows = try items.map { entry in
                let imported = entry.item.reminder
                var reminder = ReminderFields(
                    name: imported.name, rule: imported.rule, timeZone: imported.timeZone, enabled: true,
                    createdAt: min(imported.createdAt, now).secondsSinceEpoch, handledThrough: now.secondsSinceEpoch)
                reminder.delivery.repeating.plan = imported.delivery.repeating.plan
                let values = try reminder.columnValues().map { $0?.databaseValue ?? .null }
                return CalendarImportStaging.Row(position: entry.position, values: values, uid: entry.item.uid, key: entry.item.key)
            }
            return (ReminderFields.columnNames, rows)
        } catch {
            throw .unavailable(path: database.path, detail: "a reminder of the calendar cannot be encoded: \(error)")
        }
    }
}
