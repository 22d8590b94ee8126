import GRDB
import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// A store that holds a reminder row remindd cannot use (written by hand, by an older bug, restored from a
/// damaged file) starts anyway: the row is reported in the journal and left out, and the rest fires and answers.
/// Before, GRDB's trapping subscripts and arithmetic on extreme instants crashed the daemon at every start
/// (a crash loop under `Restart=on-failure`).
@Suite("Hostile stored rows")
struct HostileRowTests {
    /// One bad value per case: the column and the SQL literal written into it.
    static let cases: [(column: String, value: String)] = [
        ("handledThrough", "-9223372036854775808"), ("handledThrough", "9223372036854775807"), ("handledThrough", "1e300"),
        ("handledThrough", "'soon'"), ("createdAt", "9223372036854775807"), ("createdAt", "-9223372036854775808"), ("createdAt", "1e300"),
        ("enabled", "1e300"), ("enabled", "'yes'"), ("enabled", "2"), ("name", "x'00ff'"), ("rule", "'garbage'"), ("rule", "x'ff'"),
        ("rule", "'{\"daily\":true,\"at\":\"25:99\"}'"), ("timeZone", "'Nowhere/Atlantis'"), ("timeZone", "x'00'"), ("windowSeconds", "0"),
        ("windowSeconds", "-5"), ("windowSeconds", "1e300"), ("windowSeconds", "'long'"), ("delivery", "'{\"repeatSeconds\":0}'"),
        ("delivery", "'{\"repeatSeconds\":60,\"repeatMax\":-1}'"), ("delivery", "'{\"command\":[]}'"), ("delivery", "'garbage'"),
    ]

    @Test(arguments: cases.indices)
    func aStoreWithAHostileReminderRowStartsReportsItAndAnswers(index: Int) async throws {
        let (column, value) = Self.cases[index]
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        let hostile = try await daemon.add("Hostile", ["daily": true, "at": "08:00"], timeZone: "UTC")
        try await daemon.database.write { db in
            try db.execute(sql: "UPDATE reminder SET \(column) = \(value) WHERE id = ?", arguments: [hostile.id])
        }
        try await daemon.restart()

        // The rest fires, once, and every read answers (an error is an answer; a trap ends this test process).
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.fired], "\(column) = \(value)")
        let listed = try await daemon.call("List", as: [String: [ReminderValue]].self)["reminders"]!.map(\.name)
        #expect(listed.contains("Pills"))
        for method in ["Status", "Next", "History", "Occurrences", "Logs", "Streak", "Day"] {
            do { _ = try await daemon.call(method, as: JSONValue.self) } catch is VarlinkError {}
        }
        var usableNow = true
        for key in ["Hostile", String(hostile.id)] {
            do { _ = try await daemon.call("Get", ["reminder": .string(key)], as: JSONValue.self) } catch is VarlinkError { usableNow = false }
        }
        // Either the start made the row usable again (a handled-through past the clock is rewound to now), or the
        // journal names it with its table, row and column.
        let reported = usableNow || daemon.announcer.events.contains { event in
            guard case .daemon(let message) = event else { return false }
            return message.text.contains("table reminder, row \(hostile.id), column \(column)") || message.text.contains("Hostile")
        }
        #expect(reported, "\(column) = \(value): not reported")
    }
}
