import HeapModule
import ReminderCore

/// A notice before an occurrence (`--before 15m`): "Metformin in 15m". Not an occurrence: it is not taken,
/// missed or repeated.
public struct HeadsUp: Sendable, Hashable {
    public let reminder: SchedulableReminder
    /// The occurrence it warns of.
    public let occurrence: Occurrence
    public let minutesBefore: Int

    public init(reminder: SchedulableReminder, occurrence: Occurrence, minutesBefore: Int) {
        (self.reminder, self.occurrence, self.minutesBefore) = (reminder, occurrence, minutesBefore)
    }

    /// The occurrence as a firing would announce it (its slot, its dose), for the wording.
    public var firing: DueFiring { DueFiring(reminder: reminder, occurrence: occurrence, slotsDue: 1, lateSeconds: 0) }

    /// When it comes: that many real minutes before the occurrence (across a DST change too).
    public var at: Instant { occurrence.instant.adding(seconds: -Int64(minutesBefore) * 60) }
}

/// When each reminder's next notice before an occurrence comes (`--before`), as a value: reminders are planned
/// from an instant, and what comes due is taken in order. No I/O and no clock: the caller says when "now" is.
///
/// A notice whose time has passed when it is planned (a reminder added at 07:50 with `--before 15m` for 08:00)
/// is not given; nor are the notices of a time the daemon was not running (a notice late is no notice).
public struct HeadsUpPlan: Sendable {
    private struct Entry: Comparable, Sendable {
        let at: Instant
        let reminderID: Int64
        static func < (a: Entry, b: Entry) -> Bool { (a.at, a.reminderID) < (b.at, b.reminderID) }
    }

    /// Each planned reminder's next notice.
    private var next: [Int64: HeadsUp] = [:]
    /// The notices in time order; an entry no longer in ``next`` (replanned, removed) is passed over.
    private var queue = Heap<Entry>()

    public init() {}

    /// Plans the reminder's next notice after `after` (none without `--before`), in place of the one it had.
    public mutating func plan(_ reminder: SchedulableReminder, after: Instant) {
        next[reminder.id] = nil
        guard let notice = Self.next(of: reminder, after: after) else { return }
        next[reminder.id] = notice
        queue.insert(Entry(at: notice.at, reminderID: reminder.id))
    }

    public mutating func remove(id: Int64) {
        next[id] = nil
    }

    /// When the next notice comes.
    public mutating func nextDeadline() -> Instant? {
        dropStale()
        return queue.min?.at
    }

    /// The notices due at `now`, in order; each reminder's next one is planned after it.
    public mutating func takeDue(now: Instant) -> [HeadsUp] {
        var due: [HeadsUp] = []
        while true {
            dropStale()
            guard let first = queue.min, first.at <= now, let notice = next[first.reminderID] else { break }
            queue.removeMin()
            due.append(notice)
            plan(notice.reminder, after: notice.at)
        }
        return due
    }

    private mutating func dropStale() {
        while let first = queue.min, next[first.reminderID]?.at != first.at {
            queue.removeMin()
        }
    }

    /// The reminder's first notice after `after`: for each of its lengths, the first occurrence whose notice is
    /// after `after`; the earliest of those.
    public static func next(of reminder: SchedulableReminder, after: Instant) -> HeadsUp? {
        guard let lengths = reminder.delivery.notification.beforeMinutes else { return nil }
        return lengths.compactMap { minutes -> HeadsUp? in
            guard let occurrence = reminder.rule.nextOccurrence(after: after.adding(seconds: Int64(minutes) * 60), in: reminder.zone) else { return nil }
            return HeadsUp(reminder: reminder, occurrence: occurrence, minutesBefore: minutes)
        }.min { $0.at < $1.at }
    }
}
