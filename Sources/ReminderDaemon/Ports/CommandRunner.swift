import SystemdSupport

/// Runs a command for the user outside the daemon (the linked collection's `sync-command`): never waits;
/// `finished` is called, on some thread, when it ended.
public protocol CommandRunner: Sendable {
    func run(_ command: UserCommand, finished: @escaping @Sendable (CommandOutcome) -> Void)
    /// Kills the commands still running, and starts none after (the daemon stops).
    func stopAll()
}

/// The daemon's bounded queue (transient units of the user manager, or children): the production runner.
extension CommandQueue: CommandRunner {}
