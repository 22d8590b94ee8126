import GRDB
import ReminderCore

/// Logged intake: what the person took and when (the log, done and habit services read it).
public struct IntakeStore: Sendable {
    let database: ReminderStore


    /// Records an intake of a reminder's goal at an instant, with the zone in effect then; `lateFor`: the
    /// missed occurrence it takes late; `amount`: how much was taken (thousandths of the dose's unit).
    public func log(
        reminderID: Int64, at instant: Instant, timeZone: String, lateFor occurrence: Instant? = nil, amount: Int64? = nil, forced: Bool = false
    ) throws(StoreError) -> IntakeRecord {
        try database.write { db in
            let fields = IntakeFields(
                reminderId: reminderID, at: instant.secondsSinceEpoch, timeZone: timeZone, forScheduledAt: occurrence?.secondsSinceEpoch,
                amount: amount, forced: forced ? true : nil)
            return try fields.insert(db)
        }
    }

    /// The occurrences taken late (scheduled between two instants, inclusive), each with its log's instant, per
    /// reminder.
    public func lateTakes(reminderIDs: [Int64], from: Instant, through: Instant) throws(StoreError) -> [Int64: [Instant: Instant]] {
        guard !reminderIDs.isEmpty else { return [:] }
        return try database.read { db in
            var result: [Int64: [Instant: Instant]] = [:]
            // SQL: an id list the query interface would bind one by one, read by a cursor without records.
            let rows = try Row.fetchCursor(
                db, sql: "SELECT reminderId, forScheduledAt, min(at) FROM intake WHERE reminderId IN \(ReminderStore.idList(reminderIDs)) AND forScheduledAt BETWEEN ? AND ? GROUP BY reminderId, forScheduledAt",
                arguments: [from.secondsSinceEpoch, through.secondsSinceEpoch])
            while let row = try rows.next() { result[row[0], default: [:]][Instant(secondsSinceEpoch: row[1])] = Instant(secondsSinceEpoch: row[2]) }
            return result
        }
    }

    /// When the last dose of a reminder was logged (any log, late takes too), or nil when none was.
    public func lastDose(reminderID: Int64) throws(StoreError) -> Instant? {
        try database.read { db in
            try Int64.fetchOne(db, sql: "SELECT max(at) FROM intake WHERE reminderId = ?", arguments: [reminderID]).map(Instant.init(secondsSinceEpoch:))
        }
    }

