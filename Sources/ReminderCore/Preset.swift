/// The frequencies users pick from a list, each expanded from a start date-time into an explicit rule.
public enum Preset: String, CaseIterable, Sendable, LooselyNamed {
    case daily = "Daily"
    case twiceADay = "Twice a Day"
    case threeTimesADay = "Three Times a Day"
    case fourTimesADay = "Four Times a Day"
    case sixTimesADay = "Six Times a Day"
    case weekly = "Weekly"
    case twiceWeekly = "Twice Weekly"
    case threeTimesWeekly = "Three Times Weekly"
    case fourTimesWeekly = "Four Times Weekly"
    case monthly = "Monthly"
    case twiceMonthly = "Twice Monthly"
    case threeTimesMonthly = "Three Times Monthly"


    /// Whether the preset needs a date in its start (weekly and monthly ones take the weekday or day from it).
    public var needsStartDate: Bool {
        switch self {
        case .daily, .twiceADay, .threeTimesADay, .fourTimesADay, .sixTimesADay: return false
        default: return true
        }
    }

    /// The explicit day selector and times, from the start's time (and date, for weekly and monthly presets).
    /// Daily times past midnight wrap to the same clock time; weekdays wrap modulo 7; days past 30 wrap modulo 30.
    public func expand(time: TimeOfDay, date: LocalDate?) -> (days: DaySelector, times: [TimeOfDay]) {
        func hoursLater(_ steps: [Int]) -> [TimeOfDay] {
            steps.map { TimeOfDay(wrappingSeconds: time.secondsSinceMidnight + $0 * 60) }
        }
        func weekdays(_ offsets: [Int]) -> DaySelector {
            let base = date!.weekday.rawValue - 1
            return .weekly(WeekdaySet(offsets.map { Weekday(rawValue: (base + $0) % 7 + 1)! }))
        }
        func monthDays(_ offsets: [Int]) -> DaySelector {
            let base = date!.day
            return .monthly(MonthDaySet(days: offsets.map { $0 > 0 && base + $0 > 30 ? base + $0 - 30 : base + $0 }))
        }
        switch self {
        case .daily: return (.daily, [time])
        case .twiceADay: return (.daily, hoursLater([0, 720]))
        case .threeTimesADay: return (.daily, hoursLater([0, 360, 720]))
        case .fourTimesADay: return (.daily, hoursLater([0, 240, 480, 720]))
        case .sixTimesADay: return (.daily, hoursLater([0, 150, 300, 450, 600, 750]))
        case .weekly: return (weekdays([0]), [time])
        case .twiceWeekly: return (weekdays([0, 3]), [time])
        case .threeTimesWeekly: return (weekdays([0, 2, 4]), [time])
        case .fourTimesWeekly: return (weekdays([0, 2, 4, 6]), [time])
        case .monthly: return (monthDays([0]), [time])
        case .twiceMonthly: return (monthDays([0, 15]), [time])
        case .threeTimesMonthly: return (monthDays([0, 10, 20]), [time])
        }
    }
}

/// A closed set of names users type in many spellings: matched ignoring case and everything but letters
/// (`twice-a-day`, `Twice a Day`, `busy_day`).
public protocol LooselyNamed: CaseIterable, RawRepresentable where RawValue == String {}

extension LooselyNamed {
    /// Finds the case whose name matches `name`, ignoring case, spaces, dashes and underscores.
    public init?(name: String) {
        func key(_ s: String) -> String { s.lowercased().filter(\.isLetter) }
        guard let found = Self.allCases.first(where: { key($0.rawValue) == key(name) }) else { return nil }
        self = found
    }
}
