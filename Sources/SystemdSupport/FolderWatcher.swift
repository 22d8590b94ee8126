import CSystemd
import Glibc
import Synchronization

/// Reports which of a few folders changed (a file written, renamed into or out of it, removed), and the names of
/// the entries that did, with inotify: no polling, one thread blocked in `poll(2)` until something happens. A
/// burst (vdirsyncer writing a hundred items) is reported once, after the folder stayed quiet for
/// ``quietMilliseconds``, or ``maximumWaitMilliseconds`` after its first change when it is not quiet by then.
public final class FolderWatcher: Sendable {
    /// A folder changed: in the entries named, or anywhere (`names` nil: the kernel's queue overflowed, the
    /// folder itself was moved or removed, or more entries changed than are worth naming).
    public struct Change: Sendable, Hashable {
        /// The folder, as given to ``watch(_:)``.
        public var folder: String
        public var names: Set<String>?

        public init(folder: String, names: Set<String>?) {
            (self.folder, self.names) = (folder, names)
        }
    }

    /// The changes; the stream ends after ``stop()``.
    public let changes: AsyncStream<Change>
    private let thread: WatchingThread

    /// How long a folder must stay unchanged before its change is reported (vdirsyncer writes one item after
    /// another: a sync is one report, and a single change is applied within a few tens of milliseconds).
    public static let quietMilliseconds: Int32 = 20
    /// The longest a change waits for the folders to go quiet: a folder rewritten without a pause (faster than
    /// the quiet period) no longer holds up the other folders' changes, or its own, for as long as it lasts.
    public static let maximumWaitMilliseconds: Int64 = 1000
    /// When pending changes are reported: once the folders were quiet for ``quietMilliseconds`` (the poll's
    /// timeout), and at the latest ``maximumWaitMilliseconds`` after the first of them. Pure: the watching thread
    /// passes its monotonic clock.
    public struct ReportTiming: Sendable, Equatable {
        /// When the oldest pending change is reported, quiet or not; nil: nothing pending.
        public private(set) var reportBy: Int64?

        public init() {}

        /// A change came at `now` (milliseconds).
        public mutating func changed(now: Int64) {
            if reportBy == nil { reportBy = now + FolderWatcher.maximumWaitMilliseconds }
        }

        /// Everything pending was reported.
        public mutating func reported() { reportBy = nil }

        /// How long to wait for more events: forever with nothing pending, else the quiet period or what is left
        /// of the maximum wait, whichever is shorter.
        public func pollTimeout(now: Int64) -> Int32 {
            reportBy.map { Int32(max(0, min(Int64(FolderWatcher.quietMilliseconds), $0 - now))) } ?? -1
        }

        /// Whether what is pending is reported now, though events keep coming.
        public func isDue(now: Int64) -> Bool { reportBy.map { now >= $0 } ?? false }
    }

    /// Above this many entries changed in one burst, a change says "anywhere" (the folder is read whole). A
    /// second of remindd's first publish names about 3,000 of its own items, which the collection recognises
    /// without reading them: "anywhere" would have it read the whole folder.
    public let maximumNames: Int

    public init(maximumNames: Int = 20_000) throws(SystemError) {
        self.maximumNames = maximumNames
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { throw SystemError(operation: "inotify_init1") }
        let stop = eventfd(0, Int32(EFD_CLOEXEC))
        guard stop >= 0 else {
            close(inotify)
            throw SystemError(operation: "eventfd")
        }
        let (changes, continuation) = AsyncStream.makeStream(of: Change.self, bufferingPolicy: .unbounded)
        self.changes = changes
        let thread = WatchingThread(inotify: inotify, stop: stop, maximumNames: maximumNames, continuation: continuation)
        self.thread = thread
        try DetachedThread.start { thread.run() }
    }

    /// Watches exactly `folders` from now on (those no longer listed are dropped).
    /// - Returns: the folders that cannot be watched, with the reason (one that does not exist yet).
    @discardableResult
    public func watch(_ folders: [String]) -> [(folder: String, problem: String)] {
        thread.watch(folders)
    }

    /// Stops the thread and ends ``changes``.
    public func stop() {
        thread.whileOpen { _, stop in
            var one: UInt64 = 1
            _ = write(stop, &one, 8)
        }
    }

    deinit { stop() }
}

