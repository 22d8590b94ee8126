/// Whether a firing should be announced or was already taken care of by the user's logged intake.
public enum SuppressionDecision: Hashable, Sendable {
    /// Announce the firing.
    case fire
    /// Do not announce: `logged` intakes on the firing's day at or before it cover it, the `ordinal`-th of the day.
    case suppressed(ordinal: Int, logged: Int)

    /// One line for the journal: why the firing was suppressed, or nil when it fires.
    public var reason: String? {
        switch self {
        case .fire: return nil
        case .suppressed(let ordinal, let logged):
            return "already logged \(logged) time\(logged == 1 ? "" : "s") today, covering occurrence \(ordinal) of the day"
        }
    }
}

extension ReminderRule {
    /// Decides whether `occurrence` is suppressed by intake logged at `logs`.
    ///
    /// The k-th occurrence (1-based) on its local day D is suppressed when at least k logs fall on day D
    /// at or before the occurrence's instant. Logs on other days never count.
    /// - Parameters:
    ///   - occurrence: a firing of this rule in `zone`.
    ///   - logs: instants of logged intake for this goal, in any order.
    public func suppression(of occurrence: Occurrence, logs: [Instant], in zone: TimeZoneRules) -> SuppressionDecision {
        let day = zone.localDayNumber(at: occurrence.instant)
        return suppression(of: occurrence, dayLogs: logs.filter { zone.localDayNumber(at: $0) == day }, in: zone) { ordinal(of: occurrence, in: zone) }
    }

    /// The place of `occurrence` among its local day's occurrences, 1-based.
    func ordinal(of occurrence: Occurrence, in zone: TimeZoneRules) -> Int {
        let sameDay = occurrences(on: LocalDate(dayNumber: zone.localDayNumber(at: occurrence.instant)), in: zone)
        return (sameDay.firstIndex { $0.instant >= occurrence.instant } ?? sameDay.count) + 1
    }

    /// ``suppression(of:logs:in:)`` from the logs of the occurrence's own local day (`dayLogs`), with its place
    /// among that day's occurrences (1-based) asked only when a log counts: a caller that walks a day's
    /// occurrences knows it, and working it out again for each one made a day of 96 doses cost 18,000 expansions.
    func suppression(of occurrence: Occurrence, dayLogs: [Instant], in zone: TimeZoneRules, ordinal: () -> Int) -> SuppressionDecision {
        let from = countsFromLastDose ? start.map { zone.resolve($0) } : nil  // the dose counted from suppresses nothing
        let logged = dayLogs.lazy.filter { log in log <= occurrence.instant && from.map { log >= $0 } ?? true }.count
        guard logged > 0 else { return .fire }
        let place = ordinal()
        return logged >= place ? .suppressed(ordinal: place, logged: logged) : .fire
    }
}
