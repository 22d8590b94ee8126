import CSystemd
import Glibc
import Synchronization

/// Runs programs without a shell, each in its own process group, and waits for each on a thread of its own with
/// a time limit (a pidfd: no polling, and no risk of signalling a reused pid). ``stopAll()`` ends the ones
/// still running.
public final class ChildProcesses: Sendable {
    /// How a run ended.
    public enum Outcome: Hashable, Sendable {
        case exited(Int32)
        case signalled(Int32)
        /// Still running at the time limit: its process group was killed.
        case killedAtTimeLimit
        /// It could not be started (errno's text).
        case notStarted(String)
        /// Still running when the daemon stopped: its process group was killed (``stopAll()``).
        case stoppedWithTheDaemon
    }

    /// The children not reaped yet (each leads its process group), and whether ``stopAll()`` killed them. A pid
    /// leaves only once reaped, so signalling its group never reaches a stranger's reused pid.
    private let running = Mutex<[pid_t: Bool]>([:])

    public init() {}

    /// Kills every child still running, with its process group: the daemon is stopping, and leaves nothing
    /// behind (outside a systemd unit no cgroup does that for it).
    public func stopAll() {
        running.withLock { children in
            for pid in children.keys {
                children[pid] = true
                kill(-pid, SIGKILL)
            }
        }
    }

    /// Starts `arguments[0]` with `arguments` and `environment`, stdout and stderr on `output` (stdin: /dev/null),
    /// and calls `finished` from a background thread once it ended. Returns at once.
    public func run(
        _ arguments: [String], environment: [String], output: Int32, timeLimitMilliseconds: Int32,
        finished: @escaping @Sendable (Outcome) -> Void
    ) {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        // Its own process group (killed as one at the time limit), default signal handling, nothing blocked.
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let result = running.withLock { children in
            let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
            if result == 0 { children[pid] = false }
            return result
        }
        guard result == 0 else { return finished(.notStarted(String(cString: strerror(result)))) }
        let child = pid
        let pidfd = pidfd_open(child, 0)
        do {
            try DetachedThread.start { self.wait(pid: child, pidfd: pidfd, timeLimitMilliseconds: timeLimitMilliseconds, finished: finished) }
        } catch {
            wait(pid: pid, pidfd: pidfd, timeLimitMilliseconds: 0, finished: finished)  // no thread to wait on: stop it now
        }
    }

    private func wait(pid: pid_t, pidfd: Int32, timeLimitMilliseconds: Int32, finished: @Sendable (Outcome) -> Void) {
        var timedOut = false
        if pidfd >= 0 {
            var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            var ready: Int32
            repeat { ready = poll(&entry, 1, timeLimitMilliseconds) } while ready < 0 && errno == EINTR
            if ready == 0 {
                timedOut = true
                _ = pidfd_send_signal(pidfd, SIGKILL, nil, 0)
                kill(-pid, SIGKILL)  // the children it started, in its group
            }
            close(pidfd)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let stopped = running.withLock { $0.removeValue(forKey: pid) } ?? false
        if stopped { return finished(.stoppedWithTheDaemon) }
        if timedOut { return finished(.killedAtTimeLimit) }
        let signal = status & 0x7f
        finished(signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal))
    }
}
