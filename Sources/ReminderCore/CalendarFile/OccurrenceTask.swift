/// One occurrence of a reminder as a plain task in the linked collection (`collection-mode = "occurrences"`):
/// what every phone task app syncs and completes correctly, where the recurring task's instances are read
/// differently by each app. Due at the occurrence (DTSTART and DUE, in UTC), an alarm at its time and at the
/// `--before` times, the dose in SUMMARY and DESCRIPTION, `RELATED-TO` its reminder.
///
/// Every device writes the same content for the same occurrence and state (its UID comes from the reminder's UID
/// and the instant), its stamps apart (when it was written), which vdirsyncer leaves out of its comparison, so two
/// devices writing it have no conflict to settle; in a conflict, an app's mark wins over remindd's closure, and
/// that over the open version (``CollectionItem/resolve(_:_:)``). Pure.
public struct OccurrenceTask: Sendable, Hashable {
    /// The reminder's UID.
    public var reminder: String
    public var occurrence: Instant
    /// What a task app shows: the reminder's name, and the dose of that day.
    public var name: String
    public var dose: Dose?
    public var beforeMinutes: [Int]
    /// Taken, skipped or missed here (nil: open, or closed by the app itself).
    public var closure: CollectionItem.Closure?
    /// The store that wrote it first (`X-REMINDD-WRITER`, kept by every later version; nil for a task written
    /// before it was said): see ``writesNew(_:now:window:writer:currentWriter:)``.
    public var writer: String?

    public init(reminder: String, occurrence: Instant, name: String, dose: Dose? = nil, beforeMinutes: [Int] = [], closure: CollectionItem.Closure? = nil) {
        (self.reminder, self.occurrence, self.name, self.dose, self.beforeMinutes, self.closure) = (reminder, occurrence, name, dose, beforeMinutes, closure)
    }

    /// How long before its time a task marked done is still its occurrence's dose (taken a little early, as a
    /// phone's tick at 07:55 for the 08:00 dose is).
    public static let earlyCompletionSeconds: Int64 = 30 * 60

    /// Whether a task marked done at `at` is the dose of its own occurrence: at or after the occurrence, or up to
    /// ``earlyCompletionSeconds`` before it when that occurrence is the reminder's next after `at` and a log at
    /// `at` (with the reminder's `logs`) takes it, so that it takes no other. A task ticked further ahead (a
    /// task app's "complete all" over today's and tomorrow's tasks) is no dose: as a log now it would silence
    /// whatever occurrence comes next, today's included.
    public static func completionTakes(
        _ occurrence: Occurrence, at: Instant, rule: ReminderRule, zone: TimeZoneRules, logs: [Instant], windowSeconds: Int64?
    ) -> Bool {
        if at >= occurrence.instant { return true }
        guard occurrence.instant.secondsSinceEpoch - at.secondsSinceEpoch <= earlyCompletionSeconds,
            rule.nextOccurrence(after: at, in: zone)?.instant == occurrence.instant
        else { return false }
        let status = rule.state(of: occurrence, in: zone, logs: logs + [at], skips: [], windowSeconds: windowSeconds, now: at)
        return status.state == .suppressed
    }

    /// How much later than the reminder's current writer another device writes a new task:
    /// ``writesNew(_:now:window:writer:currentWriter:)``.
    public static func deferral(window: Int64) -> Int64 { min(12 * 3600, window / 4) }

    /// Whether this device (`writer`, its store's id) writes the task of an occurrence that has none yet. The
    /// reminder's current writer (`currentWriter`: who wrote its latest task) writes it when it comes into the
    /// window; another device only ``deferral(window:)`` later, by when it has read the writer's from the server
    /// and writes nothing. (Both wrote the same new file as the window moved: the second upload failed, a failed
    /// sync at every move.) Whoever is on writes it in time: with the writer off, the next device writes it well
    /// before its time, and is the writer from then on (the first, back, defers to it: one writer at a time).
    public static func writesNew(_ occurrence: Instant, now: Instant, window: Int64, writer: String, currentWriter: String?) -> Bool {
        guard let currentWriter, currentWriter != writer else { return true }
        return occurrence <= now.adding(seconds: window - deferral(window: window))
    }

    /// The `X-REMINDD-WRITER` of a task's text, or nil.
    public static func writer(in text: String) -> String? { value(of: "X-REMINDD-WRITER", in: text) }

    /// Who wrote the latest (by occurrence) of a reminder's tasks, from their texts; nil when none says.
    public static func currentWriter(amongTasks texts: some Sequence<String>) -> String? {
        texts.compactMap { text in
            value(of: "X-REMINDD-OCCURRENCE", in: text).flatMap { at in writer(in: text).map { (at, $0) } }
        }.max { $0.0 < $1.0 }?.1  // UTC date-times (20261203T070000Z) sort as they follow
    }

    /// The value of a remindd property (one line, no parameters) in a task's text.
    private static func value(of property: String, in text: String) -> String? {
        text.split(separator: "\r\n").first { $0.hasPrefix(property + ":") }.map { String($0.dropFirst(property.count + 1)) }
    }

    /// The task's UID: its reminder's and the instant (`<reminder>-20261201T070000Z`).
    public var uid: String { reminder + "-" + ICalendar.utc(occurrence) }

