import HeapModule
import ReminderCore

/// A reminder as the scheduler sees it: an id, a rule and the zone it is read in.
public struct SchedulableReminder: Sendable, Hashable {
    public let id: Int64
    public let name: String
    public let rule: ReminderRule
    public let zone: TimeZoneRules
    /// The window, `Int64.min` for none: an optional would take 16 bytes (the scheduler holds one per reminder).
    private let storedWindowSeconds: Int64
    /// The delivery, nil when it is the default (as for most reminders): one word instead of 40 bytes.
    let storedDelivery: OutOfLine<Delivery>?

    /// The reminder's own window (see `ReminderRule.windowEnd(of:windowSeconds:in:)`); nil: the default.
    public var windowSeconds: Int64? { storedWindowSeconds == .min ? nil : storedWindowSeconds }
    /// Repeats, command and urgency of its announcements.
    public var delivery: Delivery { storedDelivery?.value ?? .default }

    public init(id: Int64, name: String, rule: ReminderRule, zone: TimeZoneRules, windowSeconds: Int64? = nil, delivery: Delivery = Delivery()) {
        var unshared = SharedDeliveries()
        self.init(id: id, name: name, rule: rule, zone: zone, windowSeconds: windowSeconds, delivery: delivery, sharing: &unshared)
    }

    /// One of many made together: its delivery shares one copy with the equal ones `deliveries` has seen.
    public init(
        id: Int64, name: String, rule: ReminderRule, zone: TimeZoneRules, windowSeconds: Int64?, delivery: Delivery,
        sharing deliveries: inout SharedDeliveries
    ) {
        self.id = id
        self.name = name
        self.rule = rule
        self.zone = zone
        storedWindowSeconds = windowSeconds ?? .min
        storedDelivery = deliveries.shared(delivery)
    }

    /// When the window of one of its occurrences closes.
    public func windowEnd(of occurrence: Occurrence) -> Instant {
        rule.windowEnd(of: occurrence, windowSeconds: windowSeconds, in: zone)
    }
}

/// Equal deliveries kept as one copy: a calendar's 23,863 alarms have a handful of deliveries between them (its
/// name, their repeats), and a copy each took 280 bytes, a third of the schedule's memory.
public struct SharedDeliveries: Sendable {
    private var copies: [Delivery: OutOfLine<Delivery>] = [:]

    public init() {}

    /// The copy to keep for `delivery` (nil for the default one, which is not kept).
    mutating func shared(_ delivery: Delivery) -> OutOfLine<Delivery>? {
        if delivery.isDefault { return nil }
        if let copy = copies[delivery] { return copy }
        let copy = OutOfLine(delivery)
        copies[delivery] = copy
        return copy
    }
}

/// A firing that is due: the latest slot at or before "now", and how many slots were missed with it.
public struct DueFiring: Sendable, Hashable {
    public let reminder: SchedulableReminder
    /// The slot to announce (the latest one when several were missed).
    public let occurrence: Occurrence
    /// Slots that came due since the reminder was last handled (1 in normal operation).
    public let slotsDue: Int
    /// Seconds between the slot's instant and now.
    public let lateSeconds: Int64

    public init(reminder: SchedulableReminder, occurrence: Occurrence, slotsDue: Int, lateSeconds: Int64) {
        self.reminder = reminder
        self.occurrence = occurrence
        self.slotsDue = slotsDue
        self.lateSeconds = lateSeconds
    }

    /// `reminder-{id}-{suffix}`.
    public var slotID: String { occurrence.slotID(reminderID: String(reminder.id)) }

    /// The dose this occurrence asks for (its day's step in a tapering course).
    public var dose: Dose? { reminder.delivery.medication.dose(on: occurrence.scheduledDate) }
}

/// What the daemon does with a due firing.
public enum FiringAction: Sendable, Hashable {
    /// Announce it: on time.
    case fire(DueFiring)
    /// Announce it as missed and caught up late (after downtime, suspend or a clock jump).
    case catchUp(DueFiring)
    /// Do not announce it: the user already logged the intake.
    case suppress(DueFiring, reason: String)
    /// Record it without announcing: missed while catch-up is off.
    case skipMissed(DueFiring)

    /// The firing the action is about.
    public var firing: DueFiring {
        switch self {
        case .fire(let f), .catchUp(let f), .suppress(let f, _), .skipMissed(let f): return f
        }
    }
}

/// Keeps the next firing of every enabled reminder in a priority queue and says which are due.
///
/// A value type with no clock: "now" is always a parameter. Adding, changing or removing one reminder
/// touches only that reminder (O(log n)); a queue entry is stale, and skipped lazily, when its reminder is
/// gone or its instant is no longer the reminder's next one (a duplicate left by re-scheduling to the same
/// instant is handled once: handling moves the reminder's next instant on).
public struct Scheduler: Sendable {
    /// A firing that counts as on time when it is handled within this many seconds of its instant.
    public var onTimeToleranceSeconds: Int64 = 60

