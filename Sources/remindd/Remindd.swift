import ArgumentParser
import CSystemd
import FitnessCore
import Foundation
import Logging
import NIOCore
import NIOPosix
import ReminderCore
import ReminderDaemon
import ReminderInterface
import ReminderStore
import ServiceLifecycle
import Synchronization
import SystemdSupport
import TimeZoneDatabase
import Translation
import VarlinkProtocol
import VarlinkServer

/// `remindd`: the reminder daemon. Parses arguments, wires the adapters to the service, runs until SIGTERM.
/// `main.swift` prepares the process and calls ``main()``.
struct Remindd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remindd",
        abstract: "The reminder daemon: fires reminders into the systemd journal.",
        discussion: """
            Runs in the foreground (as a systemd Type=notify service, or in a terminal). State lives in \
            $XDG_STATE_HOME/remindd/remindd.sqlite (default ~/.local/state/remindd), the optional config in \
            $XDG_CONFIG_HOME/remindd/config.toml, the control socket at $XDG_RUNTIME_DIR/remindd/control.sock \
            unless systemd passes one (socket activation).

            Examples:
              remindd                                  # defaults, as the user service runs it
              remindd --state-dir ./.state             # a private state dir, e.g. for trying it out
              journalctl --user -t remindd -f          # watch what it announces
            """,
        version: "remindd \(RemindVersion.current)"
    )

    @Option(help: ArgumentHelp("Directory for the database (default: $XDG_STATE_HOME/remindd).", valueName: "dir"))
    var stateDir: String?

    @Option(help: ArgumentHelp("Config file (default: $XDG_CONFIG_HOME/remindd/config.toml; a missing file means defaults).", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Control socket path (overrides the config and the default).", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("Directory of the shipped data files (default: ../share/remindd next to the binary).", valueName: "dir"))
    var dataDir: String?

    @Flag(help: "Check the config file as start-up and reload do, print what is wrong, and exit (1 when refused). The unit's ExecReload runs it first, so that 'systemctl --user reload remindd' fails on a bad file.")
    var checkConfig = false

    @Flag(help: "Create the state directory and move a database that an older unit left in ~/.config/remindd into it, then exit. The unit runs it before its sandbox makes ~/.config read-only.")
    var prepareState = false

    /// The signals the daemon handles: stop (SIGTERM, SIGINT) and reload (SIGHUP).
    static let handledSignals = [SIGTERM, SIGINT, SIGHUP]

    /// Runs before anything else: runs Swift concurrency on NIO's event loops instead of libdispatch's
    /// thread pool, whose workqueue monitor would otherwise wake the process every second for as long as it
    /// lives (an idle daemon must make no wake-ups).
    /// Returns the language announcements are made in: the environment's (LANG, LC_MESSAGES), set here because
    /// setting a locale is not safe once threads run.
    static func prepareProcess() -> GettextCatalog {
        // One malloc arena: the start-up work spread over threads would otherwise leave half-used arenas
        // behind (before the scheduler stored its states densely, 100,000 reminders took 123 MB resident
        // with glibc's default arenas and 89 MB with one).
        mallopt(M_ARENA_MAX, 1)
        // The soft open-file limit of 1,024 exists for select(); NIO uses epoll, so take the hard limit
        // (systemd's default is 524,288) and leave the connection cap, not descriptors, to bound clients.
        var files = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
            files.rlim_cur = files.rlim_max
            setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &files)
        }
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        // libdispatch (under GRDB's queues) gives each new worker thread the nice value of its queue's QoS and
        // logs "Failed to set thread priority for worker thread" each time that is refused, as it is for a
        // worker started from a background thread at nice 10 (a raise needs CAP_SYS_NICE). The worker then
        // keeps its creator's priority, which is what remindd wants; the log only filled the journal.
        setenv("LIBDISPATCH_LOG", "NO", 0)
        return GettextCatalog.start(executable: GettextCatalog.runningExecutable())
    }

    /// The paths the options set, for the start (``DaemonStart``).
    var start: DaemonStart { DaemonStart(stateDir: stateDir, config: config, socket: socket, dataDir: dataDir) }

    /// What `AsyncParsableCommand` asks for; `main.swift` calls ``DaemonStart/serve(words:)`` after ``prepareProcess()``.
    func run() async throws {
        try await start.serve(words: Self.prepareProcess())
    }

    /// Makes the linked collection's folder (0700) when the config names one that does not exist yet: the unit's
    /// sandbox lets the daemon write in it, not create it. A folder made empty where a disk is not mounted yet is
    /// safe: the daemon does not take an emptied folder for deletions (``CollectionPresence``).
    /// - Returns: the folder, or nil for none.
    static func makeCollectionFolder(_ settings: DaemonConfiguration) -> String? {
        let home = RemindPaths(environment: ProcessInfo.processInfo.environment, uid: getuid()).home
        guard let folder = settings.collectionFolder(home: home) else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return nil  // the daemon says it cannot read the folder
        }
        return folder
    }

    /// The daemon's Varlink server on `socketPath`.
    static func server(of daemon: Daemon, at socketPath: String, journalAnnouncer: JournalAnnouncer) throws -> VarlinkServer {
        VarlinkServer(
            endpoint: try endpoint(socketPath),
            info: VarlinkServiceInfo(vendor: "remindd", product: "remindd", version: RemindVersion.current, url: "https://github.com/remindd/remindd"),
            interfaces: Catalogue.descriptions, protocolErrorInterface: Catalogue.protocolErrorInterface,
            handler: daemon.router, onRefusedForDescriptors: descriptorShortageWarning(journalAnnouncer))
    }

    /// Runs the service group until it stops, then `afterwards` (the group failed: "Stopping", and its error).
    static func run(_ group: ServiceGroup, notifier: Notifier, afterwards: () throws -> Void) async throws {
        do {
            try await group.run()
        } catch {
            notifier.stopping(status: "Stopping")
            throw Failure("\(error)")
        }
        try afterwards()
    }

    /// The clock's and the zone data's events and the signals; at SIGTERM or SIGINT it arms the stop deadline (a
    /// stop is honoured within 2 s whatever is running: the service manager waits 90 s, then kills).
    static func clockMonitor(zones: TimeZoneDatabase, journal: Journal, stopDeadline: StopDeadline) throws -> SystemClockMonitor {
        do {
            return try SystemClockMonitor(zoneDataDirectory: zones.directory, signals: Self.handledSignals) { signal in
                guard signal == SIGTERM || signal == SIGINT else { return }
                stopDeadline.arm(seconds: 1.5) {
                    journal.send(
                        "Stopping took more than 2 s (work in progress did not end): exiting now; firings not confirmed as announced are looked up at the next start",
                        priority: .warning)
                }
            }
        } catch {
            throw Failure("cannot watch the clock: \(error)")
        }
    }

    /// Runs the hooks and sounds: under a user manager, as its transient units (outside the sandbox); else as
    /// children. Their output goes to the journal as `remindd-hook`.
    static func commandQueue(environment: [String: String], journal: Journal) -> CommandQueue {
        let local = ChildProcessLauncher()
        let hookOutput = journal.named("remindd-hook")
        return CommandQueue(
            launcher: TransientUnitLauncher.forUserManager(environment: environment) ?? local, fallback: local,
            output: { line, priority in hookOutput.send(line, priority: priority) })
    }

    /// The warning for connections refused at the open-file limit: at most one a minute, with the count since
    /// the last one (a flood of clients must not flood the journal).
    static func descriptorShortageWarning(_ announcer: JournalAnnouncer) -> @Sendable (Int) -> Void {
        let pending = Mutex<(refused: Int, lastWarning: ContinuousClock.Instant?)>((0, nil))
        return { count in
            let due: Int? = pending.withLock { state in
                state.refused += count
                let now = ContinuousClock.now
                if let last = state.lastWarning, now - last < .seconds(60) { return nil }
                defer { state = (0, now) }
                return state.refused
            }
            guard let due else { return }
            var files = rlimit()
            getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &files)
            announcer.announce(.daemon(DaemonMessage(.warning,
                "Refused \(due) connection\(due == 1 ? "" : "s"): out of file descriptors (limit \(files.rlim_cur)); close idle 'remindctl watch' sessions or raise LimitNOFILE= in the unit")))
        }
    }

    /// `../share/remindd` next to the executable (`~/.local/bin` -> `~/.local/share/remindd`, `/usr/bin` ->
    /// `/usr/share/remindd`), or the checkout's `share/remindd` for a binary run from its build folder (`make run`).
    /// The executable is the kernel's `/proc/self/exe` (`argv[0]` is only `remindd` when a shell found it in PATH;
    /// it is the fallback where /proc is not mounted).
    static func defaultDataDirectory() -> String {
        let executable = URL(fileURLWithPath: GettextCatalog.runningExecutable()).resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/remindd").path
        if FileManager.default.fileExists(atPath: installed + "/exercises.csv") { return installed }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/remindd").path
    }

    /// The exercise library: its data file must be there and well-formed, or the daemon does not start.
    static func loadExercises(_ directory: String) throws -> ExerciseLibrary {
        let path = directory + "/exercises.csv"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure("cannot read the exercise library \(path): reinstall with 'make install-user', or point --data-dir at share/remindd")
        }
        do {
            return try ExerciseLibrary(csv: String(decoding: data, as: UTF8.self), file: path)
        } catch {
            throw Failure(error.description)
        }
    }

    /// The config file, or defaults when it does not exist (and was not named explicitly).
    static func loadConfiguration(_ path: String, required: Bool) throws -> DaemonConfiguration {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw Failure("\(path) is a directory, not a config file: remove it, or put the settings in a file there")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            if required { throw Failure("cannot read config file \(path)") }
            return DaemonConfiguration()
        }
        do {
            return try DaemonConfiguration.parse(String(decoding: data, as: UTF8.self), file: path)
        } catch {
            throw Failure(error.description)
        }
    }

    /// The socket systemd passed, or a path to bind (its directory created with mode 0700).
    static func endpoint(_ path: String) throws -> VarlinkServer.Endpoint {
        if let descriptor = SocketActivation.listeningDescriptors().first { return .descriptor(descriptor) }
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure("cannot create the socket directory \(directory): \(error.localizedDescription)")
        }
        try Self.checkPrivate(directory)
        try Self.checkNotServed(path)
        return .path(path)
    }

    /// A socket file that accepts connections belongs to a daemon that runs: binding over it would take its
    /// place (and leave a dead file at exit). Only a socket nobody listens on is replaced.
    static func checkNotServed(_ path: String) throws {
        do {
            _ = try VarlinkConnection(path: path, timeoutSeconds: 2)
        } catch .notAccepting, .timedOut, .foreignPeer {
            // Someone listens (busy, or another user's process): not ours to replace either way.
        } catch {
            return  // nobody listens: a stale file, replaced at bind
        }
        throw Failure("another remindd is already listening on \(path): use that one (remindctl talks to it), or stop it first (systemctl --user stop remindd)")
    }

    /// The socket's directory must be the user's own real directory with no access for others: in a shared
    /// directory such as /tmp another user could have created it first and swap the socket.
    static func checkPrivate(_ directory: String) throws {
        var info = stat()
        guard lstat(directory, &info) == 0 else { throw Failure("cannot check the socket directory \(directory): \(String(cString: strerror(errno)))") }
        let fix = "remove it, or set XDG_RUNTIME_DIR (a systemd session sets it), or give --socket in a directory of yours"
        guard info.st_mode & S_IFMT == S_IFDIR else { throw Failure("the socket directory \(directory) is not a directory (a link?): \(fix)") }
        guard info.st_uid == getuid() else {
            throw Failure("the socket directory \(directory) belongs to another user (uid \(info.st_uid)): \(fix)")
        }
        if info.st_mode & 0o077 != 0 {
            guard chmod(directory, 0o700) == 0 else { throw Failure("cannot make the socket directory \(directory) private (mode 0700): \(fix)") }
        }
    }
}

