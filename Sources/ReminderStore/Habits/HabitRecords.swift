import GRDB
import ReminderCore

/// A rest day (table `restDay`): a day that neither breaks nor extends a streak.
public struct RestDayRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "restDay"

    /// The day, `YYYY-MM-DD`.
    public var date: String
    public var reason: String
    /// The light activities of the day, one per line (empty: none).
    public var lightActivities: String

    public init(date: String, reason: String, activities: [String]) {
        (self.date, self.reason, self.lightActivities) = (date, reason, activities.joined(separator: "\n"))
    }

    /// The light activities, as a list.
    public var activities: [String] { lightActivities.isEmpty ? [] : lightActivities.split(separator: "\n").map(String.init) }

    public enum Columns {
        public static let date = Column(CodingKeys.date)
    }
}

/// The one-time manual recovery of a broken streak (table `recovery`): the missed days it restored.
public struct RecoveryRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "recovery"

    public var id: Int64?
    /// When it was used (epoch seconds).
    public var usedAt: Int64
    /// The day numbers of the first and last restored day.
    public var firstDay: Int
    public var lastDay: Int

    /// The restored days; nil when a hand-edited row has them the wrong way round.
    public var days: ClosedRange<Int>? { firstDay <= lastDay ? firstDay...lastDay : nil }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
    }
}

/// A habit notice announced once, ever (table `habitNotice`): "achievement:first_rest_day".
struct HabitNoticeRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "habitNotice"

    var key: String
    /// When it was announced (epoch seconds).
    var announcedAt: Int64
}
