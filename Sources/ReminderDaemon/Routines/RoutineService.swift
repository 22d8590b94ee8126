import FitnessCore
import Foundation
import ReminderCore
import ReminderInterface
import ReminderStore

/// Recommended routines: read from their TOML files on every call; selecting one creates the reminders and
/// planned rest days that `FitnessCore`'s `RoutinePlan` decides, and clearing removes exactly what it created.
struct RoutineService: Sendable {
    let context: DaemonContext
    let reminders: ReminderService
    let habits: HabitService
    /// Keeps the selection in the profile.
    let fitness: FitnessService

    private static let selectionKey = "routine-selection"

    /// The selection as the store keeps it (JSON in the profile table; these keys since remindd 0.1).
    private struct StoredSelection: Codable {
        var routine: String
        var starts: String
        var remind: String?
        var reminders: [Int64]
        var restDays: [String]
    }

    /// Every routine that parses; a malformed file is reported with its file and line, and skipped.
    func routines() -> [Routine] {
        var found: [String: Routine] = [:]
        for directory in context.routineDirectories {
            // A routines folder that does not exist (the user's usually does not) has no routines.
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names.sorted() where name.hasSuffix(".toml") {
                let path = directory + "/" + name
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                do {
                    let routine = try Routine(toml: String(decoding: data, as: UTF8.self), file: path, library: context.exercises)
                    found[routine.id] = routine  // a user's file overrides a shipped one with the same id
                } catch {
                    context.say(.warning, "Routine skipped: \(error)")
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

    func routine(_ id: String) throws(ServiceError) -> Routine {
        let all = routines()
        guard let found = all.first(where: { $0.id == id.lowercased() || $0.name.lowercased() == id.lowercased() }) else {
            throw .invalidInput(parameter: "routine", message: "no routine '\(id)': available are \(all.map(\.id).joined(separator: ", "))")
        }
        return found
    }

    func current() throws(ServiceError) -> RoutineSelectionValue? {
        guard let text = try fitness.setting(Self.selectionKey) else { return nil }
        do {
            let stored = try JSONDecoder().decode(StoredSelection.self, from: Data(text.utf8))
            return RoutineSelectionValue(routine: stored.routine, start: stored.starts, at: stored.remind, reminders: stored.reminders, restDays: stored.restDays)
        } catch {
            throw .store("the stored routine selection cannot be read: \(error)")
        }
    }

    func select(_ id: String, start starts: String?, at remind: String?) async throws(ServiceError) -> RoutineSelectionValue {
        let routine = try routine(id)
        let now = context.clock.now()
        let start = try context.settings.date(starts, parameter: "start", now: now)
        var remindAt: TimeOfDay?
        if let remind {
            guard let parsed = ISO8601.parseTime(remind) else {
                throw .invalidTime(parameter: "at", message: "invalid time '\(remind)': write HH:MM, e.g. 18:00")
            }
            remindAt = parsed
        }
        if try current() != nil { try await clear() }
        let existing = try habits.restDates()
        let plan = RoutinePlan(routine: routine, starts: start, remind: remindAt, alreadyRest: existing)
        var created: [Int64] = []
        for reminder in plan.reminders {
            created.append(try await reminders.add(name: reminder.name, rule: reminder.rule, timeZone: nil, enabled: true).id)
        }
        let plannedRest = plan.restDays.map(\.description)
        try habits.markPlannedRest(plannedRest.map { RestDayRecord(date: $0, reason: "Recovery", activities: ["\(routine.name): rest day"]) })
        await context.feed.deliver()
        let stored = StoredSelection(routine: routine.id, starts: start.description, remind: remind, reminders: created, restDays: plannedRest)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text: String
        do { text = String(decoding: try encoder.encode(stored), as: UTF8.self) } catch { throw .store("\(error)") }
        try fitness.setSetting(Self.selectionKey, text)
        return RoutineSelectionValue(routine: routine.id, start: start.description, at: remind, reminders: created, restDays: plannedRest)
    }

    /// Removes exactly what the selection created (reminders the user already removed are skipped).
    func clear() async throws(ServiceError) {
        guard let selection = try current() else {
            throw .invalidInput(parameter: "routine", message: "no routine is selected: choose one with 'remindctl routine select ID'")
        }
        for id in selection.reminders {
            do {
                _ = try await reminders.remove(key: String(id))
            } catch .notFound {
                // Removed by the user already: nothing left to clear.
            }
        }
        for date in selection.restDays {
            // False when the user unmarked it already; a store that refuses fails the call.
            try habits.unmarkPlannedRest(date)
        }
        try fitness.setSetting(Self.selectionKey, nil)
    }
}
