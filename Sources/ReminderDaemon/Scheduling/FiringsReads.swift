import ReminderCore
import ReminderInterface
import ReminderStore

/// What the calls read of the firings store, which is the scheduling service's alone, and the one thing they
/// record there (a skip). `nonisolated`: the store is safe from any thread, and a call must not wait behind a
/// burst the actor is announcing.
extension SchedulingService {
    /// The skipped occurrences scheduled between two instants, per reminder (of `reminderIDs`, or all).
    nonisolated func skips(from: Instant, through: Instant, reminderIDs: [Int64]? = nil) throws(StoreError) -> [Int64: Set<Instant>] {
        try stores.firings.skips(from: from, through: through, reminderIDs: reminderIDs)
    }

    /// Handled firings and decided outcomes since an instant, each newest first, optionally of one reminder;
    /// each with its rank at one instant (a firing before its occurrence's outcome).
    nonisolated func history(since: Instant, reminderID: Int64?, limit: Int) throws(StoreError) -> [(entry: HistoryEntryValue, rank: Int)] {
        try stores.firings.history(since: since, reminderID: reminderID, limit: limit).map { (HistoryEntryValue($0), 0) }
            + stores.firings.outcomes(since: since, reminderID: reminderID, limit: limit).map { (HistoryEntryValue($0), 1) }
    }

    /// The skips of a reminder's occurrences scheduled after `now`, oldest first.
    nonisolated func skipsAhead(reminderID: Int64, after now: Instant) throws(StoreError) -> [Stored<OutcomeRecord>] {
        try stores.firings.outcomes(reminderID: reminderID, from: now.adding(seconds: 1), through: .endOfTime, state: .skipped)
    }

    /// Removes a skip; ``reconsider(reminderID:now:)`` then plans its occurrence again.
    nonisolated func removeSkip(id: Int64) throws(StoreError) -> Bool {
        try stores.firings.removeSkip(id: id)
    }

    /// Records the user's skip of an occurrence (once); ``reconsider(reminderID:now:)`` then stops its repeats.
    nonisolated func recordSkip(_ event: OccurrenceEvent) throws(StoreError) {
        _ = try stores.firings.recordOutcome(OutcomeRecord(event))
    }
}
