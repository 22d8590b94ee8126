import ArgumentParser
import Foundation
import ReminderCore
import SystemdSupport

/// vdirsyncer's conflict resolver for the linked collection (`conflict_resolution = ["command", "remindctl",
/// "resolve-conflict"]`): vdirsyncer calls it with two files, the local and the server's version of one item that
/// both changed since the last sync, and takes what they both hold after it.
struct ResolveConflictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve-conflict",
        abstract: "Settle a vdirsyncer conflict on a linked collection's item: keep the later version in both files.",
        discussion: """
            For vdirsyncer's pair of the linked collection (see the README's "On every device"):
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
            texts.append(String(decoding: data, as: UTF8.self))
        }
        let (kept, other) = CollectionItem.resolve(texts[0], texts[1])
        guard kept != other else { return out.print("The two versions are the same: nothing to settle.") }
        for path in [first, second] where (path == first ? texts[0] : texts[1]) != kept {
            do { try kept.write(toFile: path, atomically: true, encoding: .utf8) } catch { throw CLIError("cannot write \(path): \(error.localizedDescription)") }
        }
        let uid = Self.value("UID", in: kept) ?? "?"
        let summary = Self.value("SUMMARY", in: kept) ?? uid
        let times = [kept, other].map { Self.value("LAST-MODIFIED", in: $0) ?? "no LAST-MODIFIED" }
        let message = "Sync conflict on \(summary): kept the version changed at \(times[0]), not the one changed at \(times[1]) (in REMINDD_OTHER_VERSION)"
        Journal(identifier: "remindctl").send(message, priority: .notice, fields: [
            ("MESSAGE_ID", Self.messageID), ("REMINDD_ITEM_UID", uid), ("REMINDD_KEPT_VERSION", kept), ("REMINDD_OTHER_VERSION", other),
        ])
        out.print(message)
    }

    /// The first value of a property in an item, unfolded (a summary for the message).
    static func value(_ name: String, in text: String) -> String? {
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
        guard let line = unfolded.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") }) else { return nil }
        return line.split(separator: ":", maxSplits: 1).last.map { String($0.prefix(120)) }
    }
}
