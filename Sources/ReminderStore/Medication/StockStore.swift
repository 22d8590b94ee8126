import GRDB
import ReminderCore

/// A medication's stock: its counts and refills, and the amounts its logs took, for ``Stock/level(_:)``.
public struct StockStore: Sendable {
    let database: ReminderStore

    /// Records a count (`set`) or a refill (`added`) at an instant.
    public func record(_ kind: StockChangeRecord.Kind, reminderID: Int64, amount: Int64, at instant: Instant) throws(StoreError) {
        try database.write { db in
            var record = StockChangeRecord(id: nil, reminderId: reminderID, at: instant.secondsSinceEpoch, kind: kind, amount: amount)
            try record.insert(db)
        }
    }

    /// Every change of a reminder's stock since its last count: the count, the refills and the doses taken
    /// since (empty when it was never counted).
    public func changes(reminderID: Int64) throws(StoreError) -> [(at: Instant, change: Stock.Change)] {
        try database.read { db in
            guard let counted = try StockChangeRecord
                .filter(Column("reminderId") == reminderID && Column("kind") == StockChangeRecord.Kind.set.rawValue)
                .order(Column("at").desc, Column("id").desc).fetchOne(db)
            else { return [] }
            let since = Column("reminderId") == reminderID && Column("at") >= counted.at
            let refills = try StockChangeRecord.filter(since && Column("kind") == StockChangeRecord.Kind.added.rawValue).fetchAll(db)
            let taken = try IntakeRecord.filter(since && Column("amount") != nil).fetchAll(db)
            return [(Instant(secondsSinceEpoch: counted.at), .set(counted.amount))]
                + refills.map { (Instant(secondsSinceEpoch: $0.at), .added($0.amount)) }
                + taken.map { (Instant(secondsSinceEpoch: $0.at), .taken($0.amount ?? 0)) }
        }
    }

    /// The reminders whose stock was ever counted.
    public func counted() throws(StoreError) -> [Int64] {
        try database.read { db in try Int64.fetchAll(db, sql: "SELECT DISTINCT reminderId FROM stockChange ORDER BY reminderId") }
    }

    /// When the low-stock notice of a reminder was last given, and when its stock last grew (a count or a refill).
    public func noticeState(reminderID: Int64) throws(StoreError) -> (noticed: Instant?, lastGrown: Instant?) {
        try database.read { db in
            let noticed = try StockNoticeRecord.fetchOne(db, key: reminderID).map { Instant(secondsSinceEpoch: $0.at) }
            let grown = try Int64.fetchOne(db, sql: "SELECT max(at) FROM stockChange WHERE reminderId = ?", arguments: [reminderID])
            return (noticed, grown.map(Instant.init(secondsSinceEpoch:)))
        }
    }

    /// Records that the low-stock notice was given.
    public func noticed(reminderID: Int64, at instant: Instant) throws(StoreError) {
        try database.write { db in try StockNoticeRecord(reminderId: reminderID, at: instant.secondsSinceEpoch).upsert(db) }
    }
}
