import VarlinkProtocol

/// `io.remindd.Medication`: what a medication's reminder knows beyond its schedule: its stock.
public enum Medication {
    public static let interface = "io.remindd.Medication"
}

/// A method of `io.remindd.Medication`.
public protocol MedicationMethod: VarlinkMethod {}
extension MedicationMethod {
    public static var interface: String { Medication.interface }
}

/// A reminder and an amount in the unit of its dose: a pack, with the last day it may be used.
public struct StockAmount: Codable, Sendable, Hashable {
    public var reminder: String
    /// `30`, `12.5`.
    public var amount: String
    /// `2027-03` (its month's last day) or `2027-03-31`; nil: it does not expire.
    public var expires: String?
    public init(reminder: String, amount: String, expires: String? = nil) { (self.reminder, self.amount, self.expires) = (reminder, amount, expires) }
}

/// A reply of one reminder's stock.
public struct StockReply: Codable, Sendable, Hashable {
    public var stock: StockValue
    public init(stock: StockValue) { self.stock = stock }
}

extension Medication {
    /// Counts the stock: this much is left now.
    public enum StockSet: MedicationMethod {
        public typealias Parameters = StockAmount
        public typealias Reply = StockReply
    }

    /// A refill: this much more.
    public enum StockAdd: MedicationMethod {
        public typealias Parameters = StockAmount
        public typealias Reply = StockReply
    }

    /// The stock of one reminder, or of every reminder with a dose (`runningLow`: only those that run low).
    public enum Stock: MedicationMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var reminder: String?
            /// Only the stocks that ``StockValue/runsLow``: what a page of today shows (all of them, with 1,000
            /// medications, took most of that page's time to send and read).
            public var runningLow: Bool?
            /// A page: at most `limit` (1-1000) with a reminder id above `after`; nil: all of them.
            public var after: Int64?
            public var limit: Int?
            public init(reminder: String? = nil, runningLow: Bool? = nil, after: Int64? = nil, limit: Int? = nil) {
                (self.reminder, self.runningLow, self.after, self.limit) = (reminder, runningLow, after, limit)
            }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var stocks: [StockValue]
            /// The `after` of the next page; nil on the last (and without a `limit`).
            public var after: Int64?
            public init(stocks: [StockValue], after: Int64? = nil) { (self.stocks, self.after) = (stocks, after) }
        }
    }
}

/// `Stock` of remindd's interfaces: what is left of a medication and how long it lasts.
public struct StockValue: Codable, Sendable, Hashable {
    public var reminderId: Int64
    public var reminderName: String
    /// What is left, in `unit` (nil: never counted).
    public var left: Double?
    public var unit: String
    /// One dose, in `unit`.
    public var dose: Double
    /// The whole doses left.
    public var doses: Int?
    /// The last day the stock covers (YYYY-MM-DD, the reminder's zone), and that occurrence (local ISO 8601).
    public var through: String?
    public var throughLocal: String?
    /// Days from today to `through`.
    public var days: Int?
    /// The reminder's rule ends before the stock does.
    public var outlastsTheRule: Bool
    /// The low-stock notice comes when `days` is fewer than this.
    public var refillDays: Int
    /// Doses logged with less left than they took since the last count.
    public var short: Int
    /// The packs held (those with some left, and those expired with some left), the first to be used first.
    public var packs: [StockPackValue]?
    /// The day to order more by: `through` less the reminder's order days (not before today).
    public var orderBy: String?
    /// Counted, and lasting fewer days than the refill notice wants, or not for the next dose (its rule ends
    /// first: never).
    public var runsLow: Bool {
        guard left != nil, !outlastsTheRule else { return false }
        return doses == 0 || (days ?? Int.max) < refillDays
    }

    /// Whom its reminder is for (nil: the user).
    public var person: String?

    /// How often a dose may be logged (`--min-interval`, `--max-per-day`); nil: no such limit.
    public var minIntervalSeconds: Int64?
    public var maxPerDay: Int?

    public init(
        reminderId: Int64, reminderName: String, left: Double?, unit: String, dose: Double, doses: Int?, through: String?, throughLocal: String?,
        days: Int?, outlastsTheRule: Bool, refillDays: Int, short: Int
    ) {
        (self.reminderId, self.reminderName, self.left, self.unit, self.dose, self.doses) = (reminderId, reminderName, left, unit, dose, doses)
        (self.through, self.throughLocal, self.days, self.outlastsTheRule, self.refillDays, self.short) = (through, throughLocal, days, outlastsTheRule, refillDays, short)
    }
}

/// `StockPack` of remindd's interfaces: a pack of a medication's stock.
public struct StockPackValue: Codable, Sendable, Hashable {
    /// What is left in it, in the stock's unit.
    public var left: Double
    /// Its last day (YYYY-MM-DD); nil: it does not expire.
    public var expires: String?
    /// Past its last day: what it holds no longer counts.
    public var expired: Bool

    public init(left: Double, expires: String?, expired: Bool) { (self.left, self.expires, self.expired) = (left, expires, expired) }
}