/// A start-up failure: printed as one line, exit status 1.
struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Where announcements go, beyond Watch: the journal (the record of everything), command hooks, and desktop
/// notifications when the config asks for them and there is a session bus.
struct Channels: Sendable {
    let journal: JournalAnnouncer
    let hooks: CommandHookAnnouncer
    let sound: SoundAnnouncer
    let desktop: DesktopChannel

    var all: [any Announcer] { [journal, hooks, sound, desktop] }

    /// The channels as `settings` has them: the journal's, the hooks', the sound (and speech) and the desktop's.
    init(
        _ settings: DaemonConfiguration, journal: JournalAnnouncer, clock: SystemClock, commands: CommandQueue, words: GettextCatalog,
        environment: [String: String], report: @escaping @Sendable (DaemonMessage) -> Void
    ) {
        self.journal = journal
        hooks = CommandHookAnnouncer(onFire: settings.onFire, onMissed: settings.onMissed, commands: commands, report: report)
        sound = SoundAnnouncer(
            player: SoundPlayer.find(environment: environment), speaker: Speaker.find(environment: environment, language: words.language),
            defaults: settings.sounds, words: words, commands: commands, report: report)
        desktop = DesktopChannel(
            enabled: settings.desktopNotifications, clock: clock, connect: { try await DesktopNotifications.connect(applicationName: "remindd") },
            playsSounds: sound.playsSounds, words: words, report: report)
    }

    /// Applies a reloaded configuration's `log-level`, `on-fire`, `on-missed`, the sounds and `notifications`.
    func apply(_ configuration: DaemonConfiguration) {
        journal.setLogLevel(configuration.logLevel)
        hooks.setOnFire(configuration.onFire)
        hooks.setOnMissed(configuration.onMissed)
        sound.setDefaults(configuration.sounds)
        desktop.setEnabled(configuration.desktopNotifications)
    }
}