    /// The task's text; `previous` is the file as last read or written (what an app added to it is kept).
    /// DTSTAMP and LAST-MODIFIED say when it was written (`writtenAt`), and stay as `previous` has them when
    /// nothing else changed, so that a version another device wrote is not written again for its stamps alone.
    /// (They said the occurrence's instant, in the future for every task ahead.)
    public func text(previous: String?, writtenAt: Instant) -> String {
        if let previous, let stamps = Self.stamps(in: previous), render(previous: previous, stamps: stamps) == previous { return previous }
        let now = ICalendar.utc(writtenAt)
        return render(previous: previous, stamps: (now, now))
    }

    /// The DTSTAMP and LAST-MODIFIED values of a task's text.
    private static func stamps(in text: String) -> (dtstamp: String, lastModified: String)? {
        var dtstamp: String?, lastModified: String?
        for line in text.split(separator: "\r\n") {
            if dtstamp == nil, line.hasPrefix("DTSTAMP:") { dtstamp = String(line.dropFirst("DTSTAMP:".count)) }
            if lastModified == nil, line.hasPrefix("LAST-MODIFIED:") { lastModified = String(line.dropFirst("LAST-MODIFIED:".count)) }
        }
        guard let dtstamp, let lastModified else { return nil }
        return (dtstamp, lastModified)
    }

    private func render(previous: String?, stamps: (dtstamp: String, lastModified: String)) -> String {
        let at = ICalendar.utc(occurrence)
        var own = ["UID:" + ICalendar.text(uid), "DTSTAMP:" + stamps.dtstamp, "LAST-MODIFIED:" + stamps.lastModified,
                   "SUMMARY:" + ICalendar.text(name + (dose.map { ", \($0.description)" } ?? "")), "DTSTART:" + at, "DUE:" + at]
        if let dose { own.append("DESCRIPTION:" + ICalendar.text("Take \(dose.description)")) }
        own += ["RELATED-TO;RELTYPE=PARENT:" + ICalendar.text(reminder), "X-REMINDD-OCCURRENCE-OF:" + ICalendar.text(reminder), "X-REMINDD-OCCURRENCE:" + at]
        if let writer { own.append("X-REMINDD-WRITER:" + ICalendar.text(writer)) }
        own += closure?.lines ?? []
        var alarms = Self.alarm(name, trigger: "PT0S")
        for minutes in beforeMinutes {
            alarms += Self.alarm("\(name) in \(WindowLength.text(Int64(minutes) * 60))", trigger: AlarmOffset(days: 0, seconds: -minutes * 60).text)
        }
        return CollectionItem.merged(
            component: "VTODO", uid: uid, own: own, alarm: alarms, previous: previous,
            alsoOwned: Self.owned.union(closure == nil ? [] : CollectionItem.Closure.owned))
    }

    /// What the task's text owns besides a reminder's (``CollectionItem/owned``): replaced when it is written.
    static let owned: Set<String> = ["DESCRIPTION", "RELATED-TO"]

    private static func alarm(_ description: String, trigger: String) -> [String] {
        ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + ICalendar.text(description), "TRIGGER;RELATED=END:" + trigger, "X-REMINDD-ALARM:1", "END:VALARM"]
    }

    /// An occurrence task as read back: whose, which occurrence, and what an app did to it.
    public struct Read: Sendable, Hashable {
        public var uid: String
        public var reminder: String
        public var occurrence: Instant
        /// Marked done in an app (STATUS:COMPLETED, PERCENT-COMPLETE:100 or COMPLETED, any of them), with
        /// COMPLETED when it says when; or cancelled; nil while open, or as remindd closed it.
        public var marked: Marked?
    }

    /// What an app did to an occurrence task.
    public enum Marked: Sendable, Hashable {
        case completed(at: Instant?)
        case cancelled
    }

    /// Reads an occurrence task (the caller found `X-REMINDD-OCCURRENCE-OF` in it).
    static func read(_ item: ICalendarComponent, fail: (Int, String) -> FileLineError) throws(FileLineError) -> Read {
        guard let uid = item.first("UID")?.text, !uid.isEmpty else { throw fail(item.line, "a remindd occurrence task without UID") }
        let owner = item.first("X-REMINDD-OCCURRENCE-OF")!
        guard !owner.text.isEmpty else { throw fail(owner.line, "X-REMINDD-OCCURRENCE-OF names no reminder") }
        guard let property = item.first("X-REMINDD-OCCURRENCE"), let occurrence = CollectionItem.utcInstant(property.value) else {
            throw fail(item.first("X-REMINDD-OCCURRENCE")?.line ?? item.line, "X-REMINDD-OCCURRENCE is not a UTC date-time such as 20261224T170000Z")
        }
        let status = item.first("STATUS")?.value.uppercased()
        let completedAt = item.first("COMPLETED").flatMap { CollectionItem.utcInstant($0.value) }
        var marked: Marked?
        if status == "CANCELLED" {
            marked = .cancelled
        } else if status == "COMPLETED" || item.first("PERCENT-COMPLETE")?.value == "100" || item.first("COMPLETED") != nil {
            marked = .completed(at: completedAt)
        }
        // As remindd closed it (its log or skip travels as an item of its own): not an app's doing.
        switch (item.first("X-REMINDD-CLOSED")?.value.uppercased(), marked) {
        case ("TAKEN", .completed?), ("SKIPPED", .cancelled?), ("MISSED", .cancelled?): marked = nil
        default: break
        }
        return Read(uid: uid, reminder: owner.text, occurrence: occurrence, marked: marked)
    }
}
