import ReminderCore
import ReminderInterface
import Synchronization
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Input that cannot be right is refused and changes nothing; a slot missed while the daemon was down is late.
@Suite("Input limits and downtime")
struct InputLimitTests {
    @Test func updateRefusesANameAddWouldRefuse() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"])
        for name in [String(repeating: "x", count: 100_000), "   "] {
            await #expect(throws: VarlinkError.self) { try await daemon.call("Update", ["reminder": "Pills", "name": .string(name)]) }
        }
        let reminder = try await daemon.call("Get", ["reminder": "Pills"], as: [String: ReminderValue].self)["reminder"]!
        #expect(reminder.name == "Pills")
    }

    @Test func restDaysMoreThanTenYearsBackAreRefused() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        await #expect(throws: VarlinkError.self) { try await daemon.call("RestMark", ["from": "0001-01-01"]) }
        await #expect(throws: VarlinkError.self) { try await daemon.call("RestMark", ["from": "2016-03-01"]) }
        try await daemon.call("RestMark", ["from": "2016-03-02"])
        let stats = try await daemon.call("FreezeHistory", as: [String: [FreezeEventValue]].self)
        #expect(stats["events"] != nil)
    }

    @Test func aSlotMissedByLessThanAMinuteWhileDownIsLate() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        daemon.clock.set(instant("2026-03-02T08:00:30Z"))
        try await daemon.restart()
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.late])
        #expect(daemon.firings(of: "Pills").first?.firing.lateSeconds == Int64(30))
    }
}

/// A long list comes in pages; the pages together are the whole list.
@Suite("Paged List")
struct PagedListTests {
    struct Page: Decodable { let reminders: [ReminderValue]; let after: Int64? }

    /// No reply holds more than a page: with 600 reminders a plain List gives the first 500 and where to go on.
    @Test func aPlainListIsOnePage() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        for index in 1...600 { try await daemon.add("R\(index)", ["daily": true, "at": "08:00"], timeZone: "UTC") }
        let first = try await daemon.call("List", as: Page.self)
        #expect(first.reminders.count == 500)
        let rest = try await daemon.call("List", ["after": .number(Double(try #require(first.after)))], as: Page.self)
        #expect(rest.reminders.count == 101 && rest.after == nil)
    }

    @Test func pagesCoverEveryReminderOnceInIdOrder() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        for index in 1...7 { try await daemon.add("R\(index)", ["daily": true, "at": "08:00"], timeZone: "UTC") }
        let all = try await daemon.call("List", as: Page.self)
        #expect(all.after == nil)
        var paged: [ReminderValue] = []
        var after: Int64? = 0
        var pages = 0
        while let start = after {
            let page = try await daemon.call("List", ["after": .number(Double(start)), "limit": 3], as: Page.self)
            #expect(page.reminders.count <= 3)
            paged += page.reminders
            after = page.after
            pages += 1
        }
        #expect(pages == 3)  // 8 reminders with the built-in rest check-in: 3 + 3 + 2
        #expect(paged == all.reminders)
        #expect(paged.map(\.id) == paged.map(\.id).sorted())
        await #expect(throws: VarlinkError.self) { try await daemon.call("List", ["limit": 0]) }
        await #expect(throws: VarlinkError.self) { try await daemon.call("List", ["limit": 1001]) }

        // Called with more: each page is a reply, all but the last marked continues.
        let replies = Mutex<[VarlinkReply]>([])
        try await daemon.current.router.handle(VarlinkCall(method: "io.remindd.Reminders.List", parameters: .object(["limit": 3]), more: true)) { reply in
            replies.withLock { $0.append(reply) }
        }
        let streamed = replies.withLock { $0 }
        #expect(streamed.map(\.continues) == [true, true, nil])
        #expect(try streamed.flatMap { try $0.parameters!.decode(Page.self).reminders } == all.reminders)
    }
}
