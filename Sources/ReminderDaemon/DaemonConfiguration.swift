import ReminderCore

/// The daemon's settings, from an optional TOML file (`config.toml`). Every key is optional.
///
/// The file is flat `key = value` TOML (strings, booleans, integers, comments); unknown keys and bad values
/// are errors that name the key and the line, and nothing is applied from a file with an error.
public struct DaemonConfiguration: Hashable, Sendable {
    /// The zone of reminders added without one; nil: the system zone (and follow its changes).
    public var timeZone: String?
    /// Announce firings missed while the daemon was down, once, marked late (like systemd's `Persistent=true`).
    public var catchUp = true
    /// The control socket's path; nil: `$XDG_RUNTIME_DIR/remindd/control.sock`.
    public var socket: String?
    /// The least important journal priority written: debug, info, notice, warning, error.
    public var logLevel = "debug"
    /// When a habit day starts (night-shift users end their day at, say, 04:00).
    public var dayStart = TimeOfDay(hour: 0, minute: 0)!
    /// An activity this many minutes after a day ends counts for that day when it has none.
    public var graceMinutes = 60
    /// When the "Consider a rest day" notice is written, after 6 active days in a row.
    public var morning = TimeOfDay(hour: 8, minute: 0)!
    /// Delete workouts and food older than this many days (90 to 36,500); nil keeps everything.
    public var retentionDays: Int?
    /// A command run at every announcement of every reminder (program and arguments, no shell).
    public var onFire: [String]?
    /// A command run when an occurrence of any reminder is missed (a caregiver told): program and arguments.
    public var onMissed: [String]?
    /// Desktop notifications on the session bus (with actions), besides the journal; false: the journal only.
    public var desktopNotifications = true
    /// Read-only calendars (vdir folders: khal's, a subscribed feed synced by vdirsyncer) whose alarms fire,
    /// as written: absolute, or from the home folder (`~/`).
    public var calendars: [String] = []
    /// The linked collection: a vdir remindd publishes its reminders, logs and skips to and reads other devices'
    /// from (vdirsyncer keeps it in step with a CalDAV server); nil: none.
    public var collection: String?
    /// What brings the collection in step with the server (`vdirsyncer sync remindd`): program and arguments.
    public var syncCommand: [String]?
    /// How often the sync command runs when nothing else runs it (`sync-interval`), so that other devices' changes
    /// come without waiting for vdirsyncer's own timer (15 minutes); nil: only after changes and before decisions.
    public var syncIntervalSeconds: Int64? = DaemonConfiguration.defaultSyncIntervalSeconds
    /// Five minutes: a dose logged on another device is known here within about five minutes, at a run of
    /// vdirsyncer (about a second) every five minutes, and only while a collection is linked.
    public static let defaultSyncIntervalSeconds: Int64 = 300
    /// How long `log` and `done` of a medication with limits wait for the sync before deciding on what this device
    /// has (`sync-wait`, 1s to 60s): vdirsyncer's run with nothing to bring takes about a second; a server that
    /// cannot be reached is given up after ten (a slow server may want more, a person in a hurry less).
    public var syncWait: Duration = .seconds(10)
    /// How reminders are written into the collection (`collection-mode`): each as one recurring task (the
    /// default: what remindd devices, khal, todoman and jtx Board read), or as a journal with each occurrence
    /// of the next ``occurrenceWindowSeconds`` a plain task of its own, which every phone task app completes
    /// correctly (``OccurrenceTask``).
    public var collectionMode: CollectionMode = .recurring
    public enum CollectionMode: String, Sendable, Hashable {
        case recurring, occurrences
    }
    /// How far ahead (and, once decided, how long after) occurrence tasks are kept (`occurrence-window`, 12h to 7d).
    public var occurrenceWindowSeconds: Int64 = 48 * 3600
    /// The sounds of reminders that do not choose their own (`dose-sound`, `reminder-sound`), and who is spoken
    /// to (`speak`).
    public var sounds = SoundAnnouncer.Defaults()
    /// When reminders without a dose are announced quietly (`quiet-hours`); nil: never.
    public var quietHours: QuietHours?

    public init() {}

    /// The keys a file may set, with what each takes (for messages).
    public static let keys: [(String, String)] = [
        ("time-zone", "a zone name in quotes, e.g. \"Europe/Berlin\""),
        ("catch-up", "true or false"),
        ("socket", "an absolute path in quotes, e.g. \"/run/user/1000/remindd/control.sock\""),
        ("log-level", "one of \"debug\", \"info\", \"notice\", \"warning\", \"error\""),
        ("day-start", "a time in quotes, e.g. \"04:00\""),
        ("grace-minutes", "a number of minutes from 0 to 720, e.g. 60"),
        ("morning", "a time in quotes, e.g. \"08:00\""),
        ("retention-days", "a number of days from 90 to 36500, e.g. 365"),
        ("on-fire", "a command as a list of strings, e.g. [\"/usr/bin/notify-send\", \"remindd\"]"),
        ("on-missed", "a command as a list of strings, e.g. [\"/home/me/bin/tell-carer\"]"),
        ("notifications", "\"desktop\" or \"none\""),
        ("dose-sound", "a sound theme's name, an absolute path to a sound file, or \"none\", e.g. \"alarm-clock-elapsed\""),
        ("reminder-sound", "a sound theme's name, an absolute path to a sound file, or \"none\", e.g. \"message-new-instant\""),
        ("quiet-hours", "two times of day in quotes, from-to, e.g. \"22:00-07:00\""),
        ("speak", "\"doses\", \"all\" or \"none\""),
        ("collection", "a vdir folder in quotes, e.g. \"~/.local/share/remindd/collection\""),
        ("sync-command", "a command as a list of strings, e.g. [\"/usr/bin/vdirsyncer\", \"sync\", \"remindd\"]"),
        ("sync-interval", "a length from 1m to 24h in quotes, e.g. \"5m\", or \"off\""),
        ("sync-wait", "a length from 1s to 60s in quotes, e.g. \"10s\""),
        ("collection-mode", "\"recurring\" or \"occurrences\""),
        ("occurrence-window", "a length from 12h to 7d in quotes, e.g. \"48h\""),
        ("calendars", "a list of vdir folders in quotes, e.g. [\"~/.calendars/personal\"]"),
    ]

