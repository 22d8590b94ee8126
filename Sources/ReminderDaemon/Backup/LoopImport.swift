import Foundation
import GRDB
import ReminderCore
import ReminderInterface
import ReminderStore

/// Reads Loop Habit Tracker's files (the folder of its CSV export, or its SQLite backup) into
/// ``LoopHabits/Habit`` values; what they become is ``LoopHabits/plan(_:)``'s decision.
enum LoopFiles {
    static func habits(at path: String) throws(ServiceError) -> [LoopHabits.Habit] {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .invalidInput(parameter: "path", message: "cannot read \(path): no such file or folder")
        }
        // A FIFO or a device would hang the import (15 s for a FIFO): only a folder or a regular file is read.
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return try csvExport(path)
        case S_IFREG: break
        default: throw .invalidInput(parameter: "path", message: "\(path) is not a regular file or folder: give Loop's .db backup or the folder of its CSV export")
        }
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
        // Habits.csv was read from it just now; a folder that cannot be listed has no habit folders to read.
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
                // Every value is read with its type and range checked: a NULL, a text where a number belongs or
                // a timestamp outside the years 1900 to 9999 refuses the file with its place (they trapped, or
                // hung the import for 30 s).
                let habitRows = try Row.fetchAll(db, sql: "SELECT rowid, * FROM Habits ORDER BY position")
                for row in habitRows {
                    let reader = RowReader(row, table: "Habits")
                    numerical[try reader.value("id")] = (try reader.value("type") as Int64?) == 1
                }
                for row in try Row.fetchAll(db, sql: "SELECT rowid, habit, timestamp, value FROM Repetitions") {
                    let reader = RowReader(row, table: "Repetitions")
                    let habit: Int64 = try reader.value("habit")
                    let millis: Int64 = try reader.value("timestamp")
                    let seconds = millis / 1000
                    guard Instant.storable.contains(Instant(secondsSinceEpoch: seconds)) else {
                        throw reader.unusable("timestamp", "\(millis) is not a day between the years 1900 and 9999")
                    }
                    let date = LocalDate(dayNumber: Int(seconds / 86_400))  // Loop stores a day as its midnight UTC
                    marks[habit, default: [:]][date] = LoopHabits.Mark(stored: try reader.value("value"), numerical: numerical[habit] ?? false)
                }
                return try habitRows.map { row in
                    let reader = RowReader(row, table: "Habits")
                    let id: Int64 = try reader.value("id")
                    var reminder: (time: TimeOfDay, weekdays: WeekdaySet)?
                    let hour: Int64? = try reader.value("reminder_hour"), minute: Int64? = try reader.value("reminder_min")
                    if let hour, let minute {
                        guard (0...23).contains(hour), (0...59).contains(minute), let time = TimeOfDay(hour: Int(hour), minute: Int(minute)) else {
                            throw reader.unusable("reminder_hour", "\(hour):\(minute) is not a time of day")
                        }
                        let days: Int64 = try reader.value("reminder_days") ?? 127
                        guard (0...127).contains(days) else { throw reader.unusable("reminder_days", "\(days) is not a set of weekdays (0 to 127)") }
                        reminder = (time, LoopHabits.weekdays(loopBits: Int(days)))
                    }
                    let name: String? = try reader.value("name")
                    return LoopHabits.Habit(
                        name: name ?? "Habit \(id)", numerical: numerical[id] ?? false, archived: (try reader.value("archived") as Int64?) == 1,
                        reminder: reminder, marks: marks[id] ?? [:])
                }
            }
        } catch let unusable as UnusableRow {
            throw .invalidInput(parameter: "path", message: "\(path): \(unusable); nothing was imported")
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
        // The names `add` would refuse are refused here too, with the habit named as Loop has it.
        for reminder in plan.reminders {
            do { _ = try ReminderName.checked(reminder.name) } catch {
                // The name as escaped text: the message stays one line whatever the name holds.
                let shown = reminder.name.prefix(60).unicodeScalars.map { $0.escaped(asASCII: false) }.joined()
                throw .invalidInput(parameter: "path", message: "\(path): habit \"\(shown)\": \(error.message); rename it in Loop and export again; nothing was imported")
            }
        }
        let zone = try context.settings.zone(named: nil)
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
            try stores.backups.importHabits(reminders, restDays: plan.restDays.map(\.description), reason: "Other", zoneName: context.settings.systemZone, now: now)
        }
        await context.feed.deliver()
        return .init(reminders: reminders.count, logs: reminders.map(\.logs.count).reduce(0, +), restDays: restDays, notes: plan.notes)
    }
}
