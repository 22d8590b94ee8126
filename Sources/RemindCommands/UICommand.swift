import ArgumentParser
import Glibc
import WebLogin

/// `remindctl ui`: opens remindd-web in the browser through a one-time login link.
struct UICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui", abstract: "Open remindd's pages in your browser (remindd-web), logged in by a one-time link.",
        discussion: """
            Writes a new login token to $XDG_RUNTIME_DIR/remindd-web/login-token (mode 0600) and opens
            http://127.0.0.1:PORT/login?token=... with xdg-open. The link works once; run 'remindctl ui' again for
            another browser. remindd-web must be running (its user socket starts it).

            Examples:
              remindctl ui
              remindctl ui --print
              ssh -L 47140:127.0.0.1:47140 laptop remindctl ui --print
            """)

    @Flag(help: "Print the login link instead of opening it.") var print = false
    @Option(help: ArgumentHelp("remindd-web's port (default: $REMINDD_WEB_PORT, else \(WebLogin.defaultPort)).", valueName: "port"))
    var port: Int?

    func validate() throws {
        if let port, !(1...65535).contains(port) { throw ValidationError("invalid --port \(port): give a port from 1 to 65535, e.g. --port \(WebLogin.defaultPort)") }
    }

    func run() throws {
        let login = WebLogin(environment: CommandContext.current.environment, uid: getuid(), port: port)
        let url: String
        do { url = login.loginURL(token: try login.issueToken()) } catch { throw CLIError("cannot make a login link: \(error)") }
        if print { return out.print(url) }
        guard Self.open(url) else { throw CLIError("xdg-open could not open the browser: open \(url) yourself (it works once)") }
    }

    /// Runs `xdg-open url` and waits for it. - Returns: whether it succeeded.
    static func open(_ url: String) -> Bool {
        var child: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [String]([ "xdg-open", url]).map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        guard posix_spawnp(&child, "xdg-open", nil, nil, arguments, environ) == 0 else { return false }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        return status == 0
    }
}
