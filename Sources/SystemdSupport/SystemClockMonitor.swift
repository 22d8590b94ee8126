import CSystemd
import Glibc
import Synchronization

/// Wakes the daemon at a wall-clock deadline, when the wall clock, the system time zone or the zone files
/// change, and on signals.
///
/// One `CLOCK_REALTIME` timerfd armed with `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET` gives exact
/// wall-clock deadlines (also right after a resume from suspend, when the deadline has passed) and reports
/// clock jumps; an inotify watch on `/etc` reports a replaced `/etc/localtime` or `/etc/timezone`, and
/// watches on the zone files' directories report a tzdata update (once, after a second without further
/// changes: an update rewrites hundreds of files); the
/// given signals are caught by a handler that only writes their number into a pipe (the self-pipe trick:
/// it works whichever thread the kernel picks, unlike signalfd, which needs the signal blocked in every
/// thread). A single thread blocks in `poll(2)` on those descriptors: no periodic wake-up, nothing runs
/// between events. Create one monitor per process.
public final class SystemClockMonitor: Sendable {
    /// What woke the monitor.
    public enum Event: Sendable, Equatable {
        /// The armed deadline was reached.
        case deadlineReached
        /// The wall clock was set or jumped (the deadline must be re-planned).
        case clockChanged
        /// `/etc/localtime` or `/etc/timezone` changed.
        case timeZoneChanged
        /// Files under the zone-data directory changed (a tzdata update), and then nothing for a second.
        case timeZoneDataChanged
        /// One of the watched signals arrived.
        case signal(Int32)
    }

    /// Owns the descriptors: it closes them when it ends, and refuses to touch them after.
    private let thread: PollingThread

    /// The events, in order; the stream ends after ``stop()``.
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    /// Opens the descriptors and starts the polling thread.
    /// - Parameters:
    ///   - zoneDirectory: the directory whose `localtime` and `timezone` entries are watched.
    ///   - zoneDataDirectory: the TZif files' directory (`/usr/share/zoneinfo`, `$TZDIR`), watched with its
    ///     subdirectories two levels down (`America/Argentina`); nil: not watched.
    ///   - signals: signals to block and deliver as ``Event/signal(_:)`` (SIGTERM, SIGHUP, ...).
    ///   - onSignal: called on the monitor's own thread as each signal arrives, before it is delivered: it runs
    ///     even while the consumer of ``events`` is busy (a stop must be honoured whatever is running).
    public init(
        zoneDirectory: String = "/etc", zoneDataDirectory: String? = nil, signals: [Int32] = [],
        onSignal: @escaping @Sendable (Int32) -> Void = { _ in }
    ) throws(SystemError) {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw SystemError(operation: "pipe") }
        for end in pipeEnds {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)  // a full pipe must never block a handler
        }
        let signalDescriptor = pipeEnds[0]
        signalPipeWriteEnd = pipeEnds[1]
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteEnd, &byte, 1)  // async-signal-safe
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
        let timerDescriptor = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC) | Int32(TFD_NONBLOCK))  // a re-arm between poll and read must not block
        guard timerDescriptor >= 0 else { throw SystemError(operation: "timerfd_create") }
        let inotifyDescriptor = inotify_init1(Int32(IN_CLOEXEC))
        var zoneSettingWatch: Int32 = -1
        if inotifyDescriptor >= 0 {
            let changes = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE)
            zoneSettingWatch = inotify_add_watch(inotifyDescriptor, zoneDirectory, changes)
            for directory in zoneDataDirectory.map({ Self.directories(under: $0, depth: 2) }) ?? [] {
                _ = inotify_add_watch(inotifyDescriptor, directory, changes | UInt32(IN_MOVED_FROM))
            }
        }
        let stopDescriptor = eventfd(0, Int32(EFD_CLOEXEC))
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        let thread = PollingThread(
            timer: timerDescriptor, inotify: inotifyDescriptor, zoneSettingWatch: zoneSettingWatch, signals: signalDescriptor,
            stop: stopDescriptor, continuation: continuation, onSignal: onSignal)
        self.thread = thread
        try DetachedThread.start { thread.run() }
    }

    /// Arms the timer for a wall-clock instant (seconds since the epoch); a past instant fires at once.
    /// Re-arming replaces the previous deadline.
    public func arm(atEpochSeconds seconds: Int64) {
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(max(seconds, 1))  // zero would disarm
        thread.whileOpen { timer, _ in _ = timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &spec, nil) }
    }

    /// Disarms the timer but keeps watching for clock changes (with a deadline far in the future).
    public func disarm() {
        arm(atEpochSeconds: Int64(Int32.max) * 4)
    }

    /// `directory` and the directories below it, `depth` levels down (symbolic links are not followed).
    static func directories(under directory: String, depth: Int) -> [String] {
        guard depth > 0, let stream = opendir(directory) else { return [directory] }
        defer { closedir(stream) }
        var found = [directory]
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            let path = directory + "/" + name
            var info = stat()
            // Some file systems leave d_type unknown: ask lstat then (which does not follow links either).
            let isDirectory = entry.pointee.d_type == UInt8(DT_UNKNOWN)
                ? lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
                : entry.pointee.d_type == UInt8(DT_DIR)
            if isDirectory { found += directories(under: path, depth: depth - 1) }
        }
        return found
    }

    /// Stops the polling thread and ends ``events``. Once it stopped, nothing is done (its descriptors are closed,
    /// and their numbers may belong to other files by then).
    public func stop() {
        thread.whileOpen { _, stop in
            var one: UInt64 = 1
            _ = write(stop, &one, 8)
        }
    }

    deinit {
        stop()
    }
}

