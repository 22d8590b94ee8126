import ArgumentParser
import Glibc
import ReminderCore
import SystemdSupport
import TimeZoneDatabase
import Translation
import WebInterface
import WebLogin

/// remindd-web: remindd's pages for a browser on this machine, over remindd's Varlink socket (`main.swift` runs it).
struct RemindWeb: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remindd-web",
        abstract: "remindd's pages for a browser on this machine (127.0.0.1 and ::1 only).",
        discussion: """
            Listens and prints where; open it with 'remindctl ui', which makes a one-time login link.

            Examples:
              remindd-web
              remindd-web --port 47141
            """)

    @Option(help: ArgumentHelp("The port on 127.0.0.1 and ::1 (default: $REMINDD_WEB_PORT, else \(WebLogin.defaultPort)).", valueName: "port"))
    var port: Int?

    @Option(help: ArgumentHelp("remindd's control socket (default: $XDG_RUNTIME_DIR/remindd/control.sock).", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("Socket-activated: stop after this many minutes with no request and no page open (0: never).", valueName: "minutes"))
    var idleMinutes = 10.0

    func run() async throws {
        let environment = ProcessEnvironment.variables()
        // Socket-activated (remindd-web.socket): its port is the socket's; it stops when idle, and the next
        // request starts it again.
        let activated = SocketActivation.listeningDescriptors()
        let login = WebLogin(environment: environment, uid: getuid(), port: activated.lazy.compactMap(Self.port(of:)).first ?? port)
        let socketPath = socket ?? environment["REMINDD_SOCKET"].flatMap { $0.isEmpty ? nil : $0 } ?? RemindPaths(environment: environment, uid: getuid()).socket
        let executable = GettextCatalog.runningExecutable()
        let languages = WebLanguages(folder: GettextCatalog.localeFolder(executable: executable), fallback: GettextCatalog.start(executable: executable))
        let database = TimeZoneDatabase.system(environment: environment)
        // A zone that cannot be read shows times in UTC, as remindctl does.
        let zone = (try? database.rules(named: database.systemZoneName(environment: environment))) ?? TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        let app = WebApp(
            login: login, gateway: VarlinkRemindersGateway(socketPath: socketPath), languages: languages, zone: zone, environment: environment)
        let server = activated.isEmpty
            ? WebServer(app: app, listening: .port(login.port))
            : WebServer(app: app, listening: .descriptors(activated), idleExit: idleMinutes > 0 ? .milliseconds(Int(idleMinutes * 60_000)) : nil)
        do {
            try await server.run { addresses in
                print("remindd-web: listening on \(addresses.joined(separator: " and ")); log in with: remindctl ui")
                fflush(nil)  // all streams: stdout is a pipe under a test or the journal
            }
        } catch is WebServer.IdleExit {
            print("remindd-web: idle for \(idleMinutes.formatted) min: stopping (the next request starts it again)")
        }
    }

    /// The TCP port a listening socket is bound to.
    static func port(of descriptor: Int32) -> Int? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0 else { return nil }
        switch Int32(address.ss_family) {
        case AF_INET: return withUnsafeBytes(of: &address) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in.self).sin_port)) }
        case AF_INET6: return withUnsafeBytes(of: &address) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in6.self).sin6_port)) }
        default: return nil
        }
    }
}

extension Double {
    /// `10`, `0.05`: as typed.
    fileprivate var formatted: String { self == rounded() ? String(Int(self)) : String(self) }
}
