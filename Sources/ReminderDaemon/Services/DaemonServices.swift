import CSystemd
import Glibc
import NIOCore
import NIOPosix
import ReminderStore
import ServiceLifecycle
import SystemdSupport

// The daemon's long-running parts as services of one `ServiceGroup`, declared here and listed by
// ``Daemon/services(_:)``: started together, stopped in the reverse of their order, each ending on the group's
// graceful shutdown. The group traps no signal itself (its handling goes through a Dispatch source, whose
// thread pool would wake the idle daemon): the clock monitor, which already receives SIGTERM, ends
// ``ClockEventsService``, and that stops the group.

/// Waits until the group stops: a graceful shutdown, or a cancellation (a service failed), a stop as well.
func untilShutdown() async {
    do {
        try await gracefulShutdown()
    } catch {
        // CancellationError, the only error it throws: the group is being cancelled, which is a stop too.
    }
}

/// Hands the clock's events to the scheduler and SIGHUP to the reloads; ends at SIGTERM or SIGINT, which
/// stops the group (it is configured to).
struct ClockEventsService: Service {
    let events: AsyncStream<SystemClockMonitor.Event>
    let daemon: Daemon
    let requestReload: AsyncStream<Void>.Continuation
    let notifier: Notifier

    func run() async {
        await cancelWhenGracefulShutdown {
            for await event in events {
                switch event {
                case .deadlineReached: await daemon.handle(.deadlineReached)
                case .clockChanged: await daemon.handle(.clockChanged)
                case .timeZoneChanged: await daemon.handle(.timeZoneChanged)
                case .timeZoneDataChanged: await daemon.handle(.timeZoneDataChanged)
                case .signal(SIGHUP): requestReload.yield()
                case .signal:
                    notifier.stopping(status: "Stopping")
                    return
                }
            }
        }
    }
}

/// Reloads the configuration, one at a time (a SIGHUP during a reload asks for one more), in a service of its
/// own: the clock's events go on being handled meanwhile, so a firing during a reload of 100,000 reminders is
/// on time.
struct ReloadService: Service {
    let requests: AsyncStream<Void>
    let reload: @Sendable () async -> Void

    func run() async {
        await cancelWhenGracefulShutdown {
            for await _ in requests { await reload() }
        }
    }
}

/// The control socket: serves Varlink until the group stops.
struct ControlSocketService: Service {
    let serve: DaemonServiceParts.Serve
    let onBound: @Sendable () async -> Void

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await serve(onBound) }
        } catch is CancellationError {
            // Cancelled by the graceful shutdown, as asked: a normal end. (A socket that cannot be bound throws.)
        }
    }
}

/// Counts years of habit history once the daemon is READY (begun before, it held up the bind by 100 ms with 10
/// years): the socket answers meanwhile, and a habit call that comes first counts them itself. Then waits for
/// the stop (the group takes a service that ends while another is being stopped for a failure).
struct HabitWarmUpService: Service {
    /// Ends once the socket is bound and READY=1 sent.
    let ready: AsyncStream<Never>
    let daemon: Daemon

    func run() async {
        await cancelWhenGracefulShutdown {
            for await _ in ready {}
            guard !Task.isCancelled else { return }
            await daemon.startHabits()
            malloc_trim(0)  // the history was read once: hand that garbage back
        }
        await untilShutdown()
    }
}

/// The change feed's bell: after each commit that changed a followed row, whoever wrote it (a call, a firing,
/// another device's item, an import), the features are handed what changed; a writer that delivered itself
/// leaves nothing. Nothing is committed while idle: no wake-up.
struct ChangeFeedService: Service {
    let daemon: Daemon

    func run() async {
        let (bells, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        daemon.onStoreCommit { ring.yield() }
        await cancelWhenGracefulShutdown {
            for await _ in bells { await daemon.deliverChanges() }
        }
        daemon.onStoreCommit {}
    }
}

/// The read-only calendars and the linked collection: watches their folders, reads them once, then applies each change the watcher
/// reports (a reload changes the folders watched; see `Remindd.reload`).
struct FolderWatchService: Service {
    let watcher: FolderWatcher
    let daemon: Daemon
    let report: @Sendable (DaemonMessage) -> Void

    func run() async {
        await cancelWhenGracefulShutdown {
            watchFolders(watcher, daemon.watchedFolders, report: report)
            await daemon.scanFolders(publishing: false)
            malloc_trim(0)  // reading the calendars parsed every item once: hand that garbage back
            // The collection's publisher beside the changes: another device's dose written during the first
            // publish (or any publish of everything) is read at once.
            await withDiscardingTaskGroup { group in
                group.addTask { await daemon.publishCollectionWhenAsked() }
                for await change in watcher.changes { await daemon.folderChanged(change.folder, names: change.names) }
                group.cancelAll()
            }
        }
        watcher.stop()
    }
}

/// Watches `folders`, saying which cannot be watched.
func watchFolders(_ watcher: FolderWatcher, _ folders: [String], report: @Sendable (DaemonMessage) -> Void) {
    for (folder, problem) in watcher.watch(folders) {
        report(DaemonMessage(.warning, "Calendar folder \(folder) is not watched (\(problem)): changes in it are read at the next reload ('systemctl --user reload remindd')"))
    }
}

/// Desktop notifications: connects when asked and carries out the actions chosen, until the group stops; watches
/// the session bus's socket file (inotify: no wake-ups while nothing changes), so that a bus that comes back is
/// connected to at once and what is due shown again.
struct DesktopService: Service {
    let channel: DesktopChannel
    let perform: DesktopChannel.Perform
    /// The bus's socket (``DesktopChannel/busSocket(environment:)``); nil: none to watch.
    let busSocket: (folder: String, name: String)?
    let report: @Sendable (DaemonMessage) -> Void

    func run() async {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await channel.run(perform: perform) }
                guard let busSocket else { return }
                let watcher: FolderWatcher
                do { watcher = try FolderWatcher() } catch {
                    return report(DaemonMessage(.notice, "The session bus's socket is not watched (\(error)): a restarted bus is connected to at the next announcement"))
                }
                if let problem = watcher.watch([busSocket.folder]).first?.problem {
                    report(DaemonMessage(.notice, "The session bus's folder \(busSocket.folder) is not watched (\(problem)): a restarted bus is connected to at the next announcement"))
                }
                group.addTask {
                    // Ends when the group is cancelled (the stream's iteration is).
                    for await change in watcher.changes where change.names?.contains(busSocket.name) ?? true { channel.busAppeared() }
                    watcher.stop()
                }
            }
        }
    }
}

/// Kills the commands (hooks) still running when the group stops (after the scheduler, so that none starts
/// afterwards).
struct CommandRunnerService: Service {
    let stopAll: @Sendable () -> Void

    func run() async {
        await untilShutdown()
        stopAll()
    }
}

/// Pings systemd's watchdog (when the unit asks for one) until the group stops. The pings run on an event
/// loop's own timer: Task.sleep would go through libdispatch, whose new worker threads try to change their
/// priority, which the unit's sandbox refuses, and say so in the journal at every ping.
struct WatchdogService: Service {
    let notifier: Notifier

    func run() async {
        guard let interval = notifier.watchdogInterval else { return await untilShutdown() }
        let pings = MultiThreadedEventLoopGroup.singleton.next().scheduleRepeatedTask(
            initialDelay: .zero, delay: .nanoseconds(Int64(interval / .nanoseconds(1)))
        ) { _ in notifier.watchdog() }
        await untilShutdown()
        pings.cancel()
    }
}

