import Foundation
import ReminderCore
@testable import RemindCommands
import Testing

/// `remindctl resolve-conflict`, as vdirsyncer calls it: both files end with the later version, whichever
/// order they come in.
@Suite struct ResolveConflictTests {
    var harness = CommandHarness(daemon: StubDaemon(replies: Samples.replies))

    static func item(_ at: String, hour: String) throws -> String {
        let reminder = CollectionItem.Reminder(uid: "u1@remindd", name: "Vitamin D", rule: RuleSpec(daily: true, at: hour), timeZone: "UTC")
        // Rendered as remindd writes it; the zone is fixed so the test needs no zone files.
        return CollectionItem.text(
            reminder, rule: try reminder.rule.makeRule(), zone: TimeZoneRules(identifier: "UTC", fixedOffset: 0),
            modifiedAt: Instant(secondsSinceEpoch: Int64(at)!), previous: nil)
    }

    @Test(arguments: [false, true])
    func bothFilesEndWithTheLaterVersion(swapped: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-conflict-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (older, later) = (try Self.item("1795000000", hour: "08:30"), try Self.item("1795000060", hour: "09:00"))
        let (a, b) = (folder + "/a.ics", folder + "/b.ics")
        try (swapped ? later : older).write(toFile: a, atomically: true, encoding: .utf8)
        try (swapped ? older : later).write(toFile: b, atomically: true, encoding: .utf8)
        let result = harness.run(["resolve-conflict", a, b])
        #expect(result.error == nil)
        #expect(try String(contentsOfFile: a, encoding: .utf8) == later)
        #expect(try String(contentsOfFile: b, encoding: .utf8) == later)
        #expect(result.output.contains("kept the version changed at 20261118T110740Z, not the one changed at 20261118T110640Z"))
    }
}