    private struct Entry: Comparable, Sendable {
        let instant: Int64
        let reminderID: Int64
        static func < (a: Entry, b: Entry) -> Bool { (a.instant, a.reminderID) < (b.instant, b.reminderID) }
    }

    private struct State: Sendable {
        var reminder: SchedulableReminder
        /// Firings at or before this instant are handled (announced, suppressed or recorded).
        var handledThrough: Instant
        /// The next firing's instant, or `Int64.max` when the rule has ended (its Occurrence is recomputed on
        /// demand). Not an optional: the padding of one would cost 8 bytes per reminder.
        var nextInstant: Int64

        var nextOccurrence: Occurrence? { reminder.rule.nextOccurrence(after: handledThrough, in: reminder.zone) }
    }

    private var queue = Heap<Entry>()
    private var states = StateTable()

    public init() {}

    /// The number of reminders scheduled.
    public var count: Int { states.count }

    /// Makes room for `count` reminders at once (start-up with a large store).
    public mutating func reserveCapacity(_ count: Int) {
        states.reserveCapacity(count)
        queue.reserveCapacity(count)
    }

    /// The states, stored densely, and found by id through an index sorted by id (a dictionary, even of
    /// indices, would be mostly empty buckets: 3 MB for 100,000); removal moves the last state into the hole.
    private struct StateTable: Sendable {
        private struct IndexEntry: Sendable {
            let id: Int64
            var slot: Int32
        }
        private var values: [State] = []
        private var index: [IndexEntry] = []

        var count: Int { values.count }

        mutating func reserveCapacity(_ count: Int) {
            values.reserveCapacity(count)
            index.reserveCapacity(count)
        }

        /// Changes every state in place.
        mutating func update(_ change: (inout State) -> Void) {
            for index in values.indices { change(&values[index]) }
        }

        /// Where `id` is in the index, or where it would go.
        private func position(of id: Int64) -> (Int, found: Bool) {
            if let last = index.last, last.id < id { return (index.count, false) }  // a new reminder, or a load
            var low = 0
            var high = index.count
            while low < high {
                let middle = (low + high) / 2
                if index[middle].id < id { low = middle + 1 } else { high = middle }
            }
            return (low, low < index.count && index[low].id == id)
        }

        /// Removes the states of `ids`: a few one at a time, many in one pass over the table (removed one at a
        /// time, each moved the index's tail: 20,000 alarms of an emptied calendar, a fifth of a second of memmove).
        /// Ids not in the table cost a lookup (a calendar read at start asks to remove each new alarm first).
        mutating func remove(_ ids: Set<Int64>) {
            let present = ids.filter { position(of: $0).found }
            guard present.count > 16 else {
                for id in present { self[id] = nil }
                return
            }
            var kept: [State] = []
            kept.reserveCapacity(values.count)
            var newSlot = [Int32](repeating: -1, count: values.count)
            for (slot, state) in values.enumerated() where !present.contains(state.reminder.id) {
                newSlot[slot] = Int32(kept.count)
                kept.append(state)
            }
            index = index.compactMap { entry in
                let slot = newSlot[Int(entry.slot)]
                return slot < 0 ? nil : IndexEntry(id: entry.id, slot: slot)
            }
            values = kept
        }

        subscript(id: Int64) -> State? {
            get {
                let (position, found) = position(of: id)
                return found ? values[Int(index[position].slot)] : nil
            }
            set {
                let (position, found) = position(of: id)
                if let newValue {
                    if found {
                        values[Int(index[position].slot)] = newValue
                    } else {
                        index.insert(IndexEntry(id: id, slot: Int32(values.count)), at: position)
                        values.append(newValue)
                    }
                } else if found {
                    let slot = index.remove(at: position).slot
                    let last = values.removeLast()
                    if Int(slot) < values.count {
                        values[Int(slot)] = last
                        index[self.position(of: last.reminder.id).0].slot = slot
                    }
                }
            }
        }
    }

    /// Adds or replaces a reminder. Firings at or before `handledThrough` are never reported as due.
    public mutating func schedule(_ reminder: SchedulableReminder, handledThrough: Instant) {
        var state = State(reminder: reminder, handledThrough: handledThrough, nextInstant: .max)
        state.nextInstant = state.nextOccurrence?.instant.secondsSinceEpoch ?? .max
        if state.nextInstant != .max {
            queue.insert(Entry(instant: state.nextInstant, reminderID: reminder.id))
        }
        states[reminder.id] = state
    }

    /// The reminder with `id` as it is scheduled now (nil: not scheduled).
    public func reminder(id: Int64) -> SchedulableReminder? { states[id]?.reminder }

    /// Removes a reminder; its queued entry is dropped lazily.
    public mutating func remove(id: Int64) {
        states[id] = nil
    }

    /// Removes many reminders at once (a changed folder's), in one pass rather than one removal each.
    public mutating func remove(ids: Set<Int64>) {
        states.remove(ids)
    }

