import Foundation
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
        let reminder = try await daemon.call(Reminders.Get.self, .init(reminder: "Pills")).reminder
        #expect(reminder.name == "Pills")
    }

    /// A name of digits reads as an id ("show 3" showed id 3); a newline broke the `list` table. Both are
    /// refused with what to write instead, and nothing is added.
    @Test func namesThatCannotBeAddressedOrPrintedAreRefused() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        let cases: [(String, String)] = [
            ("3", "a name of only digits, like \"3\", reads as an id in show, log or remove: write \"Dose 3\" or \"#3\""),
            ("Pills\nmorning", "a reminder's name is one line without tabs or control characters: write it as \"Pills morning\""),
            ("a\tb", "a reminder's name is one line without tabs or control characters: write it as \"a b\""),
        ]
        for (name, message) in cases {
            let refused = await #expect(throws: VarlinkError.self) {
                try await daemon.add(name, ["daily": true, "at": "08:00"])
            }
            #expect(refused?.string("message") == message)
        }
        try await daemon.add("薬 💊", ["daily": true, "at": "08:00"])
        let all = try await daemon.call("List", as: [String: [ReminderValue]].self)["reminders"]!
        #expect(all.map(\.name) == ["Planning a rest day this week?", "薬 💊"])
    }

    /// "Added" with no next firing: a rule that has ended is refused with its reason.
    @Test func aRuleThatCanNeverFireIsRefusedWithItsReason() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        let once = await #expect(throws: VarlinkError.self) {
            try await daemon.add("X", ["once": "2020-01-01T10:00"])
        }
        #expect(once?.string("message") == "this reminder would never fire: --once 2020-01-01T10:00 is in the past: give a time ahead")
        let until = await #expect(throws: VarlinkError.self) {
            try await daemon.add("Y", ["daily": true, "at": "09:00", "until": "2026-01-01"])
        }
        #expect(until?.string("message") == "this reminder would never fire: it ends --until 2026-01-01, before its next time: give a later --until, or none")
        try await daemon.add("Z", ["daily": true, "at": "09:00"])
        await #expect(throws: VarlinkError.self) {
            try await daemon.call("Update", ["reminder": "Z", "rule": .object(["daily": true, "at": "09:00", "until": "2026-03-01"])])
        }
        let all = try await daemon.call("List", as: [String: [ReminderValue]].self)["reminders"]!
        #expect(all.map(\.name) == ["Planning a rest day this week?", "Z"] && all[1].rule.until == nil)
    }

    /// One call may not ask for unbounded work: 86,400 times a day took 79 s to add and made another
    /// reminder's firing 72 s late. The most a rule may list is refused with the limit; at the limit it works.
    @Test func aRuleWithMoreTimesOrSkipsThanTheLimitIsRefusedWithTheLimit() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        let everyTenMinutes = (0..<144).map { String(format: "%02d:%02d", $0 / 6, $0 % 6 * 10) }
        let everyFiveMinutes = (0..<288).map { String(format: "%02d:%02d", $0 / 12, $0 % 12 * 5) }
        do {
            try await daemon.add("Sips", ["daily": true, "at": .string(everyFiveMinutes.joined(separator: ","))])
            Issue.record("288 times a day were accepted")
        } catch let error as VarlinkError {
            #expect("\(error.parameters)".contains("at most 144 times a day"))
        }
        let skips = (1...367).map { LocalDate(dayNumber: 20_500 + $0).description }.joined(separator: ",")
        await #expect(throws: VarlinkError.self) { try await daemon.add("Skipper", ["daily": true, "at": "08:00", "skip": .string(skips)]) }
        #expect(try await daemon.call("List", as: [String: [ReminderValue]].self)["reminders"]!.count == 1)  // the built-in only

        try await daemon.add("Sips", ["daily": true, "at": .string(everyTenMinutes.joined(separator: ","))], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        #expect(daemon.firings(of: "Sips").count == 6)  // 07:10 ... 08:00, every 10 minutes (07:00 passed as it was added)
    }

    /// A log at the year 0 was accepted and made every habit answer take seconds: logs, workouts and food go
    /// back as far as rest days do, 10 years.
    @Test func logsWorkoutsAndFoodMoreThanTenYearsBackAreRefused() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        for (method, parameters) in [
            ("Log", ["reminder": "Pills", "at": "0000-01-01T12:00"]), ("Log", ["reminder": "Pills", "at": "2016-03-01T23:00"]),
            ("WorkoutAdd", ["exercise": "running", "minutes": 30, "intensity": "moderate", "at": "1900-01-01T08:00"]),
            ("FoodAdd", ["name": "Oatmeal", "kcal": 350, "at": "2016-03-01T08:00"]),
        ] as [(String, [String: JSONValue])] {
            do {
                try await daemon.call(method, parameters)
                Issue.record("\(method) \(parameters) was accepted")
            } catch let error as VarlinkError {
                #expect(error.string("message")?.contains("more than 10 years ago: give a time since 2016-03-02") == true, "\(error)")
            }
        }
        try await daemon.call("Log", ["reminder": "Pills", "at": "2016-03-02T00:00"])  // the first instant allowed
        let logs = try await daemon.call(Reminders.Logs.self, .init(date: "2016-03-02")).logs
        #expect(logs.map(\.utc) == ["2016-03-02T00:00:00Z"])
    }

    @Test func restDaysMoreThanTenYearsBackAreRefused() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        await #expect(throws: VarlinkError.self) { try await daemon.call("RestMark", ["from": "0001-01-01"]) }
        await #expect(throws: VarlinkError.self) { try await daemon.call("RestMark", ["from": "2016-03-01"]) }
        try await daemon.call("RestMark", ["from": "2016-03-02"])
        let listed = try await daemon.call(Habits.RestList.self, .init(from: "2016-03-01", to: "2016-03-03")).restDays
        #expect(listed.map(\.date) == ["2016-03-02"])
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
