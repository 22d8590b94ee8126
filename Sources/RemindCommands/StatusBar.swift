import ReminderCore
import ReminderInterface

/// The line a status bar shows (`remindctl status --format waybar`): what is due now, else the next firing,
/// with a class a bar's style can colour: `due` (something is due), `overdue` (due for ``overdueSeconds`` or
/// more: on screen and still not taken), `missed` (a window closed today with nothing logged), `idle`.
struct StatusBarLine: Encodable, Hashable {
    var text: String
    var tooltip: String
    /// Waybar's `class`.
    var `class`: String
    /// Waybar's `alt`: the same as the class, for format-icons.
    var alt: String

    /// Due this long, an occurrence is overdue.
    static let overdueSeconds: Int64 = 10 * 60

    /// The line from today's occurrences and the daemon's next firing, at `now`, with times said by `output`.
    init(occurrences: [OccurrenceValue], next: FiringValue?, now: Instant, output: Output) {
        let due = occurrences.filter { $0.state == OccurrenceState.due.rawValue }
        let missed = occurrences.filter { $0.state == OccurrenceState.missed.rawValue }
        let since = due.compactMap { Output.instant($0.utc) }.min()
        let state = since.map { now.secondsSinceEpoch - $0.secondsSinceEpoch >= Self.overdueSeconds ? "overdue" : "due" } ?? (missed.isEmpty ? "idle" : "missed")
        func named(_ items: [OccurrenceValue]) -> String {
            items.map { item in doseText(item.dose, item.unit).map { "\(item.shownName) \($0)" } ?? item.shownName }.joined(separator: " · ")
        }
        let words = output.words
        var lines: [String] = []
        if !due.isEmpty { lines.append(words(StatusMessages.barDue, named(due))) }
        if !missed.isEmpty { lines.append(words(StatusMessages.barMissed, named(missed))) }
        let taken = occurrences.filter { [OccurrenceState.taken, .takenLate].map(\.rawValue).contains($0.state) }.count
        lines.append(words(StatusMessages.barToday, taken, occurrences.count))
        if let next, let instant = Output.instant(next.utc) {
            lines.append(words(StatusMessages.barNext, next.shownName, output.near(next.utc), output.left(until: instant)))
        }
        if !due.isEmpty {
            text = "⏰ " + named(due)
        } else if let next {
            text = "\(next.shownName) \(output.clock(next.utc))"
        } else {
            text = words(StatusMessages.barNone)
        }
        (tooltip, self.class, alt) = (lines.joined(separator: "\n"), state, state)
    }
}
