import Glibc
import Synchronization

/// A detached POSIX thread for blocking work (poll, waitpid) that must not hold one of Swift concurrency's
/// few cooperative threads.
enum DetachedThread {
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new detached thread.
    static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
        var handle = pthread_t()
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        guard pthread_create(&handle, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box) == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw SystemError(operation: "pthread_create")
        }
        pthread_detach(handle)
    }
}

extension DetachedThread {
    /// Runs blocking `body` on a new detached thread and returns its result. Cancellation returns at once with
    /// `CancellationError`; the thread finishes on its own and its result is dropped.
    static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        let waiter = Mutex<CheckedContinuation<Value, any Error>?>(nil)
        let resume: @Sendable (Result<Value, any Error>) -> Void = { result in
            waiter.withLock { $0.take() }?.resume(with: result)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.withLock { $0 = continuation }
                guard !Task.isCancelled else { return resume(.failure(CancellationError())) }
                do {
                    try start { resume(Result { try body() }) }
                } catch {
                    resume(.failure(error))
                }
            }
        } onCancel: {
            resume(.failure(CancellationError()))
        }
    }
}
