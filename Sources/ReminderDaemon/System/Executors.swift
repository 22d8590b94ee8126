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

/// A thread of its own for an actor whose long jobs must not hold up the server (the scheduler in a burst).
///
/// With NIO as Swift's global executor, a job stays on the event loop that queued it, and an event loop runs
/// queued jobs until none is left before it polls its sockets again. A long job on a server loop, even one
/// that yields between its parts, therefore kept every new connection waiting to its end: a `Status` call
/// took 630 ms during a burst of 10,000 firings. This loop runs no channel; idle, it sleeps in `epoll_wait`
/// with no timeout (no wake-ups).
public enum DedicatedThread {
    private static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// The executor to return from an actor's `unownedExecutor`.
    public static let executor: UnownedSerialExecutor = group.next().executor.asUnownedSerialExecutor()
}

/// Runs blocking work (a restore that reads a file and writes thousands of rows) on NIO's thread pool, off the
/// event loops: the connections served by the loop that took the call waited for it (a Watch client saw a
/// firing 1.9 s late during a merge of 30,000 rows). The pool's idle threads wait on a condition: no wake-ups.
public func offTheEventLoops<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await NIOThreadPool.singleton.runIfActive(body)
}
