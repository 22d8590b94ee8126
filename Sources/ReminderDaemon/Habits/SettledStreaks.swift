import HabitCore
import ReminderCore
import ReminderStore
import Synchronization

/// Each goal's settled streak (``GoalStreak/Settled``: its kept days before today), kept in memory between
/// calls so that a streak is counted from yesterday on instead of from the goal's first day.
///
/// The logs, skips and rest days stay the only source: an entry is dropped when the store reports a change on
/// or before its last day, or to the reminder's schedule (``HistoryChanges``, from the change feed), when the
/// reminder's zone is another one (it follows the system zone, which changed), and when the zone data changes
/// (``forget()``). An entry computed while a change was handed in is not kept, so one computed from a history
/// that then changed cannot outlive the change.
final class SettledStreaks: Sendable {
    private struct Entry: Sendable {
        /// The zone the days are counted in.
        var zone: TimeZoneRules
        var settled: GoalStreak.Settled
    }

    private struct State: Sendable {
        var entries: [Int64: Entry] = [:]
        /// Counts the calls to ``update(from:)`` that found changes.
        var epoch: UInt64 = 0
    }

    private let state = Mutex(State())

    /// What a computation passes to ``keep(_:for:zone:epoch:)``: entries computed before a change was handed in
    /// are not kept.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    /// Drops the entries a change to the history reaches (the change feed hands them).
    func drop(_ changes: HistoryChanges) {
        guard !changes.isEmpty else { return }
        state.withLock { state in
            state.epoch += 1
            for (id, earliest) in changes.goals {
                if let entry = state.entries[id], entry.zone.localDayNumber(at: earliest) <= entry.settled.through { state.entries[id] = nil }
            }
            if let day = changes.restDaysFrom { state.entries = state.entries.filter { $0.value.settled.through < day } }
        }
    }

    /// The settled streak kept for a reminder, when it was counted in `zone` and applies at `now`.
    func settled(for id: Int64, zone: TimeZoneRules, now: Instant) -> GoalStreak.Settled? {
        guard let entry = state.withLock({ $0.entries[id] }), entry.zone.identifier == zone.identifier,
            entry.settled.applies(on: zone.localDayNumber(at: now))
        else { return nil }
        return entry.settled
    }

    /// Keeps a settled streak computed from a history read after ``epoch`` was `epoch`, unless changes were
    /// handed in since.
    func keep(_ settled: GoalStreak.Settled, for id: Int64, zone: TimeZoneRules, epoch: UInt64) {
        state.withLock { state in
            guard epoch == state.epoch else { return }
            state.entries[id] = Entry(zone: zone, settled: settled)
        }
    }

    /// Drops every entry (the zone data changed: a past log may fall on another day).
    func forget() {
        state.withLock { state in
            state.entries = [:]
            state.epoch += 1
        }
    }
}