    /// The clock went back to `now`: every reminder handled past it is re-planned from `now`, so that its slots
    /// that are in the future again come due again (the rule `ReminderStore.rewindHandled(to:)` keeps in the store).
    public mutating func rewind(to now: Instant) {
        var requeued: [Entry] = []
        states.update { state in
            guard state.handledThrough > now else { return }
            state.handledThrough = now
            state.nextInstant = state.nextOccurrence?.instant.secondsSinceEpoch ?? .max
            if state.nextInstant != .max { requeued.append(Entry(instant: state.nextInstant, reminderID: state.reminder.id)) }
        }
        for entry in requeued { queue.insert(entry) }
    }

    /// The instant at which the daemon must wake next, or nil when nothing will fire.
    public mutating func nextDeadline() -> Instant? {
        dropStaleEntries()
        return queue.min.map { Instant(secondsSinceEpoch: $0.instant) }
    }

    /// The earliest upcoming firing and its reminder.
    public mutating func nextFiring() -> (SchedulableReminder, Occurrence)? {
        dropStaleEntries()
        guard let top = queue.min, let state = states[top.reminderID], let next = state.nextOccurrence else { return nil }
        return (state.reminder, next)
    }

    /// Removes and returns every firing due at `now` (at most `limit`, earliest first), one per reminder: when
    /// several slots of a reminder were missed, the latest is returned with the count. Each reminder is
    /// re-queued for its next slot.
    public mutating func takeDue(now: Instant, limit: Int = .max) -> [DueFiring] {
        var due: [DueFiring] = []
        while due.count < limit {
            dropStaleEntries()
            guard let top = queue.min, top.instant <= now.secondsSinceEpoch, var state = states[top.reminderID] else { break }
            _ = queue.popMin()
            let rule = state.reminder.rule
            let zone = state.reminder.zone
            guard var latest = state.nextOccurrence else { continue }
            var slots = 1
            // Missed slots after the first collapse into one firing (the latest), counted.
            while let following = rule.nextOccurrence(after: latest.instant, in: zone), following.instant <= now {
                latest = following
                slots += 1
                if slots > 10_000 { break }  // a rule firing every minute for a week; the count is "many" anyway
            }
            due.append(DueFiring(
                reminder: state.reminder, occurrence: latest, slotsDue: slots,
                lateSeconds: now.secondsSinceEpoch - latest.instant.secondsSinceEpoch))
            state.handledThrough = max(latest.instant, now)
            state.nextInstant = state.nextOccurrence?.instant.secondsSinceEpoch ?? .max
            if state.nextInstant != .max {
                queue.insert(Entry(instant: state.nextInstant, reminderID: top.reminderID))
            }
            states[top.reminderID] = state
        }
        return due
    }

    /// Decides what to do with a due firing.
    /// - Parameters:
    ///   - logs: the instants of intake logged for this reminder (any range; only the firing's day counts).
    ///   - catchUpEnabled: whether missed firings are announced late (like systemd's `Persistent=true`).
    ///   - afterDowntime: the daemon was not running at the slot's instant (it is starting): any delay is late.
    public func action(for firing: DueFiring, logs: [Instant], catchUpEnabled: Bool, afterDowntime: Bool = false) -> FiringAction {
        let late = firing.slotsDue > 1 || firing.lateSeconds > (afterDowntime ? 0 : onTimeToleranceSeconds)
        if late && !catchUpEnabled { return .skipMissed(firing) }
        let rule = firing.reminder.rule
        if let reason = rule.suppression(of: firing.occurrence, logs: logs, in: firing.reminder.zone).reason {
            return .suppress(firing, reason: reason)
        }
        return late ? .catchUp(firing) : .fire(firing)
    }

    /// The next `count` firings across all reminders, in time order, without changing the schedule.
    public mutating func upcoming(count: Int) -> [(SchedulableReminder, Occurrence)] {
        dropStaleEntries()
        var pending = Heap<Entry>()
        var cursors: [Int64: Occurrence] = [:]
        // Only reminders whose next firing can be among the first `count` matter: take them from a copy.
        var copy = queue
        while pending.count < count, let entry = copy.popMin() {
            guard cursors[entry.reminderID] == nil, let state = states[entry.reminderID], state.nextInstant == entry.instant,
                let next = state.nextOccurrence
            else { continue }
            pending.insert(entry)
            cursors[entry.reminderID] = next
        }
        var result: [(SchedulableReminder, Occurrence)] = []
        while result.count < count, let entry = pending.popMin() {
            guard let state = states[entry.reminderID], let occurrence = cursors[entry.reminderID] else { continue }
            result.append((state.reminder, occurrence))
            if let following = state.reminder.rule.nextOccurrence(after: occurrence.instant, in: state.reminder.zone) {
                cursors[entry.reminderID] = following
                pending.insert(Entry(instant: following.instant.secondsSinceEpoch, reminderID: entry.reminderID))
            }
        }
        return result
    }

    private mutating func dropStaleEntries() {
        while let top = queue.min {
            if let state = states[top.reminderID], state.nextInstant == top.instant { return }
            _ = queue.popMin()
        }
    }
}
