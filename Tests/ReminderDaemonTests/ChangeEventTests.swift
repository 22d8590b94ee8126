import Foundation
import GRDB
import ReminderCore
import ReminderInterface
import ReminderStore
import Synchronization
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Every method of the catalogue, called as a client would: what it commits to the rows features follow reaches
/// the change feed as one delivery naming exactly the reminders it changed (which the linked collection publishes
/// and medication checks the stock on), before it replies. A list of method names did that once, and a method
/// missing from it (Routines.Select, which adds reminders) changed reminders the collection never heard of; then
/// each service said its change, and a dose from another device said none (no "Running low").
@Suite("Change events")
struct ChangeEventTests {
    /// The rows features follow, a line each, starting with their kind, their id and their reminder's id: every
    /// reminder but its firing bookkeeping, every log, skip, missed occurrence and stock change; rest days,
    /// workouts and food.
    static func followed(_ daemon: TestDaemon) async throws -> Set<String> {
        try await daemon.database.read { db in
            try Set(String.fetchAll(db, sql: """
                SELECT 'reminder ' || id || ' ' || id || ' ' || name || ' ' || rule || ' ' || coalesce(timeZone, '') || ' ' || enabled || ' ' ||
                    coalesce(windowSeconds, '') || ' ' || coalesce(delivery, '') || ' ' || createdAt FROM reminder
                UNION ALL SELECT 'log ' || id || ' ' || reminderId || ' ' || at || ' ' || coalesce(amount, '') || ' ' || coalesce(forScheduledAt, '') FROM intake
                UNION ALL SELECT state || ' ' || id || ' ' || reminderId || ' ' || scheduledAt FROM outcome
                UNION ALL SELECT 'stock ' || id || ' ' || reminderId || ' ' || amount FROM stockChange
                UNION ALL SELECT 'restDay ' || date || ' 0' FROM restDay
                UNION ALL SELECT 'fitness ' || id || ' 0 ' || kcal FROM workout UNION ALL SELECT 'fitness f' || id || ' 0 ' || kcal FROM food
                """))
        }
    }

    /// What a change of the `followed` lines should deliver: the reminders of the lines added or removed, and
    /// whether rest days or fitness entries changed.
    static func expected(before: Set<String>, after: Set<String>) -> StoreChanges {
        var changes = StoreChanges()
        for line in before.symmetricDifference(after) {
            let words = line.split(separator: " ")
            switch words[0] {
            case "restDay": changes.restDaysFrom = 0  // compared as "some rest day" below
            case "fitness": changes.fitness = true
            default: changes.reminders[Int64(words[2])!, default: []].insert(.definition)
            }
        }
        return changes
    }

    /// One call per method (in an order where each finds what it needs), with what it needs from the calls before.
    typealias Call = (method: String, parameters: @Sendable (TestDaemon) async throws -> [String: JSONValue])

