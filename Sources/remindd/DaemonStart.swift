import CSystemd
import Foundation
import Logging
import ReminderCore
import ReminderDaemon
import ReminderStore
import ServiceLifecycle
import SystemdSupport
import TimeZoneDatabase
import Translation

/// What a start of the daemon is given: the paths `remindd`'s options may set (nil: the default). The unit starts
/// remindd without options, and `main.swift` then makes this without argument-parser, whose parse (its check for
/// `--generate-completion-script` most of it) was about a twentieth of a start's CPU.
struct DaemonStart: Sendable {
    var stateDir: String?
    var config: String?
    var socket: String?
    var dataDir: String?
}

extension DaemonStart {
    /// `--check-config`: prints `FILE: OK`, or throws the one-line reason (exit status 1).
    func printConfigurationCheck() throws {
        let environment = ProcessInfo.processInfo.environment
        let paths = RemindPaths(environment: environment, uid: getuid())
        _ = try loadCheckedConfiguration(zones: TimeZoneDatabase.system(environment: environment), paths: paths)
        print("\(config ?? paths.configFile): OK")
    }

    /// `--prepare-state`: prints where the state lives, and what was moved there.
    func printStatePreparation() throws {
        let paths = RemindPaths(environment: ProcessInfo.processInfo.environment, uid: getuid())
        if let moved = try prepareStateDirectory(paths) { print(moved) }
        print("state directory: \(stateDir ?? paths.stateDirectory)")
        // A config the daemon refuses is reported by the daemon itself: here it only names no folder to make.
        if let settings = try? Remindd.loadConfiguration(config ?? paths.configFile, required: false), let folder = Remindd.makeCollectionFolder(settings) {
            print("collection: \(folder)")
        }
    }

