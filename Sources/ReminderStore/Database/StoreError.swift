/// Why the store refused an operation; each case has a one-line message that says what to do.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    case corrupt(path: String, detail: String)
    case newerSchema(path: String)
    /// A SQLite database, but not remindd's.
    case foreign(path: String)
    /// The file was deleted or replaced while the store was open.
    case replaced(path: String)
    /// Another process (a second remindd) has the store open.
    case locked(path: String, pid: Int32?)
    case unavailable(path: String, detail: String)
    case nameTaken(String)
    case notFound(String)
    /// The row asked for holds a value remindd cannot use (written by hand or by an older bug).
    case unusable(UnusableRow)

    public var description: String {
        switch self {
        case .corrupt(let path, let detail):
            return "the database \(path) is damaged (\(detail)); remindd will not touch it: move it aside and restart to begin a new one, or restore a backup"
        case .newerSchema(let path):
            return "the database \(path) was written by a newer remindd; remindd will not touch it: run that newer version, or move the file aside"
        case .foreign(let path):
            return "\(path) is not a remindd database (another program's, or empty of remindd's tables); remindd will not touch it: move it aside and restart to begin a new one"
        case .replaced(let path):
            return "the database \(path) was deleted or replaced while remindd was running, so nothing more is written (it would be lost): restart remindd (systemctl --user restart remindd) to open the file now there"
        case .locked(let path, let pid):
            let holder = pid.map { "remindd (pid \($0))" } ?? "remindd"
            return "another \(holder) is already running on \(path): use that one (remindctl talks to it), or stop it first (systemctl --user stop remindd)"
        case .unavailable(let path, let detail):
            return "the database \(path) cannot be used: \(detail)"
        case .nameTaken(let name):
            return "a reminder named '\(name)' already exists: choose another name or change that one with 'remindctl update'"
        case .notFound(let key):
            return "no reminder '\(key)': see 'remindctl list' for names and ids"
        case .unusable(let row):
            return "a stored row cannot be used (\(row)): restore a backup, or mend or remove the row by hand (sqlite3) while remindd is stopped"
        }
    }
}
