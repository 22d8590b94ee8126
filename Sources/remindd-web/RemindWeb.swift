import ArgumentParser
import Glibc
import ReminderCore
import Translation
import WebInterface
import WebLogin

/// remindd-web: remindd's pages for a browser on this machine, over remindd's Varlink socket.
@main
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

    func run() async throws {
        let environment = ProcessEnvironment.variables()
        let login = WebLogin(environment: environment, uid: getuid(), port: port)
        let socketPath = socket ?? environment["REMINDD_SOCKET"].flatMap { $0.isEmpty ? nil : $0 } ?? RemindPaths(environment: environment, uid: getuid()).socket
        let executable = GettextCatalog.runningExecutable()
        let languages = WebLanguages(folder: GettextCatalog.localeFolder(executable: executable), fallback: GettextCatalog.start(executable: executable))
        let app = WebApp(login: login, gateway: VarlinkRemindersGateway(socketPath: socketPath), languages: languages)
        try await WebServer(app: app, port: login.port).run { addresses in
            print("remindd-web: listening on \(addresses.joined(separator: " and ")); log in with: remindctl ui")
            fflush(nil)  // all streams: stdout is a pipe under a test or the journal
        }
    }
}
