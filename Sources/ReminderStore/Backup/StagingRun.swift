import Synchronization

/// The names of one bulk write's `TEMP` staging tables, unique in the process. Imports and restores stage their
/// rows on the writer's connection in chunks, the writer free between them; two that run at once (two clients'
/// imports of two calendars; the daemon now also runs them in turn) with one set of names dropped, filled and moved
/// each other's rows: one import's reminders were added under the other's file, or lost.
struct StagingRun: Sendable {
    private static let started = Atomic<Int>(0)
    let number: Int

    init() {
        number = Self.started.add(1, ordering: .relaxed).newValue
    }

    /// The unqualified name of this run's table called `base`.
    func table(_ base: String) -> String { "remindd_staged_\(number)_\(base)" }
}
