import Foundation
import Testing

@testable import ReminderDaemon

/// Which names in a vdir folder are items (`look(at:)`, what a listing and a watcher's event both go through).
@Suite("Vdir item names")
struct VdirNamesTests {
    @Test func itemsEndInICSInAnyCaseAndHiddenOrControlNamesAreNot() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-vdir-names-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }  // this test's own folder, gone or not
        let names = ["event.ics", "Event.ICS", "x.iCs", "x.ics.tmp", ".hidden.ics", "ics", "a.ic", "x\u{0E}ics", "bad\u{1}.ics", "bad\u{7F}.ics",
                     "e\u{FFFD}.ics", "Ünïcödé.ics"]
        for name in names { #expect(FileManager.default.createFile(atPath: path + "/" + name, contents: Data("BEGIN:VCALENDAR\n".utf8))) }
        let folder = VdirFolder(path: path)
        let (entries, refused) = try folder.list()
        #expect(entries.map(\.name) == ["Event.ICS", "event.ics", "x.iCs", "Ünïcödé.ics"].sorted())
        #expect(refused.map(\.name) == ["bad\u{1}.ics", "bad\u{7F}.ics", "e\u{FFFD}.ics"].sorted())
        #expect(folder.look(at: "sub/dir.ics") == .none)
    }

    /// A hostile file in a synced folder: a link out of it, a FIFO, a file larger than an item, a folder named
    /// like one. A listing (names looked up in the open folder) and a watcher's name (looked up by path) say the
    /// same of each, and never follow the link.
    @Test func linksFIFOsFoldersAndOversizedFilesAreRefusedTheSameByAListingAndByName() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-vdir-hostile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path + "/folder.ics", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }  // this test's own folder, gone or not
        let outside = path + "/folder.ics/secret"
        #expect(FileManager.default.createFile(atPath: outside, contents: Data("BEGIN:VCALENDAR\n".utf8)))
        #expect(FileManager.default.createFile(atPath: path + "/good.ics", contents: Data("BEGIN:VCALENDAR\n".utf8)))
        #expect(FileManager.default.createFile(atPath: path + "/huge.ics", contents: Data(count: VdirFolder.maximumItemBytes + 1)))
        try FileManager.default.createSymbolicLink(atPath: path + "/link.ics", withDestinationPath: outside)
        #expect(mkfifo(path + "/pipe.ics", 0o600) == 0)
        let folder = VdirFolder(path: path)
        let (entries, refused) = try folder.list()
        #expect(entries.map(\.name) == ["good.ics"])
        let reasons = Dictionary(uniqueKeysWithValues: refused.map { ($0.name, $0.reason) })
        #expect(reasons.keys.sorted() == ["folder.ics", "huge.ics", "link.ics", "pipe.ics"])
        #expect(reasons["link.ics"]?.contains("symbolic link") == true)
        #expect(reasons["pipe.ics"]?.contains("not a regular file") == true)
        #expect(reasons["folder.ics"]?.contains("not a regular file") == true)
        #expect(reasons["huge.ics"]?.contains("larger than an item") == true)
        for entry in entries { #expect(folder.look(at: entry.name) == .item(entry)) }
        for refusal in refused { #expect(folder.look(at: refusal.name) == .refused(refusal)) }
    }

    /// Reading an item does not write its inode back (`relatime` updates an access time older than the change):
    /// a first read of 20,000 items wrote 20,000 inodes.
    @Test func readingAnItemLeavesItsAccessTimeAsItWas() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-vdir-atime-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }  // this test's own folder, gone or not
        #expect(FileManager.default.createFile(atPath: path + "/event.ics", contents: Data("BEGIN:VCALENDAR\n".utf8)))
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: time(nil), tv_nsec: 0)]  // accessed long before its change
        #expect(utimensat(AT_FDCWD, path + "/event.ics", &times, 0) == 0)
        let folder = VdirFolder(path: path)
        let entry = try #require(try folder.list().entries.first)
        #expect(try folder.read(entry) == "BEGIN:VCALENDAR\n")
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(directory) }
        #expect(try folder.read(entry, in: directory) == "BEGIN:VCALENDAR\n")
        var info = stat()
        #expect(stat(path + "/event.ics", &info) == 0)
        #expect(info.st_atim.tv_sec == 1_000_000_000)
    }
}
