import FitnessCore
import Foundation
import ReminderCore
import ReminderInterface
import ReminderStore

/// Recommended routines: read from their TOML files on every call; selecting one can create reminders for
/// its training days and plan its rest days, and clearing it removes exactly what it created.
extension ReminderService {
    /// Every routine that parses; a malformed file is reported in the journal with its file and line, and skipped.
    func routines() -> [Routine] {
        var found: [String: Routine] = [:]
        for directory in dependencies.routineDirectories {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names.sorted() where name.hasSuffix(".toml") {
                let path = directory + "/" + name
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                do {
                    let routine = try Routine(toml: String(decoding: data, as: UTF8.self), file: path, library: dependencies.exercises)
                    found[routine.id] = routine  // a user's file overrides a shipped one with the same id
                } catch {
                    dependencies.journal.send("Routine skipped: \(error)", priority: .warning)
                }
            }
        }
        func rank(_ routine: Routine) -> Int { Routine.Difficulty.allCases.firstIndex(of: routine.difficulty)! }
        return found.values.sorted { (rank($0), $0.name) < (rank($1), $1.name) }
    }

    func routineValue(_ routine: Routine) -> RoutineValue {
        RoutineValue(
            id: routine.id, name: routine.name, description: routine.description, difficulty: routine.difficulty.rawValue,
            days: routine.days.map {
                RoutineDayValue(number: $0.number, title: $0.title, description: $0.description, exercises: $0.exercises, rest: $0.rest, notes: $0.notes)
            })
    }

    func routineList() -> [RoutineValue] { routines().map(routineValue) }

    func showRoutine(_ id: String) throws(ServiceError) -> RoutineValue { routineValue(try routine(id)) }

    func routine(_ id: String) throws(ServiceError) -> Routine {
        let all = routines()
        guard let found = all.first(where: { $0.id == id.lowercased() || $0.name.lowercased() == id.lowercased() }) else {
            throw .invalidInput(parameter: "routine", message: "no routine '\(id)': available are \(all.map(\.id).joined(separator: ", "))")
        }
        return found
    }

    private static let selectionKey = "routine-selection"

    func currentRoutine() throws(ServiceError) -> RoutineSelectionValue? {
        do {
            guard let text = try dependencies.store.profile(Self.selectionKey) else { return nil }
            return try JSONDecoder().decode(RoutineSelectionValue.self, from: Data(text.utf8))
        } catch let error as StoreError {
            throw ServiceError(error)
        } catch {
            throw .store("the stored routine selection cannot be read: \(error)")
        }
    }

    func selectRoutine(_ id: String, starts: String?, remind: String?) throws(ServiceError) -> RoutineSelectionValue {
        let routine = try routine(id)
        let zone = try zone(named: nil)
        let today = LocalDate(dayNumber: zone.localDayNumber(at: dependencies.now()))
        let start: LocalDate
        if let starts {
            guard let parsed = ISO8601.parseDate(starts) else { throw .invalidTime(parameter: "starts", message: "invalid date '\(starts)': write YYYY-MM-DD") }
            start = parsed
        } else {
            start = today
        }
        var remindAt: TimeOfDay?
        if let remind {
            guard let parsed = ISO8601.parseTime(remind) else {
                throw .invalidTime(parameter: "remind", message: "invalid time '\(remind)': write HH:MM, e.g. 18:00")
            }
            remindAt = parsed
        }
        if try currentRoutine() != nil { try clearRoutine() }
        let existing: Set<LocalDate>
        do { existing = Set(try dependencies.store.restDays().compactMap { ISO8601.parseDate($0.date) }) } catch { throw ServiceError(error) }
        let plan = RoutinePlan(routine: routine, starts: start, remind: remindAt, alreadyRest: existing)
        var created: [Int64] = []
        for reminder in plan.reminders {
            created.append(try add(name: reminder.name, rule: reminder.rule, timeZone: nil, enabled: true).id)
        }
        let plannedRest = plan.restDays.map(\.description)
        do { try dependencies.store.markRestDays(plannedRest.map { ($0, "Recovery", ["\(routine.name): rest day"]) }) } catch { throw ServiceError(error) }
        if !plannedRest.isEmpty { habitsChanged() }
        let selection = RoutineSelectionValue(routine: routine.id, starts: start.description, remind: remind, reminders: created, restDays: plannedRest)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try dependencies.store.setProfile(Self.selectionKey, String(decoding: try encoder.encode(selection), as: UTF8.self))
        } catch {
            throw ServiceError(mapping: error)
        }
        return selection
    }

    /// Removes exactly what the selection created (reminders the user already removed are skipped).
    func clearRoutine() throws(ServiceError) {
        guard let selection = try currentRoutine() else {
            throw .invalidInput(parameter: "routine", message: "no routine is selected: choose one with 'remindctl routine select ID'")
        }
        for id in selection.reminders {
            try? remove(key: String(id))
        }
        for date in selection.restDays {
            _ = try? dependencies.store.unmarkRestDay(date)
        }
        do { try dependencies.store.removeProfile(Self.selectionKey) } catch { throw ServiceError(error) }
    }
}
