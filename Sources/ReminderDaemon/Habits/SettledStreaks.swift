import HabitCore
import ReminderCore
import ReminderStore
import Synchronization

/// Each goal's settled streak (``GoalStreak/Settled``: its kept days before today), kept in memory between
/// calls so that a streak is counted from yesterday on instead of from the goal's first day.
///
/// The logs, skips and rest days stay the only source: an entry is dropped when the store reports a change on
/// or before its last day, or to the reminder itself (``HistoryChanges``), when the reminder's zone is another
/// one (it follows the system zone, which changed), and when the zone data changes (``forget()``). An entry
/// computed while another call took changes is not kept, so one computed from a history that then changed
/// cannot outlive the change.
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

    /// Takes the store's changes and drops the entries they reach.
    /// - Returns: the epoch to pass to ``keep(_:for:zone:epoch:)``, or nil when the changes could not be
    ///   read (everything is dropped, and nothing computed now is kept).
    func update(from takeChanges: () throws(StoreError) -> HistoryChanges) -> UInt64? {
        // Unreadable changes drop everything kept (below): nothing stale is answered, it is only counted again.
        let changes = try? takeChanges()
        return state.withLock { state in
            guard let changes else {
                state.entries = [:]
                state.epoch += 1
                return nil
            }
            guard !changes.isEmpty else { return state.epoch }
            state.epoch += 1
            for (id, earliest) in changes.goals {
                if let entry = state.entries[id], entry.zone.localDayNumber(at: earliest) <= entry.settled.through { state.entries[id] = nil }
            }
            if let day = changes.restDaysFrom { state.entries = state.entries.filter { $0.value.settled.through < day } }
            return state.epoch
        }
    }

    /// The settled streak kept for a reminder, when it was counted in `zone` and applies at `now`.
    func settled(for id: Int64, zone: TimeZoneRules, now: Instant) -> GoalStreak.Settled? {
        guard let entry = state.withLock({ $0.entries[id] }), entry.zone.identifier == zone.identifier,
            entry.settled.applies(on: zone.localDayNumber(at: now))
        else { return nil }
        return entry.settled
    }

    /// Keeps a settled streak computed after ``update(from:)`` returned `epoch`, unless changes were taken since.
    func keep(_ settled: GoalStreak.Settled, for id: Int64, zone: TimeZoneRules, epoch: UInt64?) {
        state.withLock { state in
            guard let epoch, epoch == state.epoch else { return }
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
