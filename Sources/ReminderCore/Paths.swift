/// Where remindd keeps its files, from the XDG base directory variables (a pure function of the environment).
public struct RemindPaths: Hashable, Sendable {
    /// `$XDG_STATE_HOME/remindd` (default `~/.local/state/remindd`), for the user service and a daemon started
    /// by hand alike. (Not systemd's `$STATE_DIRECTORY`: for user services before systemd 254 it is
    /// `~/.config/remindd`, and two locations meant two databases.)
    public var stateDirectory: String
    /// `$XDG_CONFIG_HOME/remindd/config.toml` (default `~/.config/remindd/config.toml`).
    public var configFile: String
    /// `$XDG_RUNTIME_DIR/remindd/control.sock`; without `XDG_RUNTIME_DIR`, `/tmp/remindd-UID/control.sock`.
    public var socket: String
    /// `$HOME`, what `~/` in the config's folders means, as it means for the state and config paths (not the
    /// passwd entry's home, which a different `$HOME` would have made a second place).
    public var home: String

    /// The database file in the state directory.
    public var database: String { stateDirectory + "/remindd.sqlite" }

    /// Where the user service of remindd 0.1 kept the database on systemd 253 and older (its
    /// `StateDirectory=` meant `$XDG_CONFIG_HOME`): a database found there is moved to ``database`` once.
    public var legacyDatabase: String

    public init(environment: [String: String], uid: UInt32) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        self.home = home
        func base(_ variable: String, _ fallback: String) -> String {
            guard let value = environment[variable], value.hasPrefix("/") else { return home + "/" + fallback }
            return value
        }
        stateDirectory = base("XDG_STATE_HOME", ".local/state") + "/remindd"
        configFile = base("XDG_CONFIG_HOME", ".config") + "/remindd/config.toml"
        legacyDatabase = base("XDG_CONFIG_HOME", ".config") + "/remindd/remindd.sqlite"
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            socket = runtime + "/remindd/control.sock"
        } else {
            socket = "/tmp/remindd-\(uid)/control.sock"
        }
    }
}
