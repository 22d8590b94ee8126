import NIOCore
import NIOPosix

// Swift concurrency's tasks run on NIO's event loops, installed before any task starts: without it,
// libdispatch's workqueue monitor wakes the idle process every second (as it did remindd's).
_ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
do {
    var command = try RemindWeb.parseAsRoot()
    if let web = command as? RemindWeb {
        try await web.run()
    } else {
        try command.run()  // --help, --version
    }
} catch {
    RemindWeb.exit(withError: error)
}
