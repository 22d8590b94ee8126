import Foundation
import ReminderCore
import Testing

@testable import ReminderStore

/// A calendar's alarms named apart from the reminders that hold their names, when a chunk of items is stored in
/// one transaction (the names held are read once for the chunk).
@Suite("Calendar alarms: names")
struct CalendarAlarmsStoreTests {
    let directory = NSTemporaryDirectory() + "remindd-calendar-names-\(UUID().uuidString)"
    let now = Instant(secondsSinceEpoch: 1_795_000_000)
    let daily = RuleSpec(daily: true, at: "08:00")

    func alarm(_ name: String) -> CalendarAlarmsStore.Alarm {
        var delivery = Delivery()
        delivery.calendar = "work"
        return CalendarAlarmsStore.Alarm(name: name, rule: daily, timeZone: "UTC", delivery: delivery)
    }

    func item(_ file: String, _ names: String...) -> CalendarAlarmsStore.Item {
        CalendarAlarmsStore.Item(origin: "/cal/\(file)", etag: "1", alarms: names.map(alarm))
    }

    func names(_ store: ReminderStore) throws -> [String: [String]] {
        Dictionary(grouping: try store.reminders.all().filter { $0.origin != nil }, by: { $0.origin ?? "" }).mapValues { $0.map(\.name) }
    }

    func store(holding names: String...) throws -> ReminderStore {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try ReminderStore(path: directory + "/remindd.sqlite")
        for name in names { _ = try store.reminders.add(name: name, rule: daily, timeZone: "UTC", now: now) }
        return store
    }

    @Test func namesHeldBeforeOrTakenEarlierInTheChunkAreNamedApart() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try store(holding: "STANDUP", "Standup (work)")

        // "standup" is "STANDUP" in any case; a name made apart ("Standup (work)") is asked about too.
        _ = try store.calendarAlarms.replace([item("a.ics", "Standup"), item("b.ics", "standup", "Lunch")], now: now)
        #expect(try names(store) == ["/cal/a.ics": ["Standup (work 2)"], "/cal/b.ics": ["standup (work 3)", "Lunch"]])

        // A name freed earlier in the same chunk (a.ics renamed) is free for a later item; one still held is not.
        _ = try store.calendarAlarms.replace([item("a.ics", "Dinner"), item("c.ics", "Standup (work 2)", "lunch")], now: now)
        #expect(try names(store) == [
            "/cal/a.ics": ["Dinner"], "/cal/b.ics": ["standup (work 3)", "Lunch"], "/cal/c.ics": ["Standup (work 2)", "lunch (work)"],
        ])
    }

    /// The names asked about and the items' paths go to SQLite as JSON text: quotes, backslashes and (in a path)
    /// control characters in them are escaped, and a held one is found as it is.
    @Test func namesAndPathsWithQuotesBackslashesAndTabsAreFoundAsTheyAre() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let held = "Say \"hi\" \\ to all"
        let store = try store(holding: held)
        let odd = CalendarAlarmsStore.Item(origin: "/cal/\"quoted\"\t\\.ics", etag: "1", alarms: [alarm(held.uppercased()), alarm("{\"a\": [1]}")])
        _ = try store.calendarAlarms.replace([odd], now: now)
        #expect(try names(store) == [odd.origin: ["SAY \"HI\" \\ TO ALL (work)", "{\"a\": [1]}"]])
        // Read again under the same path: the alarms are found by it and kept, not added again.
        let change = try store.calendarAlarms.replace([odd], now: now)
        #expect(change.isEmpty)
        #expect(try store.reminders.all().count == 3)
    }

    @Test func aNameDifferingOnlyInTheCaseOfALetterBeyondASCIIIsAnotherNameAsToSQLite() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try store(holding: "éa", "éA (WORK)")
        // SQLite's NOCASE folds ASCII letters only: "Éa (work)" is free beside "éA (WORK)", "éa (work)" is not
        // (whatever a later item of the chunk asks for).
        _ = try store.calendarAlarms.replace([item("y.ics", "éa"), item("x.ics", "Éa (work)")], now: now)
        #expect(try names(store) == ["/cal/x.ics": ["Éa (work)"], "/cal/y.ics": ["éa (work 2)"]])
    }
}
