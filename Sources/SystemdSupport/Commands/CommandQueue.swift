import Glibc
import Synchronization

/// Runs the commands remindd runs for the user, bounded: at most ``maximumRunning`` at a time (each waited for
/// on a thread of its own; a thread takes the next waiting command when its command ends), at most
/// ``maximumWaiting`` waiting (more are dropped and reported), each killed with what it started at its time
/// limit, and at most ``outputLineLimit`` lines or ``outputByteLimit`` bytes of each one's output logged.
/// ``run(_:finished:)`` never blocks.
public final class CommandQueue: Sendable {
    /// Where a line of a command's output goes (the journal), with its priority.
    public typealias Output = @Sendable (String, Journal.Priority) -> Void

    public let maximumRunning: Int
    public let maximumWaiting: Int
    public static let outputLineLimit = 100
    public static let outputByteLimit = 32 * 1024
    /// How long a command's output is still read once it ended (what it left behind holding the pipe is gone).
    static let drainMilliseconds: Int32 = 1000

    private struct Job {
        let command: UserCommand
        let finished: @Sendable (CommandOutcome) -> Void
    }

    private struct State {
        var waiting: [Job] = []
        var threads = 0
        /// The kill of each command running, by a number of its own.
        var running: [Int: @Sendable () -> Void] = [:]
        var nextNumber = 0
        /// Set by ``stopAll()``: the commands running then are reported as stopped with the daemon.
        var stopped: Set<Int> = []
        /// ``stopAll()`` was called: a command being started then is killed as soon as it is, and none is queued.
        var stopping = false
    }

    private let launcher: any CommandLauncher
    private let fallback: (any CommandLauncher)?
    private let output: Output
    private let state = Mutex(State())

    /// - Parameters:
    ///   - launcher: how commands are started.
    ///   - fallback: how they are started when `launcher` cannot (the user manager went away).
    ///   - output: where their output goes, line by line.
    public init(
        launcher: any CommandLauncher, fallback: (any CommandLauncher)? = nil, maximumRunning: Int = 4, maximumWaiting: Int = 2000,
        output: @escaping Output
    ) {
        self.launcher = launcher
        self.fallback = fallback
        self.maximumRunning = maximumRunning
        self.maximumWaiting = maximumWaiting
        self.output = output
    }

    /// Runs `command` now, or once fewer than ``maximumRunning`` run; `finished` is called on the thread that
    /// waited for it. With ``maximumWaiting`` commands waiting, it is not run: `finished(.dropped)` at once.
    public func run(_ command: UserCommand, finished: @escaping @Sendable (CommandOutcome) -> Void) {
        enum Next { case refuse(CommandOutcome), startThread, queued }
        let next: Next = state.withLock { state in
            guard !state.stopping else { return .refuse(.stoppedWithTheDaemon) }
            guard state.waiting.count < maximumWaiting else { return .refuse(.dropped) }
            state.waiting.append(Job(command: command, finished: finished))
            guard state.threads < maximumRunning else { return .queued }
            state.threads += 1
            return .startThread
        }
        switch next {
        case .refuse(let outcome): finished(outcome)
        case .startThread:
            do {
                try DetachedThread.start { self.work() }
            } catch {
                let jobs: [Job] = state.withLock { state in
                    state.threads -= 1
                    guard state.threads == 0 else { return [] }
                    defer { state.waiting = [] }
                    return state.waiting
                }
                jobs.forEach { $0.finished(.notStarted("no thread to wait for it: \(error)")) }
            }
        case .queued: return
        }
    }

    /// Kills every command still running, with what it started, and drops those waiting: the daemon stops. Returns
    /// once each command's `finished` has run (at most ``stopWaitMilliseconds`` later): what a command that ended
    /// just before says (a sound that could not be played) is said before the daemon says it stopped, not after.
    public func stopAll() {
        // Under the lock: a command leaves `running` before it is reaped, so no kill reaches a reused pid.
        state.withLock { state in
            state.stopping = true
            state.waiting.removeAll()
            state.stopped.formUnion(state.running.keys)
            state.running.values.forEach { $0() }
        }
        let deadline = Self.now() + Self.stopWaitMilliseconds
        while state.withLock({ $0.threads > 0 }) && Self.now() < deadline { usleep(5_000) }
    }

    /// How long ``stopAll()`` waits for the commands it killed to be reaped and reported: their output's drain
    /// (``drainMilliseconds``) and a second more.
    static let stopWaitMilliseconds = Int64(drainMilliseconds) + 1000

