import GRDB
import ReminderCore

/// A logged workout (table `workout`), with the calories worked out when it was logged.
public struct WorkoutRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "workout"

    public var id: Int64?
    /// The exercise library's id.
    public var exercise: String
    public var minutes: Int
    public var intensity: String
    public var met: Double
    public var kcal: Int
    /// When (epoch seconds), and the zone it was logged in.
    public var at: Int64
    public var timeZone: String

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let at = Column(CodingKeys.at)
    }
}

/// A logged food entry (table `food`).
public struct FoodRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "food"

    public var id: Int64?
    public var name: String
    public var kcal: Int
    /// When (epoch seconds), and the zone it was logged in.
    public var at: Int64
    public var timeZone: String

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let at = Column(CodingKeys.at)
    }
}

/// A setting of the user's (table `profile`): the weight, the selected routine.
struct ProfileRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "profile"

    var key: String
    var value: String
}