    /// The id of the row added last to `table`.
    static func latest(_ table: String, _ daemon: TestDaemon) async throws -> JSONValue {
        .number(Double(try await daemon.database.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM \(table)") } ?? 0))
    }

    static func calls(folder: String) -> [Call] {
        func fixed(_ method: String, _ parameters: [String: JSONValue] = [:]) -> Call { (method, { _ in parameters }) }
        let pills: JSONValue = .string("Pills")
        return [
            fixed("io.remindd.Reminders.Add", ["name": pills, "rule": .object(["daily": .bool(true), "at": .string("08:00")]), "dose": .string("1 tablet")]),
            fixed("io.remindd.Reminders.Update", ["reminder": pills, "rule": .object(["daily": .bool(true), "at": .string("07:00")])]),
            fixed("io.remindd.Reminders.Disable", ["reminder": pills]),
            fixed("io.remindd.Reminders.Enable", ["reminder": pills]),
            fixed("io.remindd.Reminders.List"), fixed("io.remindd.Reminders.Get", ["reminder": pills]),
            fixed("io.remindd.Reminders.Occurrences"), fixed("io.remindd.Reminders.Next"),
            fixed("io.remindd.Reminders.Preview", ["rule": .object(["daily": .bool(true), "at": .string("09:00")])]),
            fixed("io.remindd.Reminders.TakeLate", ["reminder": pills]),  // (at 07:30) yesterday's 07:00 was missed
            fixed("io.remindd.Reminders.Done", ["reminder": pills, "force": .bool(true)]),  // today's 07:00
            fixed("io.remindd.Reminders.Log", ["reminder": pills]),
            fixed("io.remindd.Reminders.Skip", ["reminder": pills]),  // nothing due: tomorrow's, ahead
            fixed("io.remindd.Reminders.Unskip", ["reminder": pills]),
            fixed("io.remindd.Reminders.Pause", ["reminder": pills, "until": .string("2027-01-20")]),
            fixed("io.remindd.Reminders.Resume", ["reminder": pills]),
            fixed("io.remindd.Reminders.Snooze", ["reminder": pills, "minutes": .number(10)]),
            fixed("io.remindd.Reminders.Logs"),
            ("io.remindd.Reminders.DeleteLog", { daemon in ["id": try await Self.latest("intake", daemon)] }),
            fixed("io.remindd.Reminders.Report"), fixed("io.remindd.Reminders.History"), fixed("io.remindd.Reminders.Status"),
            fixed("io.remindd.Reminders.RelinkCollection"),
            fixed("io.remindd.Medication.StockSet", ["reminder": pills, "amount": .string("30")]),
            fixed("io.remindd.Medication.StockAdd", ["reminder": pills, "amount": .string("10")]),
            fixed("io.remindd.Medication.Stock"),
            fixed("io.remindd.Habits.Streak"), fixed("io.remindd.Habits.RestMark", ["from": .string("2026-12-10")]),
            fixed("io.remindd.Habits.RestUnmark", ["date": .string("2026-12-10")]), fixed("io.remindd.Habits.RestList"),
            fixed("io.remindd.Habits.RestStats"), fixed("io.remindd.Habits.FreezeHistory"), fixed("io.remindd.Habits.Recover"),
            fixed("io.remindd.Habits.Achievements"), fixed("io.remindd.Habits.Calendar"),
            fixed("io.remindd.Fitness.ExerciseSearch", ["text": .string("walk")]), fixed("io.remindd.Fitness.ExerciseList"),
            fixed("io.remindd.Fitness.ExerciseShow", ["name": .string("walking")]),
            fixed("io.remindd.Fitness.WorkoutAdd", ["exercise": .string("walking"), "minutes": .number(30), "intensity": .string("moderate")]),
            ("io.remindd.Fitness.WorkoutEdit", { daemon in ["id": try await Self.latest("workout", daemon), "minutes": .number(20)] }),
            ("io.remindd.Fitness.WorkoutDelete", { daemon in ["id": try await Self.latest("workout", daemon)] }),
            fixed("io.remindd.Fitness.FoodAdd", ["name": .string("Apple"), "kcal": .number(95)]),
            ("io.remindd.Fitness.FoodDelete", { daemon in ["id": try await Self.latest("food", daemon)] }),
            fixed("io.remindd.Fitness.Day"), fixed("io.remindd.Fitness.DayHistory", ["from": .string("2026-11-30")]),
            fixed("io.remindd.Fitness.ProfileGet"), fixed("io.remindd.Fitness.ProfileSet", ["weight": .string("70kg")]),
            fixed("io.remindd.Routines.List"), fixed("io.remindd.Routines.Show", ["id": .string("typical-week")]),
            fixed("io.remindd.Routines.Select", ["id": .string("typical-week")]), fixed("io.remindd.Routines.Current"),
            fixed("io.remindd.Routines.Clear"),
            fixed("io.remindd.Backup.Upload", ["name": .string("x.json"), "data": .string("e30=")]),
            fixed("io.remindd.Backup.ImportCalendar", ["path": .string(folder + "/work.ics")]),
            fixed("io.remindd.Backup.ImportLoop", ["path": .string(folder + "/loop")]),
            fixed("io.remindd.Backup.Import", ["path": .string(folder + "/backup.json"), "merge": .bool(true)]),
            fixed("io.remindd.Reminders.Remove", ["reminder": pills]),
        ]
    }

    @Test func everyMethodsChangesReachTheFeedBeforeItReplies() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-changes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for sub in ["collection", "loop/001 Walk"] { try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true) }
        try "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:w\r\nSUMMARY:Standup\r\nDTSTART:20261210T090000Z\r\nBEGIN:VALARM\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: folder + "/work.ics", atomically: true, encoding: .utf8)
        try "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?\n001,Walk,YES_NO,,,1,1,#E53935,,,,false\n"
            .write(toFile: folder + "/loop/Habits.csv", atomically: true, encoding: .utf8)
        try "Date,Value,Notes\n2026-11-30,YES_MANUAL,\n".write(toFile: folder + "/loop/001 Walk/Checkmarks.csv", atomically: true, encoding: .utf8)
        var configuration = DaemonConfiguration()
        configuration.collection = folder + "/collection"
        let daemon = try await TestDaemon(now: instant("2026-12-01T09:00:00Z"), systemZone: "UTC", configuration: configuration)
        try Data(VarlinkWire.encode(JSONValue.object(try await daemon.exportBackup()))).write(to: URL(fileURLWithPath: folder + "/backup.json"))
        let delivered = Mutex<[StoreChanges]>([])
        daemon.current.changeFeed.subscribe { changes in delivered.withLock { $0.append(changes) } }

        let calls = Self.calls(folder: folder)
        let every = Set(Catalogue.interfaces.flatMap(\.methods).map { $0.qualifiedName }).subtracting([Reminders.Watch.qualifiedName, Backup.Export.qualifiedName])
        #expect(Set(calls.map(\.method)) == every, "a method without a call here: add one")
        var changing: [String] = []
        for (index, call) in calls.enumerated() {
            if call.method == "io.remindd.Reminders.TakeLate" { await daemon.advance(to: instant("2026-12-03T07:30:00Z")) }
            let before = try await Self.followed(daemon)
            delivered.withLock { $0.removeAll() }
            do {
                try await daemon.call(call.method, try await call.parameters(daemon))
            } catch {
                // Recover needs a streak broken by a missed day, which no call here makes; refused, it changes nothing.
                if call.method != "io.remindd.Habits.Recover" { Issue.record("call \(index) \(call.method) was refused: \(error); give it what it needs") }
            }
            let after = try await Self.followed(daemon)
            if after != before { changing.append(call.method) }
            let expected = Self.expected(before: before, after: after)
            let batches = delivered.withLock { $0 }
            let got = StoreChanges(
                reminders: batches.reduce(into: [:]) { all, batch in for id in batch.reminders.keys { all[id] = .definition } },
                restDaysFrom: batches.contains(where: \.restDays) ? 0 : nil, fitness: batches.contains(where: \.fitness))
            #expect(got == expected, "\(call.method): delivered \(batches), expected \(expected)")
            // Delivered before the reply: nothing of it is left for the next writer's delivery.
            let left = try await daemon.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM temp.changedPart") }
            #expect(left == 0, "\(call.method)")
        }
        // The calls did change what they should (else the test proves nothing about them).
        #expect(Set(changing).isSuperset(of: [
            "io.remindd.Reminders.Add", "io.remindd.Reminders.Update", "io.remindd.Reminders.Disable", "io.remindd.Reminders.Enable",
            "io.remindd.Reminders.TakeLate", "io.remindd.Reminders.Log", "io.remindd.Reminders.Done", "io.remindd.Reminders.Skip",
            "io.remindd.Reminders.Unskip", "io.remindd.Reminders.Pause", "io.remindd.Reminders.Resume",
            "io.remindd.Reminders.DeleteLog", "io.remindd.Backup.ImportCalendar", "io.remindd.Backup.ImportLoop", "io.remindd.Reminders.Remove",
        ]), "\(changing)")
    }
}
