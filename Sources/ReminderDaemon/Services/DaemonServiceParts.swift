import ServiceLifecycle
import SystemdSupport

/// What the daemon's services are made of: the adapters the executable makes of the system (the clock monitor,
/// the service manager's notifier, the control socket, the folders' watcher, the command queue, the desktop),
/// or a test makes of its own. ``Daemon/services(_:)`` builds the services from them: one composition root.
public struct DaemonServiceParts: Sendable {
    /// Serves the control socket until cancelled, calling `onBound` once it listens.
    public typealias Serve = @Sendable (_ onBound: @escaping @Sendable () async -> Void) async throws -> Void

    /// The clock's events and the signals (SIGHUP: reload; SIGTERM or SIGINT: stop, and the group with it).
    public var clockEvents: AsyncStream<SystemClockMonitor.Event>
    public var notifier: Notifier
    /// Watches the calendars' folders and the linked collection's.
    public var folderWatcher: FolderWatcher
    /// Kills the commands still running, once the scheduler stopped.
    public var stopCommands: @Sendable () -> Void
    /// The desktop's notifications and the session bus's socket to watch; nil: none (a test).
    public var desktop: (channel: DesktopChannel, busSocket: (folder: String, name: String)?)?
    public var serve: Serve
    /// A reload's work (SIGHUP): the executable reads its config file again and applies it.
    public var reload: @Sendable () async -> Void
    /// Once the socket listens: READY=1 and the start's line.
    public var onReady: @Sendable () async -> Void
    public var report: @Sendable (DaemonMessage) -> Void

    public init(
        clockEvents: AsyncStream<SystemClockMonitor.Event>, notifier: Notifier, folderWatcher: FolderWatcher,
        stopCommands: @escaping @Sendable () -> Void, desktop: (channel: DesktopChannel, busSocket: (folder: String, name: String)?)?,
        serve: @escaping Serve, reload: @escaping @Sendable () async -> Void, onReady: @escaping @Sendable () async -> Void,
        report: @escaping @Sendable (DaemonMessage) -> Void
    ) {
        (self.clockEvents, self.notifier, self.folderWatcher) = (clockEvents, notifier, folderWatcher)
        (self.stopCommands, self.desktop, self.serve, self.reload, self.onReady, self.report) = (stopCommands, desktop, serve, reload, onReady, report)
    }
}

extension Daemon {
    /// The daemon's services, in the order they start: stopped in the reverse order, the socket first (no new
    /// calls), then the scheduler, then the channels. The clock's events end the group at SIGTERM or SIGINT.
    public func services(_ parts: DaemonServiceParts) -> [ServiceGroupConfiguration.ServiceConfiguration] {
        let (reloadRequests, requestReload) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        // Ends once the socket is bound and READY=1 sent; the habit count waits for it.
        let (ready, isReady) = AsyncStream.makeStream(of: Never.self)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .named(ChangeFeedService(daemon: self)),
            .named(CommandRunnerService(stopAll: parts.stopCommands)),
        ]
        if let desktop = parts.desktop {
            services.append(.named(DesktopService(channel: desktop.channel, perform: perform, busSocket: desktop.busSocket, report: parts.report)))
        }
        services += [
            .named(WatchdogService(notifier: parts.notifier)),
            .named(
                ClockEventsService(events: parts.clockEvents, daemon: self, requestReload: requestReload, notifier: parts.notifier),
                ending: .gracefullyShutdownGroup),
            .named(ReloadService(requests: reloadRequests) { [self] in
                await parts.reload()
                watchFolders(parts.folderWatcher, watchedFolders, report: parts.report)
            }),
            .named(FolderWatchService(watcher: parts.folderWatcher, daemon: self, report: parts.report)),
            .named(HabitWarmUpService(ready: ready, daemon: self)),
            .named(ControlSocketService(serve: parts.serve) {
                await parts.onReady()
                isReady.finish()
            }),
        ]
        return services
    }
}

extension ServiceGroupConfiguration.ServiceConfiguration {
    /// A service named by its type. ServiceLifecycle's own name for it, `"\(service)"`, printed every stored
    /// property by reflection: about 5 % of a start's CPU (`perf`), for a name only its logs use.
    static func named(_ service: some Service, ending: TerminationBehavior = .cancelGroup) -> Self {
        .init(service: service, successTerminationBehavior: ending, failureTerminationBehavior: .cancelGroup, serviceName: "\(type(of: service))")
    }
}
