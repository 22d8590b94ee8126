/// A medication's part of a report over a period (local dates in its zone): the amount taken each day, for one
/// taken as needed the doses of each week, and once its stock was counted, what was left at the end of each day
/// and what was refilled that day. Pure: the caller gives the logs and the stock's changes. Amounts are in
/// thousandths of the dose's unit, as ``Dose`` keeps them.
public struct MedicationFigures: Sendable, Hashable {
    /// An amount taken on a day.
    public struct Taken: Sendable, Hashable {
        public var date: LocalDate
        public var thousandths: Int64
    }

    /// The doses of a week, from its Monday (the first and last week may reach outside the period; only the
    /// period's doses count).
    public struct Week: Sendable, Hashable {
        public var monday: LocalDate
        public var doses: Int
    }

    /// The stock at the end of a day, and what was refilled that day.
    public struct StockDay: Sendable, Hashable {
        public var date: LocalDate
        public var left: Int64
        public var added: Int64
    }

    /// Every day of the period, with what was taken (0 for none).
    public var taken: [Taken] = []
    /// Weeks of the period, for a medication taken as needed; nil otherwise.
    public var asNeededWeeks: [Week]?
    /// The days of the period from the first count on; nil when the stock was never counted by the period's end.
    public var stock: [StockDay]?

    /// - Parameters:
    ///   - logs: the doses logged (any period; those outside are left out) with their amounts.
    ///   - stockChanges: every count, refill and dose since the stock was first counted (``Stock/Change``).
    public init(
        logs: [(at: Instant, thousandths: Int64)], stockChanges: [(at: Instant, change: Stock.Change)], asNeeded: Bool,
        zone: TimeZoneRules, from: LocalDate, through: LocalDate
    ) {
        let days = from.dayNumber...max(from.dayNumber, through.dayNumber)
        var amounts: [Int: Int64] = [:]
        var doses: [Int: Int] = [:]
        for log in logs {
            let day = zone.localDayNumber(at: log.at)
            guard days.contains(day) else { continue }
            amounts[day, default: 0] += log.thousandths
            doses[day, default: 0] += 1
        }
        taken = days.map { Taken(date: LocalDate(dayNumber: $0), thousandths: amounts[$0] ?? 0) }
        if asNeeded {
            let firstMonday = LocalDate(dayNumber: days.lowerBound).monday.dayNumber
            asNeededWeeks = stride(from: firstMonday, through: days.upperBound, by: 7).map { monday in
                Week(monday: LocalDate(dayNumber: monday), doses: (monday..<monday + 7).filter(days.contains).reduce(0) { $0 + (doses[$1] ?? 0) })
            }
        }
        stock = Self.stockDays(Stock.ordered(stockChanges), zone: zone, days: days)
    }

    /// The stock at each day's end and its refills, from the first day it was known; nil when never known.
    private static func stockDays(_ ordered: [(at: Instant, change: Stock.Change)], zone: TimeZoneRules, days: ClosedRange<Int>) -> [StockDay]? {
        var level = Stock.Level(packs: nil, short: 0, lastShort: nil, zone: zone)
        var next = 0
        var result: [StockDay] = []
        func midnight(_ day: Int) -> Instant { zone.resolve(LocalDateTime(date: LocalDate(dayNumber: day), time: TimeOfDay(hour: 0, minute: 0)!)) }
        var start = midnight(days.lowerBound)
        for day in days {
            let end = midnight(day + 1)
            defer { start = end }
            var added: Int64 = 0
            while next < ordered.count, ordered[next].at < end {
                let (at, change) = ordered[next]
                if case .added(let amount, _) = change, at >= start { added += amount }
                level.apply(change, at: at)
                next += 1
            }
            level.now = end  // a pack expired by the day's end no longer counts
            if let left = level.left { result.append(StockDay(date: LocalDate(dayNumber: day), left: left, added: added)) }
        }
        return result.isEmpty ? nil : result
    }
}
