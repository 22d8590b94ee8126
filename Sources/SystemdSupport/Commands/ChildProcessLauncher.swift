import CSystemd
import Glibc

/// Starts commands as children of the daemon, without a shell, each in a process group of its own (what it
/// starts is killed with it, and with whatever it leaves behind once it exits), waited for through a pidfd (no
/// polling, no signal to a reused pid). Killed while it runs (its time limit, the daemon's stop), its
/// descendants in sessions of their own (`setsid`) go too; and when it ends, whatever it left running in a
/// session of its own, found by the mark each command's environment carries (``ProcessTree/marked(_:)``: an
/// orphan's parent is no longer the command). Used where no user service manager runs remindd (under one, a
/// command is a transient unit, and its cgroup holds everything it started).
public struct ChildProcessLauncher: CommandLauncher {
    public init() {}

    public func launch(_ command: UserCommand, output: Int32) throws(LaunchFailure) -> any LaunchedCommand {
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
        // Its own process group (killed as one), default signal handling, nothing blocked.
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = command.arguments.map { strdup($0) } + [nil]
        let mark = ProcessTree.markName + "=" + String(UInt64.random(in: .min ... .max), radix: 16)
        let envp = (Self.inheritedEnvironment() + command.environment + [mark]).map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let result = posix_spawn(&pid, command.arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw LaunchFailure(String(cString: strerror(result))) }
        let pidfd = pidfd_open(pid, 0)
        guard pidfd >= 0 else {
            let reason = String(cString: strerror(errno))
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            throw LaunchFailure("pidfd_open: \(reason) (Linux 5.3 or later is needed)")
        }
        return Child(pid: pid, pidfd: pidfd, mark: mark)
    }

    /// The daemon's own environment (PATH, DISPLAY, DBUS_SESSION_BUS_ADDRESS...) without old REMINDER_ values.
    private static func inheritedEnvironment() -> [String] {
        var result: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if !text.hasPrefix("REMINDER_"), !text.hasPrefix(ProcessTree.markName + "=") { result.append(text) }
            entry += 1
        }
        return result
    }

    /// A running child: its pid (not reaped until ``finish(timedOut:)``, so signalling its group never reaches
    /// a stranger), a pidfd readable once it exited, and the mark in its environment.
    private struct Child: LaunchedCommand {
        let pid: pid_t
        let pidfd: Int32
        let mark: String

        var descriptor: pollfd { pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0) }

        /// Whether it exited (the pidfd is readable).
        mutating func process() -> Bool {
            var entry = descriptor
            return poll(&entry, 1, 0) > 0
        }

        /// Killed while it runs: what it started is still its descendants (their parent lives), sessions too.
        var kill: @Sendable () -> Void {
            let pid = pid
            return { ProcessTree.killAll(from: pid) }
        }

        consuming func finish() -> CommandOutcome {
            Glibc.kill(-pid, SIGKILL)  // what it started and left running in its group
            close(pidfd)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let signal = status & 0x7f
            // Ended by itself: what it left in a session of its own is no longer its descendant, found by the mark.
            // (Killed, its tree went with it: the stop's report is not held up by a look at every process.)
            if signal == 0 { ProcessTree.killMarked(mark) }
            return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        }
    }
}