    /// Parses the text of a config file.
    /// - Parameter file: the file's name, for messages.
    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        var seen: Set<String> = []
        let lines: [(line: Int, item: TOMLReader.Item)]
        do { lines = try TOMLReader.lines(text) } catch { throw ConfigurationError(file: file, line: error.line, message: error.message) }
        for (line, item) in lines {
            func fail(_ message: String) -> ConfigurationError { ConfigurationError(file: file, line: line, message: message) }
            guard case .keyValue(let key, let value, let valueText) = item else {
                throw fail("tables are not used: remindd's settings are top-level keys (\(keys.map(\.0).joined(separator: ", ")))")
            }
            guard let expected = keys.first(where: { $0.0 == key })?.1 else {
                if let near = EditDistance.suggestion(for: key, among: keys.map(\.0)) { throw fail("unknown key \(quotedInput(key)): did you mean '\(near)'?") }
                throw fail("unknown key \(quotedInput(key)); known keys: \(keys.map(\.0).joined(separator: ", "))")
            }
            guard seen.insert(key).inserted else { throw fail("'\(key)' is set twice") }
            guard configuration.set(key, value) else { throw fail("bad value \(valueText) for '\(key)': use \(expected)") }
        }
        return configuration
    }

    /// Sets `key` to `value` when the value is one the key takes. - Returns: whether it was.
    private mutating func set(_ key: String, _ value: TOMLValue) -> Bool {
        switch (key, value) {
        case ("time-zone", .string(let zone)) where !zone.isEmpty:
            timeZone = zone
        case ("catch-up", .bool(let flag)):
            catchUp = flag
        case ("socket", .string(let path)) where path.hasPrefix("/"):
            socket = path
        case ("log-level", .string(let level)) where ["debug", "info", "notice", "warning", "error"].contains(level):
            logLevel = level
        case ("day-start", .string(let text)) where ISO8601.parseTime(text) != nil:
            dayStart = ISO8601.parseTime(text)!
        case ("grace-minutes", .integer(let minutes)) where (0...720).contains(minutes):
            graceMinutes = minutes
        case ("morning", .string(let text)) where ISO8601.parseTime(text) != nil:
            morning = ISO8601.parseTime(text)!
        case ("retention-days", .integer(let days)) where (90...36_500).contains(days):
            retentionDays = days
        case ("on-fire", .strings(let command)) where !command.isEmpty:
            onFire = command
        case ("on-missed", .strings(let command)) where !command.isEmpty:
            onMissed = command
        case ("collection", .string(let folder)) where folder.hasPrefix("/") || folder.hasPrefix("~/"):
            collection = folder
        case ("sync-command", .strings(let command)) where !command.isEmpty:
            syncCommand = command
        case ("sync-interval", .string("off")):
            syncIntervalSeconds = nil
        case ("sync-interval", .string(let text)) where WindowLength.seconds(text).map({ (60...86_400).contains($0) }) == true:
            syncIntervalSeconds = WindowLength.seconds(text)
        case ("sync-wait", .string(let text)) where WindowLength.seconds(text, in: 1...60) != nil:
            syncWait = .seconds(WindowLength.seconds(text, in: 1...60)!)
        case ("collection-mode", .string(let text)) where CollectionMode(rawValue: text) != nil:
            collectionMode = CollectionMode(rawValue: text)!
        case ("occurrence-window", .string(let text)) where WindowLength.seconds(text, in: 12 * 3600...7 * 86_400) != nil:
            occurrenceWindowSeconds = WindowLength.seconds(text, in: 12 * 3600...7 * 86_400)!
        case ("calendars", .strings(let folders)) where folders.allSatisfy({ $0.hasPrefix("/") || $0.hasPrefix("~/") }):
            calendars = folders
        case ("dose-sound", .string(let text)) where Sound(text).problem == nil:
            sounds.dose = Sound(text)
        case ("reminder-sound", .string(let text)) where Sound(text).problem == nil:
            sounds.reminder = Sound(text)
        case ("speak", .string(let text)) where SpeakChoice(rawValue: text) != nil:
            sounds.speak = SpeakChoice(rawValue: text) ?? .none
        case ("quiet-hours", .string(let text)) where QuietHours(text) != nil:
            quietHours = QuietHours(text)
        case ("notifications", .string(let text)) where text == "desktop" || text == "none":
            desktopNotifications = text == "desktop"
        default:
            return false
        }
        return true
    }

    /// The `calendars` folders as absolute paths (`~/` is `home`), without a trailing slash, each once (the
    /// collection is not also a read-only calendar).
    public func calendarFolders(home: String) -> [String] {
        var seen: Set<String> = collectionFolder(home: home).map { [$0] } ?? []
        return calendars.compactMap { folder in
            let path = Self.absolute(folder, home: home)
            return seen.insert(path).inserted ? path : nil
        }
    }

    /// The `collection` folder as an absolute path.
    public func collectionFolder(home: String) -> String? {
        collection.map { Self.absolute($0, home: home) }
    }

    private static func absolute(_ folder: String, home: String) -> String {
        var path = folder.hasPrefix("~/") ? home + folder.dropFirst() : folder
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

/// A config file problem.
public typealias ConfigurationError = FileLineError
