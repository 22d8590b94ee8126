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
        case unusable(name: String, id: Int64, reason: String)

        var id: Int64 {
            switch self {
            case .usable(let reminder, _, _): reminder.id
            case .unusable(_, let id, _): id
            }
        }
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
        let parts = bounds.count > Self.partThreshold ? max(1, System.coreCount) : 1
        let step = (bounds.upperBound - bounds.lowerBound) / Int64(parts) + 1
        return build(try await inParts(parts) { part throws(StoreError) in
            let ids = bounds.lowerBound + Int64(part) * step...min(bounds.lowerBound + Int64(part + 1) * step - 1, bounds.upperBound)
            var loaded: [Loaded] = []
            for low in stride(from: ids.lowerBound, through: ids.upperBound, by: Self.chunk) {
                loaded += ready(try reminders.all(ids: low...min(low + Int64(Self.chunk) - 1, ids.upperBound)))
            }
            return loaded
        })
    }

    /// The enabled reminders among `ids` as they are in the store now, each ready to schedule or left out; an
    /// id with no enabled reminder is not there. Read as a load reads (thousands changed at once: an import, a
    /// calendar read), without reading the others: a calendar of 20,000 items read a chunk at a time loaded the
    /// whole growing schedule again at each chunk, 8-11 s instead of 2.
    func read(ids: [Int64]) async throws(StoreError) -> [Int64: Loaded] {
        let parts = ids.count > Self.partThreshold ? max(1, System.coreCount) : 1
        let step = ids.count / parts + 1
        let loaded = try await inParts(parts) { part throws(StoreError) in
            let own = ids[min(ids.count, part * step)..<min(ids.count, (part + 1) * step)]
            var loaded: [Loaded] = []
            for low in stride(from: own.startIndex, to: own.endIndex, by: Self.chunk) {
                loaded += ready(try reminders.all(among: Array(own[low..<min(low + Self.chunk, own.endIndex)])))
            }
            return loaded
        }
        return Dictionary(loaded.joined().map { ($0.id, $0) }) { first, _ in first }
    }

    /// Above this many reminders, they are read in parallel parts, one per core.
    private static let partThreshold = 10_000

    /// Runs `read` for each part on NIO's thread pool, all at once; the parts' results in order.
    private func inParts(_ parts: Int, _ read: @escaping @Sendable (Int) throws(StoreError) -> [Loaded]) async throws(StoreError) -> [[Loaded]] {
        do {
            return try await withThrowingTaskGroup(of: (Int, [Loaded]).self) { group in
                for part in 0..<parts {
                    group.addTask { (part, try await offTheEventLoops { () throws(StoreError) in try read(part) }) }
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
    }

    /// The enabled ones of `reminders`, each made ready to schedule.
    func ready(_ reminders: [StoredReminder]) -> [Loaded] {
        var deliveries = SharedDeliveries()
        var loaded: [Loaded] = []
        // One pass over the rows as read: `filter(\.enabled)` first copied each row (a key path's projection
        // for `enabled`, then the whole row), and `reminder.rule.fromLastDose` copied the whole rule for a flag.
        for reminder in reminders where reminder.fields.enabled {
            do throws(ServiceError) {
                loaded.append(.usable(
                    try Self.schedulable(reminder, context: context, sharing: &deliveries),
                    handledThrough: Instant(secondsSinceEpoch: reminder.fields.handledThrough), fromLastDose: reminder.fields.rule.fromLastDose == true))
            } catch {
                loaded.append(.unusable(name: reminder.fields.name, id: reminder.id, reason: error.message))
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
            case .unusable(let name, let id, _):
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
    /// (`deliveries`: made with others, whose equal deliveries share one copy.)
    static func schedulable(
        _ reminder: StoredReminder, context: DaemonContext, sharing deliveries: inout SharedDeliveries
    ) throws(ServiceError) -> SchedulableReminder {
        // `reminder.fields.name`, not `reminder.name`: a key path applied to a borrowed row copied the whole row
        // first (a tenth of a start with 100,000 reminders).
        SchedulableReminder(
            id: reminder.id, name: reminder.fields.name, rule: try context.firingRule(of: reminder),
            zone: try context.settings.zone(named: reminder.fields.timeZone), windowSeconds: reminder.fields.windowSeconds,
            delivery: reminder.fields.delivery, sharing: &deliveries)
    }

    static func schedulable(_ reminder: StoredReminder, context: DaemonContext) throws(ServiceError) -> SchedulableReminder {
        var unshared = SharedDeliveries()
        return try schedulable(reminder, context: context, sharing: &unshared)
    }
}
