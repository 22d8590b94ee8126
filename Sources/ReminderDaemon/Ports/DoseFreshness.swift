/// Brings in the doses other devices logged before a dose's limits are checked here (`log` and `done` of a
/// medication with `--min-interval`, `--max-per-day` or taken as needed): the linked collection runs its sync
/// command, waits for it (bounded), and reads what it brought.
protocol DoseFreshness: Sendable {
    /// Syncs and reads the collection; nil when that was done or there is nothing to sync, else why it could not
    /// be (the limits are then checked on what this device has, and the reply says so).
    func freshen() async -> String?
}
