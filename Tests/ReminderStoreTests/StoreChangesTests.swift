import Foundation
import GRDB
import ReminderCore
import Testing

@testable import ReminderStore

/// The change feed's activities: what the habits count, net per instant and zone, from any write (a log, a
/// workout, a reminder removed with its logs), or "too many" past the list's limit.
@Suite("Store changes: activities")
struct StoreChangesTests {
    let now = Instant(secondsSinceEpoch: 1_795_000_000)
    let store: ReminderStore
    let meds: StoredReminder

    init() throws {
        store = try ReminderStore(database: try DatabaseQueue())
        meds = try store.reminders.add(name: "Meds", rule: RuleSpec(daily: true, at: "08:00"), timeZone: "UTC", now: now)
        _ = try store.takeChanges()
    }

    func counts(_ changes: StoreChanges) -> [StoreChanges.ActivityCount] {
        guard case .listed(let counts) = changes.activities else { return [] }
        return counts.sorted { ($0.at, $0.timeZone) < ($1.at, $1.timeZone) }
    }

    @Test func aLogAndAWorkoutAreAddedAndTheirDeletionRemoved() throws {
        _ = try store.intake.log(reminderID: meds.id, at: now, timeZone: "Europe/Berlin")
        let second = try store.intake.log(reminderID: meds.id, at: now, timeZone: "Europe/Berlin")
        _ = try store.fitness.addWorkout(exercise: "running", minutes: 30, intensity: "moderate", met: 9.8, kcal: 400, at: now.adding(seconds: 60), timeZone: "UTC")
        #expect(counts(try store.takeChanges()) == [
            .init(at: now.secondsSinceEpoch, timeZone: "Europe/Berlin", count: 2), .init(at: now.secondsSinceEpoch + 60, timeZone: "UTC", count: 1),
        ])
        _ = try store.intake.delete(id: second.id)
        #expect(counts(try store.takeChanges()) == [.init(at: now.secondsSinceEpoch, timeZone: "Europe/Berlin", count: -1)])
        // Added and deleted between two takes: nothing to count.
        let brief = try store.intake.log(reminderID: meds.id, at: now.adding(seconds: 7), timeZone: "UTC")
        _ = try store.intake.delete(id: brief.id)
        #expect(counts(try store.takeChanges()).isEmpty)
    }

    @Test func aReminderRemovedTakesItsLogsOutOfTheCounts() throws {
        _ = try store.intake.log(reminderID: meds.id, at: now, timeZone: "UTC")
        _ = try store.takeChanges()
        try store.reminders.remove(id: meds.id)
        let changes = try store.takeChanges()
        #expect(counts(changes) == [.init(at: now.secondsSinceEpoch, timeZone: "UTC", count: -1)])
        #expect(changes.reminders[meds.id]?.contains(.definition) == true)
    }

    @Test func moreThanTheLimitAreTooManyToList() throws {
        try store.write { db in
            for index in 0...StoreChanges.Activities.listLimit {
                try db.execute(sql: "INSERT INTO intake (reminderId, at, timeZone) VALUES (?, ?, 'UTC')", arguments: [meds.id, index])
            }
        }
        #expect(try store.takeChanges().activities == .tooMany)
        #expect(try store.takeChanges().isEmpty)
    }
}