    /// Makes the state directory (0700) and, for the default one, moves a database left at the legacy location.
    /// - Returns: what was moved, as a sentence, or nil.
    func prepareStateDirectory(_ paths: RemindPaths) throws -> String? {
        let directory = stateDir ?? paths.stateDirectory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure("cannot create the state directory \(directory): \(error.localizedDescription)")
        }
        guard stateDir == nil else { return nil }
        do {
            guard try ReminderStore.adoptLegacy(from: paths.legacyDatabase, to: paths.database) else { return nil }
        } catch {
            throw Failure(error.description)
        }
        return "Moved the database from \(paths.legacyDatabase) (where older versions of the unit kept it) to \(paths.database)"
    }

    /// The config file in force at start-up and reload: parsed and checked (its zone exists), or one message.
    func loadCheckedConfiguration(zones: TimeZoneDatabase, paths: RemindPaths) throws -> DaemonConfiguration {
        let path = config ?? paths.configFile
        let settings = try Remindd.loadConfiguration(path, required: config != nil)
        do { try Daemon.check(settings, zones: zones) } catch { throw Failure("\(path): \(error)") }
        return settings
    }

    /// Runs the daemon until SIGTERM or SIGINT.
    func serve(words: GettextCatalog) async throws {
        let environment = ProcessInfo.processInfo.environment
        let zones = TimeZoneDatabase.system(environment: environment)
        let (journal, stopDeadline) = (Journal(identifier: "remindd"), StopDeadline())
        let monitor = try Remindd.clockMonitor(zones: zones, journal: journal, stopDeadline: stopDeadline)
        umask(0o077)
        let paths = RemindPaths(environment: environment, uid: getuid())
        // The collection's folder is not made here: one missing is a disk not mounted yet or a folder moved, which
        // the collection holds back until it is there (only --prepare-state makes it).
        let settings = try loadCheckedConfiguration(zones: zones, paths: paths)
        let journalAnnouncer = JournalAnnouncer(journal: journal, logLevel: settings.logLevel, words: words)
        defer { journalAnnouncer.flush() }  // what was said before an exit, a failed start's reason too
        let report: @Sendable (DaemonMessage) -> Void = { journalAnnouncer.announce(.daemon($0)) }
        if let refusal = words.refusal { report(DaemonMessage(.warning, refusal)) }
        let clock = SystemClock(monitor: monitor, zones: zones)
        let commands = Remindd.commandQueue(environment: environment, journal: journal)
        let channels = Channels(
            settings, journal: journalAnnouncer, clock: clock, commands: commands, words: words, environment: environment, report: report)
        let notifier = Notifier()
        let databasePath = (stateDir.map { $0 + "/remindd.sqlite" }) ?? paths.database
        let store = try openStore(databasePath, paths: paths, report: report)
        let dataDirectory = dataDir ?? Remindd.defaultDataDirectory()
        let daemon = Daemon(DaemonPorts(
            clock: clock, announcers: channels.all, status: notifier, store: store, zones: zones,
            configuration: settings, exercises: try Remindd.loadExercises(dataDirectory),
            routineDirectories: [dataDirectory + "/routines", (paths.configFile as NSString).deletingLastPathComponent + "/routines"],
            journalAvailable: { journal.isJournalAvailable }, ledger: JournalLedger(journal: journal), home: paths.home, commands: commands))
        channels.desktop.showAgain(from: { await daemon.stillDue() })
        do { try await daemon.startReminders() } catch { throw Failure(error.description) }
        store.releaseMemory()
        malloc_trim(0)  // loading decoded every row once: hand that garbage back to the system

        let server = try Remindd.server(of: daemon, at: socket ?? settings.socket ?? paths.socket, journalAnnouncer: journalAnnouncer)
        let folderWatcher: FolderWatcher
        do { folderWatcher = try FolderWatcher() } catch { throw Failure("cannot watch the calendars' folders: \(error)") }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: daemon.services(DaemonServiceParts(
                clockEvents: monitor.events, notifier: notifier, folderWatcher: folderWatcher, stopCommands: commands.stopAll,
                desktop: (channels.desktop, DesktopChannel.busSocket(environment: environment)),
                serve: { onBound in try await server.run(onBound: onBound) },
                reload: { await reload(daemon, zones: zones, paths: paths, channels: channels, notifier: notifier) },
                onReady: {
                    let status = await daemon.statusLine()
                    notifier.ready(status: status)
                    report(DaemonMessage(.info, "remindd started: \(status); store \(databasePath)"))
                },
                report: report)),
            logger: Logger(label: "remindd") { _ in JournalLogHandler(announcer: journalAnnouncer) }))
        try await Remindd.run(group, notifier: notifier) {
            monitor.stop()
            daemon.finishWatchers()
            journalAnnouncer.flush()  // the last entries sent and their firings confirmed, before the store closes
            do { try store.close() } catch { throw Failure("\(error)") }
            stopDeadline.finished()
            report(DaemonMessage(.info, "remindd stopped"))
        }
    }

    /// The store at `path`, its state folder made (and a database an older unit kept elsewhere moved there, said).
    func openStore(_ path: String, paths: RemindPaths, report: @Sendable (DaemonMessage) -> Void) throws -> ReminderStore {
        let moved = try prepareStateDirectory(paths)
        let store: ReminderStore
        do { store = try ReminderStore(path: path) } catch { throw Failure(error.description) }
        if let moved { report(DaemonMessage(.notice, moved)) }
        return store
    }

    /// SIGHUP: RELOADING=1, re-read and check the config and re-plan, READY=1. All or nothing: a file that
    /// start-up would refuse keeps the running configuration and schedule.
    func reload(_ daemon: Daemon, zones: TimeZoneDatabase, paths: RemindPaths, channels: Channels, notifier: Notifier) async {
        notifier.reloading()
        let path = config ?? paths.configFile
        let announcer = channels.journal
        do {
            let reloaded = try loadCheckedConfiguration(zones: zones, paths: paths)
            try await daemon.reload(reloaded)
            channels.apply(reloaded)
            announcer.announce(.daemon(DaemonMessage(.info, "Configuration reloaded from \(path)")))
        } catch {
            announcer.announce(.daemon(DaemonMessage(.error, "Reload failed, keeping the previous configuration: \(error)")))
        }
        notifier.ready(status: await daemon.statusLine())
    }
}
