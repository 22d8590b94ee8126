import GRDB
import ReminderCore

/// A medication's stock: its counts and refills, and the amounts its logs took, for ``Stock/level(_:)``.
public struct StockStore: Sendable {
    let database: ReminderStore

    /// Records a count (`set`) or a refill (`added`) at an instant: a pack, with its last day if it has one.
    public func record(_ kind: StockChangeRecord.Kind, reminderID: Int64, amount: Int64, expires: LocalDate? = nil, at instant: Instant) throws(StoreError) {
        try database.write { db in
            var record = StockChangeRecord(id: nil, reminderId: reminderID, at: instant.secondsSinceEpoch, kind: kind, amount: amount, expires: expires?.description)
            if kind == .set { record.seenLogs = try IntakeStore.amountsLogged(by: reminderID, at: instant, in: db) }
            try record.insert(db)
        }
    }

    /// Every change of a reminder's stock since its last count: the count, the refills and the doses taken
    /// since (empty when it was never counted); counts and refills in the order they were made (a refill made
    /// before the count in the same second is not after it).
    ///
    /// With `sinceFirstCount`, every change from the first count on (a report's stock over time).
    public func changes(reminderID: Int64, sinceFirstCount: Bool = false) throws(StoreError) -> [(at: Instant, change: Stock.Change)] {
        try database.read { db in
            let counts = StockChangeRecord.filter(StockChangeRecord.Columns.reminderId == reminderID && StockChangeRecord.Columns.kind == StockChangeRecord.Kind.set.rawValue)
            let order = sinceFirstCount ? [StockChangeRecord.Columns.at.asc, StockChangeRecord.Columns.id.asc] : [StockChangeRecord.Columns.at.desc, StockChangeRecord.Columns.id.desc]
            guard let counted = try counts.order(order).stored().fetchOne(db) else { return [] }
            let after = StockChangeRecord.Columns.at > counted.at || (StockChangeRecord.Columns.at == counted.at && StockChangeRecord.Columns.id > counted.id)
            let changes = try StockChangeRecord.filter(StockChangeRecord.Columns.reminderId == reminderID && after).order(StockChangeRecord.Columns.at, StockChangeRecord.Columns.id).fetchAll(db)
                .filter { sinceFirstCount || $0.kind == .added }
            var all: [(at: Instant, change: Stock.Change)] = ([counted.record] + changes).map { record in
                // An unreadable date (not written by remindd) leaves the pack without one: it still counts.
                let last = record.expires.flatMap { ISO8601.parseDate($0) }
                let expiry = record.id.flatMap { id in last.map { Stock.Expiry(id: id, last: $0) } }
                return (Instant(secondsSinceEpoch: record.at), record.kind == .set ? .set(record.amount, expiry: expiry) : .added(record.amount, expiry: expiry))
            }
            // The logs of a count's own second that it saw are in it: not taken from it again.
            var seen = Dictionary(([counted.record] + changes).filter { $0.kind == .set }.map { ($0.at, $0.seenLogs) }) { _, later in later }
            try IntakeStore.forEachAmount(of: reminderID, since: Instant(secondsSinceEpoch: counted.at), in: db) { at, amount in
                if let left = seen[at.secondsSinceEpoch], left > 0 {
                    seen[at.secondsSinceEpoch] = left - 1
                } else {
                    all.append((at, .taken(amount)))
                }
            }
            return all
        }
    }

    /// Records that the expiry of the pack a change made was said. - Returns: false when it was said already.
    public func expirySaid(changeID: Int64, at instant: Instant) throws(StoreError) -> Bool {
        try database.write { db in
            try db.execute(sql: "UPDATE stockChange SET expirySaidAt = ? WHERE id = ? AND expirySaidAt IS NULL", arguments: [instant.secondsSinceEpoch, changeID])
            return db.changesCount > 0
        }
    }

    /// The reminders whose stock was ever counted.
    public func counted() throws(StoreError) -> [Int64] {
        try database.read { db in try Int64.fetchAll(db, sql: "SELECT DISTINCT reminderId FROM stockChange ORDER BY reminderId") }
    }

    /// Whether the low-stock notice of a reminder may be given: never given, or the stock grew since (a refill,
    /// or a count of more than was left when it was given).
    public func mayNotice(reminderID: Int64) throws(StoreError) -> Bool {
        try database.read { db in
            guard let notice = try StockNoticeRecord.fetchOne(db, key: reminderID) else { return true }
            return try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM stockChange WHERE reminderId = ? AND id > ? AND (kind = 'added' OR (kind = 'set' AND amount > ?)))
                """, arguments: [reminderID, notice.lastChangeId, notice.left]) ?? false
        }
    }

    /// Records that the low-stock notice was given, with what was left.
    public func noticed(reminderID: Int64, left: Int64, at instant: Instant) throws(StoreError) {
        try database.write { db in
            let last = try Int64.fetchOne(db, sql: "SELECT max(id) FROM stockChange WHERE reminderId = ?", arguments: [reminderID]) ?? 0
            var notice = try StockNoticeRecord.fetchOne(db, key: reminderID)
                ?? StockNoticeRecord(reminderId: reminderID, at: instant.secondsSinceEpoch, left: left, lastChangeId: last)
            (notice.at, notice.left, notice.lastChangeId) = (instant.secondsSinceEpoch, left, last)
            try notice.upsert(db)
        }
    }

    /// Records that the doses logged with too little left, through the one taken at `instant`, were said;
    /// - Returns: false when that one was said already.
    public func shortReported(reminderID: Int64, through instant: Instant) throws(StoreError) -> Bool {
        try database.write { db in
            var notice = try StockNoticeRecord.fetchOne(db, key: reminderID)
                ?? StockNoticeRecord(reminderId: reminderID, at: instant.secondsSinceEpoch, left: -1, lastChangeId: -1)  // no notice given
            guard (notice.shortReportedAt ?? .min) < instant.secondsSinceEpoch else { return false }
            notice.shortReportedAt = instant.secondsSinceEpoch
            try notice.upsert(db)
            return true
        }
    }
}
