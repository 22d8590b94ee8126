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
            another browser. remindd-web must be running (its user socket starts it). The port is --port, else
            $REMINDD_WEB_PORT, else the one remindd-web.socket listens on (systemctl --user show), else \(WebLogin.defaultPort).

            Examples:
              remindctl ui
              remindctl ui --print
              ssh -L 47140:127.0.0.1:47140 laptop remindctl ui --print
            """)

    @Flag(help: "Print the login link instead of opening it.") var print = false
    @Option(help: ArgumentHelp("remindd-web's port (default: $REMINDD_WEB_PORT, else the port remindd-web.socket listens on, else \(WebLogin.defaultPort)).", valueName: "port"))
    var port: Int?

    func validate() throws {
        if let port, !(1...65535).contains(port) { throw ValidationError("invalid --port \(port): give a port from 1 to 65535, e.g. --port \(WebLogin.defaultPort)") }
    }

    func run() throws {
        let environment = CommandContext.current.environment
        let login = WebLogin(environment: environment, uid: getuid(), port: port ?? (environment["REMINDD_WEB_PORT"] == nil ? Self.socketUnitPort() : nil))
        let url: String
        do { url = login.loginURL(token: try login.issueToken()) } catch { throw CLIError("cannot make a login link: \(error)") }
        if print { return out.print(url) }
        guard Self.open(url) else { throw CLIError("xdg-open could not open the browser: open \(url) yourself (it works once)") }
    }

    /// The port remindd-web's user socket listens on, as the user manager has it (a drop-in that moved it is
    /// followed); nil without the unit or a user manager.
    static func socketUnitPort() -> Int? {
        // Fixed words, no input of the user's: the shell only runs systemctl.
        guard let pipe = popen("systemctl --user show --property=Listen --value remindd-web.socket 2>/dev/null", "r") else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while case let count = fread(&buffer, 1, buffer.count, pipe), count > 0 { output += buffer[..<count] }
        pclose(pipe)
        return port(listening: String(decoding: output, as: UTF8.self))
    }

    /// The port of the first loopback address in `systemctl show -p Listen`'s value (`127.0.0.1:47140 (Stream)`).
    static func port(listening listen: String) -> Int? {
        for word in listen.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            for prefix in ["127.0.0.1:", "[::1]:"] where word.hasPrefix(prefix) {
                if let port = Int(word.dropFirst(prefix.count)), (1...65535).contains(port) { return port }
            }
        }
        return nil
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