/// The write end of the signal pipe, read by the signal handler. Set once, before any handler is installed;
/// a plain global because a C signal handler cannot capture context.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The blocking half of ``SystemClockMonitor``: owns the descriptors' reads on its own thread.
private final class PollingThread: Sendable {
    /// Whether ``run()`` ended and closed the descriptors.
    private let closed = Mutex(false)
    let timer: Int32
    let inotify: Int32
    /// The inotify watch on `/etc`; every other watch is on the zone files.
    let zoneSettingWatch: Int32
    let signals: Int32
    let stop: Int32
    let continuation: AsyncStream<SystemClockMonitor.Event>.Continuation
    let onSignal: @Sendable (Int32) -> Void

    /// How long the zone files must stay unchanged before a change is reported.
    static let zoneDataQuietMilliseconds: Int32 = 1000

    init(
        timer: Int32, inotify: Int32, zoneSettingWatch: Int32, signals: Int32, stop: Int32,
        continuation: AsyncStream<SystemClockMonitor.Event>.Continuation, onSignal: @escaping @Sendable (Int32) -> Void
    ) {
        self.onSignal = onSignal
        self.timer = timer
        self.inotify = inotify
        self.zoneSettingWatch = zoneSettingWatch
        self.signals = signals
        self.stop = stop
        self.continuation = continuation
    }

    /// Runs `body` with the timer and the stop descriptor unless they were closed, and keeps them open meanwhile.
    func whileOpen(_ body: (_ timer: Int32, _ stop: Int32) -> Void) {
        closed.withLock { closed in
            if !closed { body(timer, stop) }
        }
    }

    func run() {
        defer {
            continuation.finish()
            closed.withLock { closed in
                closed = true
                close(timer)
                if inotify >= 0 { close(inotify) }
                if signals >= 0 { close(signals) }
                close(stop)
            }
        }
        var descriptors = [
            pollfd(fd: timer, events: Int16(POLLIN), revents: 0),
            pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
        ]
        var zoneDataPending = false  // changed files seen, the quiet second not yet over
        while true {
            for index in descriptors.indices { descriptors[index].revents = 0 }
            let ready = poll(&descriptors, nfds_t(descriptors.count), zoneDataPending ? Self.zoneDataQuietMilliseconds : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if ready == 0 {
                zoneDataPending = false
                continuation.yield(.timeZoneDataChanged)
                continue
            }
            if descriptors[2].revents != 0 { return }
            if descriptors[0].revents != 0 {
                var expirations: UInt64 = 0
                let n = read(timer, &expirations, 8)
                if n == 8 {
                    continuation.yield(.deadlineReached)
                } else if n < 0 && errno == ECANCELED {
                    continuation.yield(.clockChanged)
                }
            }
            if descriptors[1].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = read(inotify, &buffer, buffer.count)
                let changes = n > 0 ? Self.changes(in: buffer[0..<n], zoneSettingWatch: zoneSettingWatch) : (setting: false, data: false)
                if changes.setting { continuation.yield(.timeZoneChanged) }
                if changes.data { zoneDataPending = true }
            }
            if descriptors[3].revents != 0 {
                var numbers = [UInt8](repeating: 0, count: 64)
                let n = read(signals, &numbers, numbers.count)
                for number in numbers.prefix(max(n, 0)) {
                    onSignal(Int32(number))
                    continuation.yield(.signal(Int32(number)))
                }
            }
        }
    }

    /// What an inotify read reports: `localtime` or `timezone` changed in `/etc` (the zone setting), and any
    /// change under the zone files (an overflowed queue counts as both: something may have been missed).
    static func changes(in bytes: ArraySlice<UInt8>, zoneSettingWatch: Int32) -> (setting: Bool, data: Bool) {
        var found = (setting: false, data: false)
        for event in InotifyEvent.parse(bytes) {
            if event.overflowed {
                found = (true, true)
            } else if event.watch == zoneSettingWatch {
                if event.name == "localtime" || event.name == "timezone" { found.setting = true }
            } else {
                found.data = true
            }
        }
        return found
    }
}

/// A failed system call, with its errno, for one-line messages.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    public let code: Int32

    public init(operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
