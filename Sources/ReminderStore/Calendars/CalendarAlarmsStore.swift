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
        return path.hasPrefix(prefix) && !path.utf8.dropFirst(prefix.utf8.count).contains(UInt8(ascii: "/"))
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
            // What the items' alarms are now and which of the names they ask for are held, each in one query for
            // the chunk (a query per item and per alarm was a third of a first read of 20,000 items).
            let planned = try RemindersStore.planned(from: items.map(\.origin), in: db)
            var names = try NamesInUse(asked: items.flatMap { $0.alarms.map(\.name) }, db)
            for item in items {
                try Self.replace(existing: planned[item.origin] ?? [], with: item.alarms, origin: item.origin, now: now, names: &names, change: &change, db)
                try db.cachedStatement(sql: "INSERT INTO calendarItem (path, etag) VALUES (?, ?) ON CONFLICT (path) DO UPDATE SET etag = excluded.etag")
                    .execute(arguments: [item.origin, item.etag])
            }
            return change
        }
    }

    private static func replace(
        existing: [StoredReminder], with alarms: [Alarm], origin: String, now: Instant, names: inout NamesInUse, change: inout Change, _ db: Database
    ) throws {
        for (index, alarm) in alarms.enumerated() {
            if index < existing.count {
                var row = existing[index]
                let name = try uniqueName(alarm, keeping: row, names: &names, db)
                guard row.name != name || row.rule != alarm.rule || row.timeZone != alarm.timeZone || row.delivery != alarm.delivery else { continue }
                if row.rule != alarm.rule || row.timeZone != alarm.timeZone { row.handledThrough = max(row.handledThrough, now.secondsSinceEpoch) }
                (row.name, row.rule, row.timeZone, row.delivery) = (name, alarm.rule, alarm.timeZone, alarm.delivery)
                try row.update(db)
                change.changed.append(row.id)
            } else {
                let row = try ReminderFields(
                    name: try uniqueName(alarm, keeping: nil, names: &names, db), rule: alarm.rule, timeZone: alarm.timeZone, enabled: true,
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
                try db.cachedStatement(sql: "DELETE FROM \(CalendarItemRecord.databaseTableName) WHERE \(CalendarItemRecord.Columns.path.name) = ?")
                    .execute(arguments: [origin])
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
    /// (written down in `names`).
    private static func uniqueName(_ alarm: Alarm, keeping row: StoredReminder?, names: inout NamesInUse, _ db: Database) throws -> String {
        let calendar = alarm.delivery.calendar ?? "calendar"
        let base = String(alarm.name.prefix(ReminderName.maximumLength - calendar.count - 8))
        for attempt in 0..<1000 {
            let name = attempt == 0 ? alarm.name : attempt == 1 ? "\(base) (\(calendar))" : "\(base) (\(calendar) \(attempt))"
            let free = try row.map { $0.name.lowercased() == name.lowercased() } == true
                || names.isFree(name) || RemindersStore.holder(ofName: name, in: db) == nil
            if free {
                names.written(name)
                return name
            }
        }
        throw StoreError.nameTaken(alarm.name)
    }
}

/// The names a replacement's alarms ask for, and which of them may be held by a reminder: those held when it
/// began (one query) and those it has written since. A name asked for and in neither is free without asking the
/// store; any other is asked about (a row renamed or removed meanwhile frees its name).
struct NamesInUse {
    /// Names as SQLite's `NOCASE` compares them (ASCII letters in lower case, nothing else changed).
    private var asked: Set<String>
    private var mayBeHeld: Set<String> = []

    init(asked names: [String], _ db: Database) throws {
        asked = Set(names.map(Self.folded))
        let held = try String.fetchAll(
            db.cachedStatement(sql: "SELECT name FROM reminder WHERE name COLLATE NOCASE IN (SELECT value FROM json_each(?))"),
            arguments: [ReminderStore.jsonArray(Set(names))])
        mayBeHeld = Set(held.map(Self.folded))
    }

    /// Whether `name` is known to be free: asked for, not held at the start, not written since.
    func isFree(_ name: String) -> Bool {
        let key = Self.folded(name)
        return asked.contains(key) && !mayBeHeld.contains(key)
    }

    mutating func written(_ name: String) { mayBeHeld.insert(Self.folded(name)) }

    private static func folded(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
