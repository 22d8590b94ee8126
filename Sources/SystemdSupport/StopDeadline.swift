import Glibc
import Synchronization

/// Ends the process when an orderly stop takes too long: a stop signal must be honoured within a bound
/// whatever is running (a long habit computation, a burst, a hung client), not after the service manager's
/// own timeout kills it.
///
/// ``arm(seconds:onExpiry:)`` starts a thread only then, so an idle daemon has no thread and no wake-up for
/// it. Cutting a stop short loses nothing: every write is a SQLite transaction, and a firing recorded but not
/// confirmed as announced is looked up in the journal at the next start.
public final class StopDeadline: Sendable {
    private let state = Mutex<(armed: Bool, finished: Bool)>((false, false))

    public init() {}

    /// Starts the countdown (once; later calls do nothing): unless ``finished()`` is called within `seconds`,
    /// `onExpiry` runs on the countdown's thread and the process exits with status 0 (a stop, as asked).
    public func arm(seconds: Double, onExpiry: @escaping @Sendable () -> Void) {
        let first = state.withLock { state in
            defer { state.armed = true }
            return !state.armed
        }
        guard first else { return }
        do {
            try DetachedThread.start { [self] in
                var delay = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.towardZero)) * 1e9))
                var left = timespec()
                while nanosleep(&delay, &left) != 0 && errno == EINTR { delay = left }
                guard !state.withLock({ $0.finished }) else { return }
                onExpiry()
                _exit(0)
            }
        } catch {
            // No thread to be had: the stop goes on without a bound, as before; the manager's timeout remains.
        }
    }

    /// The orderly stop is done: the countdown, if any, ends without acting.
    public func finished() {
        state.withLock { $0.finished = true }
    }
}