    /// Intake instants of a reminder within a range (inclusive), but for late takes (they cover nothing else);
    /// with `lateTakes`, those too (every dose: what its dose limits count).
    public func instants(reminderID: Int64, from: Instant, through: Instant, lateTakes: Bool = false) throws(StoreError) -> [Instant] {
        try database.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT at FROM intake WHERE reminderId = ? AND at BETWEEN ? AND ? \(lateTakes ? "" : "AND forScheduledAt IS NULL") ORDER BY at",
                arguments: [reminderID, from.secondsSinceEpoch, through.secondsSinceEpoch]
            ).map(Instant.init(secondsSinceEpoch:))
        }
    }

    /// Each dose of a reminder within a range (inclusive), late takes too, with its amount (nil: none recorded),
    /// oldest first: read as plain rows, for a report over years.
    public func amounts(reminderID: Int64, from: Instant, through: Instant) throws(StoreError) -> [(at: Instant, amount: Int64?)] {
        try database.read { db in
            var doses: [(at: Instant, amount: Int64?)] = []
            // A cursor, not rows: 700,000 rows held at once took a 20-year report to 120 MB more.
            let rows = try Row.fetchCursor(
                db, sql: "SELECT at, amount FROM intake WHERE reminderId = ? AND at BETWEEN ? AND ? ORDER BY at",
                arguments: [reminderID, from.secondsSinceEpoch, through.secondsSinceEpoch])
            while let row = try rows.next() { doses.append((Instant(secondsSinceEpoch: row[0]), row[1])) }
            return doses
        }
    }

    /// The intake logged between two instants (inclusive), oldest first, optionally of one reminder.
    public func records(from: Instant, through: Instant, reminderID: Int64? = nil) throws(StoreError) -> [IntakeRecord] {
        try database.read { db in
            var request = IntakeRecord.filter(IntakeRecord.Columns.at >= from.secondsSinceEpoch && IntakeRecord.Columns.at <= through.secondsSinceEpoch)
            if let reminderID { request = request.filter(IntakeRecord.Columns.reminderId == reminderID) }
            return try request.order(IntakeRecord.Columns.at, IntakeRecord.Columns.id).fetchAll(db)
        }
    }

    /// The newest `limit` logs between two instants (inclusive), newest first (of one instant, in the order they
    /// were logged): what `History` shows (reading all 700,800 logs of 20 years for its 20 newest took 2.4 s).
    public func newestRecords(from: Instant, through: Instant, reminderID: Int64? = nil, limit: Int) throws(StoreError) -> [IntakeRecord] {
        try database.read { db in
            var request = IntakeRecord.filter(IntakeRecord.Columns.at >= from.secondsSinceEpoch && IntakeRecord.Columns.at <= through.secondsSinceEpoch)
            if let reminderID { request = request.filter(IntakeRecord.Columns.reminderId == reminderID) }
            return try request.order(IntakeRecord.Columns.at.desc, IntakeRecord.Columns.id).limit(limit).fetchAll(db)
        }
    }

    /// How many of a reminder's doses between two instants (inclusive) were logged past its limits (`--force`).
    public func forcedCount(reminderID: Int64, from: Instant, through: Instant) throws(StoreError) -> Int {
        try database.read { db in
            try IntakeRecord.filter(IntakeRecord.Columns.reminderId == reminderID && IntakeRecord.Columns.at >= from.secondsSinceEpoch
                && IntakeRecord.Columns.at <= through.secondsSinceEpoch && IntakeRecord.Columns.forced == true).fetchCount(db)
        }
    }

    /// The instants of a reminder's doses between two instants (inclusive) logged past its limits (`--force`).
    public func forcedInstants(reminderID: Int64, from: Instant, through: Instant) throws(StoreError) -> [Instant] {
        try database.read { db in
            try IntakeRecord.filter(IntakeRecord.Columns.reminderId == reminderID && IntakeRecord.Columns.at >= from.secondsSinceEpoch
                && IntakeRecord.Columns.at <= through.secondsSinceEpoch && IntakeRecord.Columns.forced == true)
                .select(IntakeRecord.Columns.at, as: Int64.self).fetchAll(db).map(Instant.init(secondsSinceEpoch:))
        }
    }

    /// One logged intake, or nil when there is none with that id.
    public func record(id: Int64) throws(StoreError) -> IntakeRecord? {
        try database.read { db in try IntakeRecord.fetchOne(db, key: id) }
    }

    /// Deletes one logged intake. - Returns: what was deleted, or nil when there is no log with that id.
    public func delete(id: Int64) throws(StoreError) -> IntakeRecord? {
        try database.write { db in
            guard let record = try IntakeRecord.fetchOne(db, key: id) else { return nil }
            try IntakeRecord.deleteOne(db, key: id)
            return record
        }
    }

    /// The intake logged for each of some reminders between two instants, oldest first, but for late takes: one
    /// query for a page.
    public func instants(reminderIDs: [Int64], from: Instant, through: Instant) throws(StoreError) -> [Int64: [Instant]] {
        guard !reminderIDs.isEmpty else { return [:] }
        return try database.read { db in
            var result: [Int64: [Instant]] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT reminderId, at FROM intake WHERE reminderId IN \(ReminderStore.idList(reminderIDs)) AND at BETWEEN ? AND ? AND forScheduledAt IS NULL ORDER BY reminderId, at",
                arguments: [from.secondsSinceEpoch, through.secondsSinceEpoch])
            while let row = try rows.next() { result[row[0], default: []].append(Instant(secondsSinceEpoch: row[1])) }
            return result
        }
    }

    /// Every intake log with the zone in effect when it happened (the habit system's activities), in no order.
    /// Read by a cursor: 700,000 logs as rows first took the daemon to 199 MB at start-up.
    public func everyLog() throws(StoreError) -> [(at: Instant, timeZone: String)] {
        try database.read { db in
            var logs: [(at: Instant, timeZone: String)] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT at, timeZone FROM intake")
            while let row = try rows.next() { logs.append((Instant(secondsSinceEpoch: row[0]), row[1])) }
            return logs
        }
    }
}
