import Foundation
import GRDB
import ReminderCore
import ReminderInterface
import ReminderStore

/// Reads Loop Habit Tracker's files (the folder of its CSV export, or its SQLite backup) into
/// ``LoopHabits/Habit`` values; what they become is ``LoopHabits/plan(_:)``'s decision.
enum LoopFiles {
    static func habits(at path: String) throws(ServiceError) -> [LoopHabits.Habit] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .invalidInput(parameter: "path", message: "cannot read \(path): no such file or folder")
        }
        if isDirectory.boolValue { return try csvExport(path) }
        if path.lowercased().hasSuffix(".zip") {
            throw .invalidInput(parameter: "path", message: "\(path) is Loop's zipped CSV export: unzip it first (unzip '\(path)' -d loop) and import the folder")
        }
        return try database(path)
    }

    /// `Habits.csv` and each habit's `NNN Name/Checkmarks.csv`.
    private static func csvExport(_ folder: String) throws(ServiceError) -> [LoopHabits.Habit] {
        guard let habits = FileManager.default.contents(atPath: folder + "/Habits.csv") else {
            throw .invalidInput(parameter: "path", message: "\(folder) has no Habits.csv: give the folder of Loop's CSV export, or its .db backup")
        }
        var checkmarks: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            if let data = FileManager.default.contents(atPath: folder + "/" + name + "/Checkmarks.csv") {
                checkmarks[name] = String(decoding: data, as: UTF8.self)
            }
        }
        do {
            return try LoopHabits.habits(habitsCSV: String(decoding: habits, as: UTF8.self), checkmarks: checkmarks)
        } catch {
            throw .invalidInput(parameter: "path", message: "\(folder): \(error.description); nothing was imported")
        }
    }

    /// The `Habits` and `Repetitions` tables of Loop's backup (`Loop Habits Backup ....db`), read only.
    private static func database(_ path: String) throws(ServiceError) -> [LoopHabits.Habit] {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            return try queue.read { db in
                guard try db.tableExists("Habits"), try db.tableExists("Repetitions") else {
                    throw LoopHabits.Refused(description: "it has no Habits and Repetitions tables: is it Loop Habit Tracker's backup?")
                }
                var marks: [Int64: [LocalDate: LoopHabits.Mark]] = [:]
                var numerical: [Int64: Bool] = [:]
                let habitRows = try Row.fetchAll(db, sql: "SELECT * FROM Habits ORDER BY position")
                for row in habitRows { numerical[row["id"]] = (row["type"] as Int?) == 1 }
                for row in try Row.fetchAll(db, sql: "SELECT habit, timestamp, value FROM Repetitions") {
                    let habit: Int64 = row["habit"]
                    let millis: Int64 = row["timestamp"]
                    let date = LocalDate(dayNumber: Int(millis / 86_400_000))  // Loop stores a day as its midnight UTC
                    marks[habit, default: [:]][date] = LoopHabits.Mark(stored: row["value"], numerical: numerical[habit] ?? false)
                }
                return habitRows.map { row in
                    let id: Int64 = row["id"]
                    var reminder: (time: TimeOfDay, weekdays: WeekdaySet)?
                    if let hour: Int = row["reminder_hour"], let minute: Int = row["reminder_min"], let time = TimeOfDay(hour: hour, minute: minute) {
                        reminder = (time, LoopHabits.weekdays(loopBits: row["reminder_days"] ?? 127))
                    }
                    return LoopHabits.Habit(
                        name: row["name"] ?? "Habit \(id)", numerical: numerical[id] ?? false, archived: (row["archived"] as Int?) == 1,
                        reminder: reminder, marks: marks[id] ?? [:])
                }
            }
        } catch let refused as LoopHabits.Refused {
            throw .invalidInput(parameter: "path", message: "\(path): \(refused.description); nothing was imported")
        } catch {
            throw .invalidInput(parameter: "path", message: "\(path) is neither the folder of Loop's CSV export nor its SQLite backup (\(error)); nothing was imported")
        }
    }
}

extension BackupService {
    /// Imports Loop Habit Tracker's habits, marks and skips in one transaction, then plans and counts again.
    func importLoop(path: String) async throws(ServiceError) -> Backup.ImportLoop.Reply {
        guard path.hasPrefix("/") else { throw .invalidInput(parameter: "path", message: "give an absolute path, not '\(path)'") }
        let plan = LoopHabits.plan(try LoopFiles.habits(at: path))
        let zone = try context.zone(named: nil)
        let now = context.clock.now()
        let noon = TimeOfDay(hour: 12, minute: 0)!
        let reminders = plan.reminders.map { reminder in
            let days = plan.logs.filter { $0.name == reminder.name }.map(\.date)
            return ImportedReminder(
                name: reminder.name, rule: reminder.rule, enabled: reminder.enabled,
                createdAt: days.min().map { zone.resolve(LocalDateTime(date: $0, time: TimeOfDay(hour: 0, minute: 0)!)) } ?? now,
                logs: days.map { zone.resolve(LocalDateTime(date: $0, time: noon)) }.filter { $0 <= now })
        }
        let restDays = try storing { () throws(StoreError) in
            try context.store.backups.importHabits(reminders, restDays: plan.restDays.map(\.description), reason: "Other", zoneName: context.systemZone, now: now)
        }
        do { try await scheduling.load() } catch { throw ServiceError(error) }
        await habits.changed(now: now, activity: .unknown)
        return .init(reminders: reminders.count, logs: reminders.map(\.logs.count).reduce(0, +), restDays: restDays, notes: plan.notes)
    }
}
