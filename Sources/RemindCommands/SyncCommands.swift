import ArgumentParser
import FoundationEssentials
import JournalNative
import ReminderCore
import ReminderInterface

/// The linked collection (`collection` in config.toml): its state, and taking its folder back on purpose.
struct CollectionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collection",
        abstract: "The linked collection: where it is, and taking its folder back after a reset on purpose.",
        discussion: """
            remindd does not take a collection folder that is missing, cannot be read, or lost most of its items \
            at once for deletions made on another device: it holds the collection (nothing removed here, nothing \
            written there), says so once in the journal, and 'remindctl status' shows why. When the folder comes \
            back as it was (a disk mounted), it is used again by itself.

            Examples:
              remindctl collection                   # the folder, and whether it is used
              remindctl collection relink            # the folder was emptied or changed on purpose: fill it from here
            """,
        subcommands: [CollectionShowCommand.self, CollectionRelinkCommand.self],
        defaultSubcommand: CollectionShowCommand.self)
}

struct CollectionShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show the collection's folder and whether it is used.",
        discussion: "Example:\n  remindctl collection show --json")

    @Flag(help: "Print it as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let state = try connection.call(Reminders.Status.self).collection
        if json { return try out.json(state) }
        guard let state else { return out.print("No collection is linked: set 'collection' in config.toml (see remindd.toml(5), and the manual's \"Calendars and devices\").") }
        out.print("collection: \(state.folder)")
        if let why = state.heldBecause {
            out.print("not used:   \(why); nothing is removed here or written there until it is back ('remindctl collection relink' takes it as it is)")
        } else {
            out.print("used:       yes")
        }
    }
}

struct CollectionRelinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relink",
        abstract: "Take the collection's folder as it is now: write back what it lacks, remove nothing.",
        discussion: """
            For a folder reset, emptied, moved or changed ('collection' in config.toml) on purpose: every reminder, \
            log and skip remindd linked there and the folder lacks is written into it again, nothing on this \
            device is removed, and the folder is read and used as usual. To remove reminders on purpose, remove \
            them afterwards ('remindctl remove'): the removal then reaches every device.

            Examples:
              remindctl collection relink
              remindctl collection relink --json
            """)

    @Flag(help: "Print the result as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let relinked = try connection.call(Reminders.RelinkCollection.self)
        if json { return try out.json(relinked) }
        out.print("Relinked \(relinked.folder): \(relinked.restored) \(relinked.restored == 1 ? "item" : "items") written back.")
    }
}

/// vdirsyncer's conflict resolver for the linked collection (`conflict_resolution = ["command", "remindctl",
/// "resolve-conflict"]`): vdirsyncer calls it with two files, the local and the server's version of one item that
/// both changed since the last sync, and takes what they both hold after it.
struct ResolveConflictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve-conflict",
        abstract: "Settle a vdirsyncer conflict on a linked collection's item: keep the later version in both files.",
        discussion: """
            For vdirsyncer's pair of the linked collection (see the manual's "Calendars and devices", docs/devices.md):
              conflict_resolution = ["command", "remindctl", "resolve-conflict"]
            vdirsyncer calls it with the two versions of an item that changed on both sides since the last sync. \
            The version with the later LAST-MODIFIED is kept (equal times: the same one on every device), \
            written into both files; the other is sent to the journal in full (MESSAGE_ID \(Self.messageID), \
            'journalctl -t remindctl'), so nothing is lost without a trace. Logs and skips never conflict: each \
            is an item of its own.

            Examples:
              remindctl resolve-conflict /tmp/vdirsyncer-conflict.x/a.ics /tmp/vdirsyncer-conflict.x/b.ics
            """)

    /// The journal's MESSAGE_ID of a settled conflict (explained by the catalog).
    static let messageID = "66dc6221c475436ab1827beb0d3a6f51"

    @Argument(help: ArgumentHelp("The local version (vdirsyncer's first file).", valueName: "a")) var first: String
    @Argument(help: ArgumentHelp("The other side's version.", valueName: "b")) var second: String

    func run() throws {
        var texts: [String] = []
        for path in [first, second] {
            guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read \(path): give the two files vdirsyncer passes") }
            guard data.count <= 1 << 20 else { throw CLIError("\(path) is larger than 1 MiB: not an item of remindd's collection") }
            texts.append(ICalendarReader.text(utf8: data))
        }
        let (kept, other) = CollectionItem.resolve(texts[0], texts[1])
        guard kept != other else { return out.print("The two versions are the same: nothing to settle.") }
        for path in [first, second] where (path == first ? texts[0] : texts[1]) != kept {
            do { try kept.write(toFile: path, atomically: true, encoding: .utf8) } catch { throw CLIError("cannot write \(path): \(error)") }
        }
        let uid = Self.value("UID", in: kept) ?? "?"
        let summary = Self.value("SUMMARY", in: kept) ?? uid
        let times = [kept, other].map { Self.value("LAST-MODIFIED", in: $0) ?? "no LAST-MODIFIED" }
        let message = "Sync conflict on \(summary): kept the version changed at \(times[0]), not the one changed at \(times[1]) (in REMINDD_OTHER_VERSION)"
        NativeJournal(identifier: "remindctl").send(message, priority: 5, fields: [
            ("MESSAGE_ID", Self.messageID), ("REMINDD_ITEM_UID", uid), ("REMINDD_KEPT_VERSION", kept), ("REMINDD_OTHER_VERSION", other),
        ])
        out.print(message)
    }

    /// The first value of a property in an item, unfolded (a summary for the message).
    static func value(_ name: String, in text: String) -> String? {
        var found: String?
        do {
            // Unfolded as every item is read (space and tab folds, a character folded inside its bytes).
            try ICalendarReader.forEachContentLine(text, fail: { FileLineError(file: "", line: $0, message: $1) }) { line, _ in
                let upper = line.uppercased()
                if found == nil, upper.hasPrefix(name + ":") || upper.hasPrefix(name + ";") {
                    found = line.split(separator: ":", maxSplits: 1).last.map { String($0.prefix(120)) }
                }
            }
        } catch {
            return found
        }
        return found
    }
}
