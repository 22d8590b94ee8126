import Foundation
import SystemdSupport
import Testing

/// The inotify watcher of the calendars' folders: a change is reported without polling, for the folders
/// watched and no other.
@Suite("Folder watcher")
struct FolderWatcherTests {
    /// The next folder reported, or nil when none comes within `seconds`.
    private func nextChange(_ watcher: FolderWatcher, within seconds: Double) async -> String? {
        await withTaskGroup(of: String?.self) { group in
            group.addTask {
                var iterator = watcher.changes.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test func aFileRenamedIntoAWatchedFolderIsReportedAndAnUnwatchedOneIsNot() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-watch-\(UUID().uuidString)").path
        let (watched, other) = (root + "/watched", root + "/other")
        for folder in [watched, other] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watcher = try FolderWatcher()
        defer { watcher.stop() }
        let problems = watcher.watch([watched, root + "/missing"])
        #expect(problems.map(\.folder) == [root + "/missing"])

        try "x".write(toFile: other + "/a.ics", atomically: true, encoding: .utf8)
        try "x".write(toFile: watched + "/.a.ics.tmp", atomically: false, encoding: .utf8)
        try FileManager.default.moveItem(atPath: watched + "/.a.ics.tmp", toPath: watched + "/a.ics")
        #expect(await nextChange(watcher, within: 10) == watched)

        // No longer watched: its changes are not reported.
        watcher.watch([other])
        try FileManager.default.removeItem(atPath: watched + "/a.ics")
        try "y".write(toFile: other + "/b.ics", atomically: true, encoding: .utf8)
        #expect(await nextChange(watcher, within: 10) == other)
    }
}
