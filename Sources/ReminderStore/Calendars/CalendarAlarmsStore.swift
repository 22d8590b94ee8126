import GRDB
import ReminderCore

/// The alarms of read-only calendars, kept as reminder rows whose `origin` is the item file they come from:
/// they fire, snooze and show in `next` like the user's own reminders. A rescanned item replaces its alarms
/// in one transaction, in place where it can (an alarm keeps its id, its snooze and what was handled), and
/// writes nothing when nothing changed.
public struct CalendarAlarmsStore: Sendable {
    let database: ReminderStore

    /// One alarm planned from an item: a reminder's settings.
    public struct Alarm: Sendable, Hashable {
        public var name: String
        public var rule: RuleSpec
        public var timeZone: String?
        public var delivery: Delivery

        public init(name: String, rule: RuleSpec, timeZone: String?, delivery: Delivery) {
            (self.name, self.rule, self.timeZone, self.delivery) = (name, rule, timeZone, delivery)
        }
    }

    /// What a replacement changed: the ids added, changed or removed (to re-plan).
    public struct Change: Sendable, Hashable {
        public var added: [Int64] = []
        public var changed: [Int64] = []
        public var removed: [Int64] = []

        public var ids: [Int64] { added + changed + removed }
        public var isEmpty: Bool { ids.isEmpty }
    }

    /// An item as planned: its path (the alarms' origin), the etag of what they were planned from, its alarms.
    public struct Item: Sendable, Hashable {
        public var origin: String
        public var etag: String
        public var alarms: [Alarm]

        public init(origin: String, etag: String, alarms: [Alarm]) {
            (self.origin, self.etag, self.alarms) = (origin, etag, alarms)
        }
    }

    /// The origins (item paths) of the alarms stored for the items of `folder`.
    public func origins(in folder: String) throws(StoreError) -> Set<String> {
        try database.read { db in
            let (low, high) = Self.range(of: folder)
            return try RemindersStore.origins(within: low..<high, in: db).filter { Self.isDirectlyIn(folder, $0) }
        }
    }

    /// The etags the items of `folder` were planned from, by file name (all of them, or those `named`).
    public func etags(in folder: String, named names: Set<String>? = nil) throws(StoreError) -> [String: String] {
        try database.read { db in
            let (low, high) = Self.range(of: folder)
            let rows: [CalendarItemRecord]
            if let names {
                rows = try CalendarItemRecord.filter(keys: names.map { low + $0 }).fetchAll(db)
            } else {
                rows = try CalendarItemRecord.filter(CalendarItemRecord.Columns.path >= low && CalendarItemRecord.Columns.path < high).fetchAll(db)
            }
            return Dictionary(rows.filter { Self.isDirectlyIn(folder, $0.path) }.map { (String($0.path.dropFirst(low.count)), $0.etag) }, uniquingKeysWith: { $1 })
        }
    }

    /// The paths at or under `folder/`, as a range of text.
    private static func range(of folder: String) -> (String, String) {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return (prefix, prefix + "\u{10FFFF}")
    }

    /// Whether `path` is a file directly in `folder` (its path, a slash, a name without one).
    private static func isDirectlyIn(_ folder: String, _ path: String) -> Bool {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(prefix) && !path.dropFirst(prefix.count).contains("/")
    }

    /// Makes the alarms of each item be its `alarms`, and records the etag they were planned from, in one
    /// transaction (a folder read at start is a few writes, not one per item): the n-th stored alarm (by id)
    /// becomes the n-th planned one, those left over are removed, the rest added. A name taken by another reminder
    /// gets the calendar's name after it ("Standup (work)").
    /// Not flushed to the disk: the calendar's files are what the alarms are, read again at the next start when
    /// lost (a calendar of 20,000 items read at start waited for 200 flushes).
    public func replace(_ items: [Item], now: Instant) throws(StoreError) -> Change {
        try database.writeUnsynced { db in
            var change = Change()
            for item in items {
                try Self.replace(origin: item.origin, with: item.alarms, now: now, change: &change, db)
                try db.cachedStatement(sql: "INSERT INTO calendarItem (path, etag) VALUES (?, ?) ON CONFLICT (path) DO UPDATE SET etag = excluded.etag")
                    .execute(arguments: [item.origin, item.etag])
            }
            return change
        }
    }

