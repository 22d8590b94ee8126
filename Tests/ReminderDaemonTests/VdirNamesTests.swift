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
        for name in names { FileManager.default.createFile(atPath: path + "/" + name, contents: Data("BEGIN:VCALENDAR\n".utf8)) }
        let folder = VdirFolder(path: path)
        let (entries, refused) = try folder.list()
        #expect(entries.map(\.name) == ["Event.ICS", "event.ics", "x.iCs", "Ünïcödé.ics"].sorted())
        #expect(refused.map(\.name) == ["bad\u{1}.ics", "bad\u{7F}.ics", "e\u{FFFD}.ics"].sorted())
        #expect(folder.look(at: "sub/dir.ics") == .none)
    }
}
