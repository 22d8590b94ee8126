import Foundation
import SystemdSupport
import Testing

/// The inotify watcher of the calendars' folders: a change is reported without polling, for the folders
/// watched and no other.
@Suite("Folder watcher")
struct FolderWatcherTests {
    /// The next change reported, or nil when none comes within `seconds`.
    private func nextChange(_ watcher: FolderWatcher, within seconds: Double) async -> FolderWatcher.Change? {
        await withTaskGroup(of: FolderWatcher.Change?.self) { group in
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
        // The entry named: the item the temporary file became (a hidden entry is no item: not named, so that a
        // burst of writes does not fill the names with temporary files).
        #expect(await nextChange(watcher, within: 10) == FolderWatcher.Change(folder: watched, names: ["a.ics"]))

        // No longer watched: its changes are not reported.
        watcher.watch([other])
        try FileManager.default.removeItem(atPath: watched + "/a.ics")
        try "y".write(toFile: other + "/b.ics", atomically: false, encoding: .utf8)
        #expect(await nextChange(watcher, within: 10) == FolderWatcher.Change(folder: other, names: ["b.ics"]))
    }

    /// A folder rewritten without a pause (an item written 100 times a second) kept every change unreported,
    /// another folder's dose logged elsewhere too, for as long as the rewriting lasted. Events every 5 ms for 5 s
    /// (never quiet): pending changes are reported 1 s after the first, and again 1 s after the first that came
    /// after that report; a quiet period still reports at once. (A test of the watcher itself, two threads
    /// rewriting a real folder, failed in the full suite: its task waited behind others for over 30 s.)
    @Test func theLongestAChangeWaitsIsTheMaximumWait() {
        var timing = FolderWatcher.ReportTiming()
        #expect(timing.pollTimeout(now: 0) == -1)
        var reports: [Int64] = []
        for now in stride(from: Int64(0), through: 5000, by: 5) {
            timing.changed(now: now)
            #expect(timing.pollTimeout(now: now) <= FolderWatcher.quietMilliseconds)
            if timing.isDue(now: now) {
                reports.append(now)
                timing.reported()
            }
        }
        #expect(reports == [1000, 2005, 3010, 4015])
        timing.reported()  // the burst ended: quiet, so reported by the poll's timeout
        timing.changed(now: 9000)
        #expect(timing.pollTimeout(now: 9000) == FolderWatcher.quietMilliseconds && !timing.isDue(now: 9020))
        #expect(timing.pollTimeout(now: 9995) == 5 && timing.isDue(now: 10_000))
    }

    @Test func aBurstOfMoreNamesThanAreWorthNamingIsAChangeAnywhere() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let watcher = try FolderWatcher(maximumNames: 1000)
        defer { watcher.stop() }
        watcher.watch([folder])
        for number in 0...watcher.maximumNames {
            #expect(FileManager.default.createFile(atPath: folder + "/\(number).ics", contents: Data("x".utf8)))
        }
        // Reported once the folder is quiet: one change or a few (a slow machine may pause mid-burst), none
        // naming more than the maximum, and every file created covered by a change naming it or "anywhere".
        var changes: [FolderWatcher.Change] = []
        while let change = await nextChange(watcher, within: 2) { changes.append(change) }
        #expect(changes.allSatisfy { $0.folder == folder && ($0.names?.count ?? 0) <= watcher.maximumNames })
        let covered = changes.contains { $0.names == nil } ? nil : changes.reduce(into: Set<String>()) { $0.formUnion($1.names ?? []) }
        // (A burst longer than the maximum wait is reported in parts.)
        #expect(covered.map { $0.isSuperset(of: (0...watcher.maximumNames).map { "\($0).ics" }) } ?? true)
    }
}
