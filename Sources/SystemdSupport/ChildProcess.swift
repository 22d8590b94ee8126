import CSystemd
import Glibc

/// Runs a program without a shell, in its own process group, and waits for it on a thread of its own with a
/// time limit (a pidfd: no polling, and no risk of signalling a reused pid).
public enum ChildProcess {
    /// How a run ended.
    public enum Outcome: Hashable, Sendable {
        case exited(Int32)
        case signalled(Int32)
        /// Still running at the time limit: its process group was killed.
        case killedAtTimeLimit
        /// It could not be started (errno's text).
        case notStarted(String)
    }

    /// Starts `arguments[0]` with `arguments` and `environment`, stdout and stderr on `output` (stdin: /dev/null),
    /// and calls `finished` from a background thread once it ended. Returns at once.
    public static func run(
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
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { return finished(.notStarted(String(cString: strerror(result)))) }
        let child = pid
        let pidfd = pidfd_open(child, 0)
        do {
            try DetachedThread.start { wait(pid: child, pidfd: pidfd, timeLimitMilliseconds: timeLimitMilliseconds, finished: finished) }
        } catch {
            wait(pid: pid, pidfd: pidfd, timeLimitMilliseconds: 0, finished: finished)  // no thread to wait on: stop it now
        }
    }

    private static func wait(pid: pid_t, pidfd: Int32, timeLimitMilliseconds: Int32, finished: @Sendable (Outcome) -> Void) {
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
        if timedOut { return finished(.killedAtTimeLimit) }
        let signal = status & 0x7f
        finished(signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal))
    }
}
