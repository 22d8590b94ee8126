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

/// A reminder and an amount in the unit of its dose.
public struct StockAmount: Codable, Sendable, Hashable {
    public var reminder: String
    /// `30`, `12.5`.
    public var amount: String
    public init(reminder: String, amount: String) { (self.reminder, self.amount) = (reminder, amount) }
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

    /// The stock of one reminder, or of every reminder with a dose.
    public enum Stock: MedicationMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var reminder: String?
            public init(reminder: String? = nil) { self.reminder = reminder }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var stocks: [StockValue]
            public init(stocks: [StockValue]) { self.stocks = stocks }
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

    public init(
        reminderId: Int64, reminderName: String, left: Double?, unit: String, dose: Double, doses: Int?, through: String?, throughLocal: String?,
        days: Int?, outlastsTheRule: Bool, refillDays: Int, short: Int
    ) {
        (self.reminderId, self.reminderName, self.left, self.unit, self.dose, self.doses) = (reminderId, reminderName, left, unit, dose, doses)
        (self.through, self.throughLocal, self.days, self.outlastsTheRule, self.refillDays, self.short) = (through, throughLocal, days, outlastsTheRule, refillDays, short)
    }
}