    /// Takes waiting commands one after the other until none is left.
    private func work() {
        while let job = state.withLock({ state -> Job? in
            guard !state.waiting.isEmpty else {
                state.threads -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }) {
            job.finished(execute(job.command))
        }
    }

    private func execute(_ command: UserCommand) -> CommandOutcome {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return .notStarted("pipe: \(String(cString: strerror(errno)))") }
        // Neither end is inherited by another command (the launcher passes the writer on). One started by another
        // thread between pipe and fcntl could hold this pipe open: its end is then waited for only drainMilliseconds.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let reader = ends[0]
        _ = fcntl(reader, F_SETFL, O_NONBLOCK)
        defer { close(reader) }
        var launched: any LaunchedCommand
        do throws(LaunchFailure) { launched = try launch(command, output: ends[1]) } catch {
            close(ends[1])
            return .notStarted(error.reason)
        }
        close(ends[1])
        let number = state.withLock { state in
            defer { state.nextNumber += 1 }
            state.running[state.nextNumber] = launched.kill
            if state.stopping {  // stopAll() came while it was being started
                state.stopped.insert(state.nextNumber)
                launched.kill()
            }
            return state.nextNumber
        }
        var lines = OutputLines(purpose: command.purpose, output: output, holding: command.logsOutput != .always)
        let deadline = Self.now() + Int64(command.timeLimitMilliseconds)
        var timedOut = false
        var ended = launched.process()  // news may have come with the start (a bus reads ahead)
        while !ended {
            let left = timedOut ? Int64(Self.drainMilliseconds) : max(0, deadline - Self.now())
            var entries = [pollfd(fd: reader, events: Int16(POLLIN), revents: 0), launched.descriptor]
            if lines.closed { entries[0].fd = -1 }
            var ready: Int32
            repeat { ready = poll(&entries, 2, Int32(clamping: left)) } while ready < 0 && errno == EINTR
            if ready == 0 {
                if timedOut { break }  // killed, and still not gone: leave it to finish()
                timedOut = true
                launched.kill()
                continue
            }
            if entries[0].revents != 0 { lines.read(reader) }
            if entries[1].revents != 0 { ended = launched.process() }
        }
        let stopped = state.withLock { state in
            state.running[number] = nil
            return state.stopped.remove(number) != nil
        }
        let outcome = launched.finish()
        lines.drain(reader, milliseconds: Self.drainMilliseconds)
        let result: CommandOutcome = stopped ? .stoppedWithTheDaemon : timedOut ? .killedAtTimeLimit : outcome
        if result != .exited(0), command.logsOutput == .onFailure { lines.release() }
        return result
    }

    /// Starts `command` with the launcher, else (said as a warning) as remindd's own child.
    private func launch(_ command: UserCommand, output writer: Int32) throws(LaunchFailure) -> any LaunchedCommand {
        do throws(LaunchFailure) {
            return try launcher.launch(command, output: writer)
        } catch let failure {
            guard let fallback else { throw failure }
            output("\(command.purpose): \(failure.reason); running it as remindd's child instead", .warning)
            return try fallback.launch(command, output: writer)
        }
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}

/// A command's output, line by line into the journal, up to the limits; the rest is counted and said in one line.
/// `holding`: kept (within the same limits) and logged by ``release()`` only, when the run failed.
private struct OutputLines {
    let purpose: String
    let output: CommandQueue.Output
    let holding: Bool
    var held: [String] = []
    var pending: [UInt8] = []
    var linesSent = 0
    var bytesSent = 0
    var bytesLeftOut = 0
    var closed = false

    init(purpose: String, output: @escaping CommandQueue.Output, holding: Bool) {
        self.purpose = purpose
        self.output = output
        self.holding = holding
    }

    /// Logs the lines held back.
    mutating func release() {
        for line in held { output(line, .info) }
        held = []
    }

    /// Reads what is there now (the descriptor is non-blocking).
    mutating func read(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                take(buffer[0..<count])
            } else {
                if count == 0 { closed = true }
                if count == 0 || errno != EINTR { return }
            }
        }
    }

    /// Reads to the end, waiting at most `milliseconds` for it, then says what was left out.
    mutating func drain(_ descriptor: Int32, milliseconds: Int32) {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while !closed, poll(&entry, 1, milliseconds) > 0 { read(descriptor) }
        if !pending.isEmpty { send(pending[...], newline: false) }
        pending = []
        if bytesLeftOut > 0 {
            emit("\(purpose): \(bytesLeftOut) more bytes of output not logged (at most \(CommandQueue.outputLineLimit) lines or \(CommandQueue.outputByteLimit / 1024) KiB of a run are)")
        }
    }

    private mutating func take(_ bytes: ArraySlice<UInt8>) {
        pending.append(contentsOf: bytes)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            send(pending[..<newline], newline: true)
            pending.removeSubrange(...newline)
        }
        if pending.count > 4096 {  // a line without end: logged in pieces
            send(pending[...], newline: false)
            pending = []
        }
    }

    private mutating func send(_ line: ArraySlice<UInt8>, newline: Bool) {
        guard linesSent < CommandQueue.outputLineLimit, bytesSent + line.count <= CommandQueue.outputByteLimit else {
            bytesLeftOut += line.count + (newline ? 1 : 0)
            return
        }
        linesSent += 1
        bytesSent += line.count
        emit(String(decoding: line, as: UTF8.self))
    }

    private mutating func emit(_ line: String) {
        if holding { held.append(line) } else { output(line, .info) }
    }
}
