import GRDB
import ReminderCore

/// Rest days, the one-time recovery, and the habit notices announced once (the habit service's store).
public struct HabitsStore: Sendable {
    let database: ReminderStore

    /// Marks (or re-marks) rest days; all or nothing.
    public func markRestDays(_ days: [(date: String, reason: String, lightActivities: [String])]) throws(StoreError) {
        try database.write { db in
            for day in days {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO restDay (date, reason, lightActivities) VALUES (?, ?, ?)",
                    arguments: [day.date, day.reason, day.lightActivities.joined(separator: "\n")])
            }
        }
    }

    /// Removes a rest day; false when the date was not marked.
    public func unmarkRestDay(_ date: String) throws(StoreError) -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM restDay WHERE date = ?", arguments: [date])
            return db.changesCount > 0
        }
    }

    /// Every rest day: date (YYYY-MM-DD), reason, light activities.
    public func restDays() throws(StoreError) -> [(date: String, reason: String, lightActivities: [String])] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT date, reason, lightActivities FROM restDay ORDER BY date").map { row in
                let activities: String = row[2]
                return (row[0], row[1], activities.isEmpty ? [] : activities.split(separator: "\n").map(String.init))
            }
        }
    }

    /// The one-time manual recovery, if it was used: the restored day numbers.
    public func recovery() throws(StoreError) -> (days: ClosedRange<Int>, usedAt: Instant)? {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT firstDay, lastDay, usedAt FROM recovery ORDER BY id LIMIT 1") else { return nil }
            let first: Int = row[0]
            let last: Int = row[1]
            return (first...last, Instant(secondsSinceEpoch: row[2]))
        }
    }

    /// Records the manual recovery; refuses a second one (it can be used once, ever).
    public func recordRecovery(days: ClosedRange<Int>, at instant: Instant) throws(StoreError) -> Bool {
        try database.write { db in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM recovery") == 0 else { return false }
            try db.execute(
                sql: "INSERT INTO recovery (usedAt, firstDay, lastDay) VALUES (?, ?, ?)",
                arguments: [instant.secondsSinceEpoch, days.lowerBound, days.upperBound])
            return true
        }
    }

    /// Records that a notice was announced; false when it had been already (so it is announced once).
    public func recordNotice(_ key: String, at instant: Instant) throws(StoreError) -> Bool {
        try database.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO habitNotice (key, announcedAt) VALUES (?, ?)", arguments: [key, instant.secondsSinceEpoch])
            return db.changesCount > 0
        }
    }
}