    private static func replace(origin: String, with alarms: [Alarm], now: Instant, change: inout Change, _ db: Database) throws {
        // Cached statements: a folder read at start runs these once per item (20,000 compilations took seconds).
        let existing = try RemindersStore.planned(from: origin, in: db)
        for (index, alarm) in alarms.enumerated() {
            if index < existing.count {
                var row = existing[index]
                let name = try uniqueName(alarm, keeping: row, db)
                guard row.name != name || row.rule != alarm.rule || row.timeZone != alarm.timeZone || row.delivery != alarm.delivery else { continue }
                if row.rule != alarm.rule || row.timeZone != alarm.timeZone { row.handledThrough = max(row.handledThrough, now.secondsSinceEpoch) }
                (row.name, row.rule, row.timeZone, row.delivery) = (name, alarm.rule, alarm.timeZone, alarm.delivery)
                try row.update(db)
                change.changed.append(row.id)
            } else {
                let row = try ReminderFields(
                    name: try uniqueName(alarm, keeping: nil, db), rule: alarm.rule, timeZone: alarm.timeZone, enabled: true,
                    createdAt: now.secondsSinceEpoch, handledThrough: now.secondsSinceEpoch, delivery: alarm.delivery, origin: origin
                ).insert(db)
                change.added.append(row.id)
            }
        }
        for row in existing.dropFirst(alarms.count) {
            _ = try StoredReminder.deleteOne(db, key: row.id)
            change.removed.append(row.id)
        }
    }

    /// Removes the alarms of the given items (files gone from their folder, or a calendar no longer configured).
    /// - Returns: the ids removed.
    public func remove(origins: some Sequence<String>) throws(StoreError) -> [Int64] {
        try database.write { db in
            var removed: [Int64] = []
            for origin in origins {
                removed += try RemindersStore.removePlanned(from: origin, in: db)
                try CalendarItemRecord.deleteOne(db, key: origin)
            }
            return removed
        }
    }

    /// Removes the alarms and items of `folder` (a calendar no longer configured). - Returns: the ids removed.
    public func removeAll(in folder: String) throws(StoreError) -> [Int64] {
        try remove(origins: try origins(in: folder).union(try etags(in: folder).keys.map { folder + "/" + $0 }))
    }

    /// The folders (origins without their file name) that hold stored alarms or items read.
    public func folders() throws(StoreError) -> Set<String> {
        try database.read { db in
            let paths = try RemindersStore.origins(in: db).union(try CalendarItemRecord.select(CalendarItemRecord.Columns.path, as: String.self).fetchSet(db))
            return Set(paths.map { String($0[..<($0.lastIndex(of: "/") ?? $0.endIndex)]) })
        }
    }

    /// The alarm's own name if it is free (or already this row's), else "name (calendar)", "name (calendar 2)" ...
    private static func uniqueName(_ alarm: Alarm, keeping row: StoredReminder?, _ db: Database) throws -> String {
        let calendar = alarm.delivery.calendar ?? "calendar"
        let base = String(alarm.name.prefix(ReminderName.maximumLength - calendar.count - 8))
        for attempt in 0..<1000 {
            let name = attempt == 0 ? alarm.name : attempt == 1 ? "\(base) (\(calendar))" : "\(base) (\(calendar) \(attempt))"
            if let row, row.name.lowercased() == name.lowercased() { return name }
            if try RemindersStore.holder(ofName: name, in: db) == nil { return name }
        }
        throw StoreError.nameTaken(alarm.name)
    }
}