/// The blocking half of ``FolderWatcher``.
private final class WatchingThread: Sendable {
    private let inotify: Int32
    private let stop: Int32
    private let continuation: AsyncStream<FolderWatcher.Change>.Continuation
    private let maximumNames: Int
    private struct State {
        var closed = false
        /// Watch descriptor -> folder.
        var folders: [Int32: String] = [:]
    }
    private let state = Mutex(State())

    /// What is watched in each folder: items written, moved in or out, removed; the folder itself removed.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

    init(inotify: Int32, stop: Int32, maximumNames: Int, continuation: AsyncStream<FolderWatcher.Change>.Continuation) {
        self.maximumNames = maximumNames
        (self.inotify, self.stop, self.continuation) = (inotify, stop, continuation)
    }

    func whileOpen(_ body: (_ inotify: Int32, _ stop: Int32) -> Void) {
        state.withLock { state in
            if !state.closed { body(inotify, stop) }
        }
    }

    func watch(_ folders: [String]) -> [(folder: String, problem: String)] {
        state.withLock { state in
            guard !state.closed else { return [] }
            var problems: [(String, String)] = []
            for (descriptor, folder) in state.folders where !folders.contains(folder) {
                inotify_rm_watch(inotify, descriptor)
                state.folders[descriptor] = nil
            }
            for folder in folders where !state.folders.values.contains(folder) {
                let descriptor = inotify_add_watch(inotify, folder, Self.mask | UInt32(IN_ONLYDIR))
                if descriptor < 0 {
                    problems.append((folder, String(cString: strerror(errno))))
                } else {
                    state.folders[descriptor] = folder
                }
            }
            return problems
        }
    }

    func run() {
        defer {
            continuation.finish()
            state.withLock { state in
                state.closed = true
                close(inotify)
                close(stop)
            }
        }
        var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
        var pending: [Int32: Set<String>?] = [:]  // watches changed (and the names), not reported until quiet
        var timing = FolderWatcher.ReportTiming()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        func report() {
            let changes = state.withLock { state in
                pending.compactMap { watch, names in state.folders[watch].map { FolderWatcher.Change(folder: $0, names: names) } }
            }
            pending = [:]
            timing.reported()
            for change in changes.sorted(by: { $0.folder < $1.folder }) { continuation.yield(change) }
        }
        while true {
            for index in descriptors.indices { descriptors[index].revents = 0 }
            let ready = poll(&descriptors, 2, timing.pollTimeout(now: Self.monotonicMilliseconds()))
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 { return }
            if ready == 0 {
                report()
                continue
            }
            let n = read(inotify, &buffer, buffer.count)
            if n > 0 {
                Self.add(buffer[0..<n], to: &pending, all: state.withLock { Array($0.folders.keys) }, maximumNames: maximumNames)
                if !pending.isEmpty { timing.changed(now: Self.monotonicMilliseconds()) }
            }
            if timing.isDue(now: Self.monotonicMilliseconds()) { report() }
        }
    }

    private static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Adds the watches and names an inotify read reports to `pending` (nil names: anywhere in the folder; every
    /// watch when the queue overflowed, as anything may have been missed).
    static func add(_ bytes: ArraySlice<UInt8>, to pending: inout [Int32: Set<String>?], all: [Int32], maximumNames: Int) {
        for event in InotifyEvent.parse(bytes) {
            if event.overflowed {
                for watch in all { pending[watch] = .some(nil) }
                return
            }
            guard event.mask & UInt32(IN_IGNORED) == 0 else { continue }
            // A hidden entry is no item (a vdir's temporary file is written hidden and renamed over the item: the
            // rename is its change); naming them would fill ``FolderWatcher/maximumNames`` with nothing to read.
            guard !event.name.hasPrefix(".") else { continue }
            // How many names are pending for the watch (-1: anywhere; nil: nothing yet), read without holding the
            // set: it is added to in place (a set taken out of the dictionary, added to and put back was copied
            // whole at every event: 20,000 items removed at once took a second of this thread, growing as the square).
            switch pending[event.watch].map({ $0?.count ?? -1 }) {
            case .some(-1): continue  // anywhere already
            case let count? where !event.name.isEmpty && count < maximumNames:
                pending[event.watch]??.insert(event.name)
            case nil where !event.name.isEmpty:
                pending[event.watch] = [event.name]
            default:
                pending[event.watch] = .some(nil)  // the folder itself, or too many names
            }
        }
    }
}
