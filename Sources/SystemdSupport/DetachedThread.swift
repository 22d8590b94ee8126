import Glibc

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
