import NIOCore
import ReminderCore
import ReminderScheduling
import ReminderStore

/// Reads every enabled reminder for a start, a reload or a restore, and builds the schedule from them: off the
/// scheduling actor and off the event loops, so that neither a firing nor a call waits for it.
///
/// A large store is read and its rules made in parallel parts, one per core, each on its own SQLite reader on
/// NIO's thread pool. Not in a task group: with NIO as Swift's global executor a child task stays on the event
/// loop that queued it, and the parts ran one after the other on one loop (a start with 100,000 reminders took
/// 1.2-1.9 s with one core busy). Each part keeps what the schedule needs of a reminder, not its row.
struct ScheduleLoader: Sendable {
    /// A reminder as it is read: ready to schedule, or left out (the warning names it).
    enum Loaded: Sendable {
        case usable(SchedulableReminder, handledThrough: Instant, fromLastDose: Bool)
        case unusable(name: String, id: Int64)
    }

    /// What a load built, to replace the schedule there was in one step.
    struct Schedule: Sendable {
        var scheduler = Scheduler()
        /// The notices before occurrences (`--before`), planned from the load's instant.
        var headsUps = HeadsUpPlan()
        /// The reminders timed from their last dose (`--from-last-dose`).
        var timedFromLastDose: Set<Int64> = []
        /// How many enabled reminders were read, usable or not.
        var count = 0
    }

    /// Reminder ids read at a time by a part.
    static let chunk = 2_000

    let context: DaemonContext
    let reminders: RemindersStore

    /// Reads and builds. A part whose read fails fails the load (the schedule there was is kept by the caller).
    func load() async throws(StoreError) -> Schedule {
        guard let bounds = try reminders.idBounds() else { return Schedule() }
        let parts = bounds.count > 10_000 ? max(1, System.coreCount) : 1
        let step = (bounds.upperBound - bounds.lowerBound) / Int64(parts) + 1
        let loaded: [[Loaded]]
        do {
            loaded = try await withThrowingTaskGroup(of: (Int, [Loaded]).self) { group in
                for part in 0..<parts {
                    let low = bounds.lowerBound + Int64(part) * step
                    let ids = low...min(low + step - 1, bounds.upperBound)
                    group.addTask { (part, try await offTheEventLoops { () throws(StoreError) in try read(ids) }) }
                }
                var results = Array(repeating: [Loaded](), count: parts)
                for try await (part, rows) in group { results[part] = rows }
                return results
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .unavailable(path: context.storePath, detail: "\(error)")
        }
        return build(loaded)
    }

    /// One part: its reminders read a chunk at a time, each made ready to schedule.
    private func read(_ ids: ClosedRange<Int64>) throws(StoreError) -> [Loaded] {
        var loaded: [Loaded] = []
        for low in stride(from: ids.lowerBound, through: ids.upperBound, by: Self.chunk) {
            for reminder in try reminders.all(ids: low...min(low + Int64(Self.chunk) - 1, ids.upperBound)) where reminder.enabled {
                do {
                    loaded.append(.usable(
                        try Self.schedulable(reminder, context: context), handledThrough: Instant(secondsSinceEpoch: reminder.handledThrough),
                        fromLastDose: reminder.rule.fromLastDose == true))
                } catch {
                    // The error itself is not needed: the warning says which reminder and that it is left out.
                    loaded.append(.unusable(name: reminder.name, id: reminder.id))
                }
            }
        }
        return loaded
    }

    /// The schedule of the parts' reminders, in id order, with their notices before from now.
    private func build(_ loaded: [[Loaded]]) -> Schedule {
        var schedule = Schedule()
        let now = context.clock.now()
        schedule.scheduler.reserveCapacity(loaded.map(\.count).reduce(0, +))
        for reminder in loaded.joined() {
            schedule.count += 1
            switch reminder {
            case .unusable(let name, let id):
                context.say(.warning, DaemonMessages.invalidNow, name, id)
            case .usable(let schedulable, let handledThrough, let fromLastDose):
                schedule.scheduler.schedule(schedulable, handledThrough: handledThrough)
                if schedulable.delivery.notification.beforeMinutes != nil { schedule.headsUps.plan(schedulable, after: now) }
                if fromLastDose { schedule.timedFromLastDose.insert(schedulable.id) }
            }
        }
        return schedule
    }

    /// A stored reminder as the scheduler holds it: its firing rule (``DaemonContext/firingRule(of:)``) and zone.
    static func schedulable(_ reminder: StoredReminder, context: DaemonContext) throws(ServiceError) -> SchedulableReminder {
        SchedulableReminder(
            id: reminder.id, name: reminder.name, rule: try context.firingRule(of: reminder), zone: try context.settings.zone(named: reminder.timeZone),
            windowSeconds: reminder.windowSeconds, delivery: reminder.delivery)
    }
}
