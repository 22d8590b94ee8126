import Glibc
import NIOCore
import NIOPosix

/// Lets the work queued on the event loops (a firing, another connection's call) run before going on: call it
/// between the parts of a long reply.
///
/// Not `Task.yield()`: with NIO as Swift's global executor it still goes through libdispatch, whose workqueue
/// monitor then wakes the idle daemon every second for as long as it runs. A round trip through an event loop
/// queues this task behind what is already waiting, without that.
public func yieldToQueuedWork() async {
    try? await MultiThreadedEventLoopGroup.singleton.any().submit {}.get()
}

/// Threads of their own for actors whose long jobs must not hold up the server (the scheduler in a burst, the
/// folders' reading of 100,000 items) nor each other.
///
/// With NIO as Swift's global executor, a job stays on the event loop that queued it, and an event loop runs
/// queued jobs until none is left before it polls its sockets again. A long job on a server loop, even one
/// that yields between its parts, therefore kept every new connection waiting to its end: a `Status` call
/// took 630 ms during a burst of 10,000 firings, and 30 s while the collection read 100,000 items of another
/// client. These loops run no channel; idle, each sleeps in `epoll_wait` with no timeout (no wake-ups).
public enum DedicatedThread {
    private static let group = MultiThreadedEventLoopGroup(numberOfThreads: 3)
    private static let loops = Array(group.makeIterator())
    /// The scheduler's: firings are never held up by a folder being read.
    public static let executor: UnownedSerialExecutor = loops[0].executor.asUnownedSerialExecutor()
    /// The folders': the linked collection and the calendars, read and applied here.
    public static let folders: UnownedSerialExecutor = loops[1].executor.asUnownedSerialExecutor()
    /// The journal's: entries are worded and sent here, in order (``JournalAnnouncer``). Not a `DispatchQueue`:
    /// libdispatch retires its idle worker thread 5 s after the last entry, a wake-up of the idle daemon.
    public static let journal: any EventLoop = loops[2]
}

/// Runs blocking work (a restore that reads a file and writes thousands of rows) on NIO's thread pool, off the
/// event loops: the connections served by the loop that took the call waited for it (a Watch client saw a
/// firing 1.9 s late during a merge of 30,000 rows). The pool's idle threads wait on a condition: no wake-ups.
/// When the pool has stopped (at shutdown) it runs here: it always runs once, and its own error is the only one.
///
/// The pool's threads run at a lower CPU priority (``backgroundNice``) than the event loops and the scheduler,
/// so that with both cores taken by a publish and a scan, calls and firings come first.
public func offTheEventLoops<Value: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> Value) async throws(Failure) -> Value {
    let result: Result<Value, Failure>
    do {
        result = try await NIOThreadPool.singleton.runIfActive {
            lowerThisThreadsPriority()
            return Result { () throws(Failure) in try body() }
        }
    } catch {
        result = Result { () throws(Failure) in try body() }
    }
    return try result.get()
}

/// The nice value of the threads that run background work (raising one's own is always allowed).
public let backgroundNice: Int32 = 10

/// Lowers the calling thread's CPU priority to ``backgroundNice`` (on Linux the nice value is per thread:
/// `setpriority(PRIO_PROCESS, 0, ...)` changes the caller only). Once per thread: a thread already there is
/// left as it is; one that cannot be changed runs as it was.
func lowerThisThreadsPriority() {
    errno = 0
    let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    guard errno == 0, current < backgroundNice else { return }
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, backgroundNice)
}
