import Dispatch
import HabitCore
import NIOCore
import ReminderCore
import Synchronization
import Translation
import SystemdSupport

/// The journal MESSAGE_IDs of remindd's entries (128-bit, fixed forever; explained by `catalog/remindd.catalog`).
public enum MessageID {
    public static let fired = "4f1c2a7e9b3d4c58a6e0f2b1d7c39a51"
    public static let suppressed = "8d2e6b1f0a9c4e37b5d1c8f3a2e70b64"
    public static let caughtUp = "c3a95e7d1b2f4068a9e4d0c7b6f21e83"
    public static let freezeEarned = "5b7e0d2c8a1f4e69b3c6d9a2f0e4b718"
    public static let freezeUsed = "9e3a6c1b7d2f4085a4e8c0b3d6f1a952"
    public static let streakBroken = "2d8f4b6e0c9a4173b5e1d7c2a8f06e34"
    public static let achievement = "71c4e9a3b5d04f28a6c2e8b1d9f3a057"
    public static let restSuggestion = "e6b2a9d4c1f3407e8d5a0b7c3e9f2146"
    public static let missed = "a4f7c2e91b3d4e6f8a0c5d2b7e9f1364"
    public static let snoozed = "06377a56b4ec4c30946e9d4fd74e7e53"
    public static let repeated = "9026fcce3c2c43b3b73395c2f9e692b0"
    /// Taken or skipped by the user.
    public static let acknowledged = "928c3235a708446db5a3937c92d50a94"
    /// A medication's stock runs low.
    public static let lowStock = "3f0b8e5c7a2d4e61b9c4a7d2e8f15c30"
    /// The followed zone changed: reminders moved to local time (travel).
    public static let travelled = "66e3318e505a43e384d31abac37feecf"
    /// An occurrence still not taken at its reminder's `--escalate-after` delay: escalated.
    public static let escalated = "b81d5f3e6c2a4097a3e8d1c6f5b2e049"
    /// A notice before an occurrence (`--before`).
    public static let comingUp = "ca531a038aa646e0aac53225a4727fa2"
}

/// The journal as the ``AnnouncementLedger``: looks firings up by their `REMINDER_RECORD` field.
///
/// A marker entry is written first and waited for (at most 3 s): journald writes one socket's entries in order,
/// so once the marker can be read, every announcement sent before the crash can be too. A journal this user
/// cannot read back (a volatile one, no journald) never shows the marker, and the answer is "cannot tell".
public struct JournalLedger: AnnouncementLedger {
    private let journal: Journal
    private let reader = JournalReader()

    public init(journal: Journal) {
        self.journal = journal
    }

    public func announced(among keys: Set<String>) -> Set<String>? {
        let marker = (0..<4).map { _ in String(UInt32.random(in: .min ... .max), radix: 16) }.joined()
        let noun = keys.count == 1 ? "firing" : "firings"
        guard journal.send(
            "Looking up \(keys.count) \(noun) recorded before a restart but not confirmed as announced", priority: .notice,
            fields: [("REMINDD_LOOKUP", marker)])
        else { return nil }
        return reader.values(of: "REMINDER_RECORD", among: keys, syncedBy: "REMINDD_LOOKUP=\(marker)", timeoutMilliseconds: 3000)
    }
}

/// Writes events to the systemd journal: the only place that knows MESSAGE_IDs, wording, priorities and fields.
///
/// Entries are worded and sent on a thread of their own (``DedicatedThread/journal``), in the order they were
/// announced, so that the firing path does not wait for journald (a burst of 10,000 spent a quarter of its time
/// there while the next firings waited). What must follow an entry's sending, a firing's confirmation in the
/// store, is queued behind it (``whenSent(_:)``); the daemon waits for the queue before it exits (``flush()``).
public final class JournalAnnouncer: Announcer {
    /// One journal entry: what ``JournalAnnouncer`` writes for an event.
    public struct Entry: Hashable, Sendable {
        public var message: String
        public var priority: Journal.Priority
        public var fields: [Field]

        /// A `NAME=value` field (names: upper-case letters, digits, underscores).
        public struct Field: Hashable, Sendable {
            public var name: String
            public var value: String
        }
    }

    private let journal: Journal
    private let maximumPriority: Mutex<Journal.Priority>
    private let words: any MessageCatalog
    private let thread: any EventLoop

    /// - Parameters:
    ///   - journal: the journal writer (identifier `remindd`).
    ///   - logLevel: the config's `log-level`: less important entries are not written.
    ///   - words: the language of the MESSAGE lines (the fields are the same in every language).
    ///   - thread: where entries are worded and sent.
    public init(journal: Journal, logLevel: String, words: any MessageCatalog, thread: any EventLoop = DedicatedThread.journal) {
        self.journal = journal
        self.thread = thread
        self.words = words
        maximumPriority = Mutex(Journal.Priority(name: logLevel) ?? .debug)
    }

    /// Applies a reloaded `log-level`.
    public func setLogLevel(_ logLevel: String) {
        maximumPriority.withLock { $0 = Journal.Priority(name: logLevel) ?? .debug }
    }

    public func announce(_ event: DaemonEvent) {
        announce([event])
    }

    /// Sends the events' entries on the journal's thread, handed over together (a burst of 10,000 firings was
    /// 20,000 hand-overs, one for each entry and one for each confirmation).
    public func announce(_ events: [DaemonEvent]) {
        // A withdrawn reminder is said where it is deleted or disabled (its own entry there).
        let said = events.filter { if case .withdrawn = $0 { false } else { true } }
        guard !said.isEmpty else { return }
        let (journal, words, maximumPriority) = (journal, words, maximumPriority.withLock { $0 })
        thread.execute {
            for event in said {
                let entry = Self.entry(for: event, in: words)
                guard entry.priority <= maximumPriority else { continue }
                journal.send(entry.message, priority: entry.priority, fields: entry.fields.map { ($0.name, $0.value) })
            }
        }
    }

    /// Runs `body` on the journal's thread once every entry announced before it is sent.
    public func whenSent(_ body: @escaping @Sendable () -> Void) { thread.execute(body) }

    /// Waits until every entry announced so far is sent, and what ``whenSent(_:)`` queued has run (not to be
    /// called on the journal's thread).
    public func flush() {
        let done = DispatchSemaphore(value: 0)
        thread.execute { done.signal() }
        done.wait()
    }

    /// The entry for an event: its wording (in the language of `words`), priority and structured fields.
    public static func entry(for event: DaemonEvent, in words: any MessageCatalog) -> Entry {
        let wording = FiringWording(words: words)
        switch event {
        case .firing(let firing): return entry(for: firing, wording)
        case .occurrence(let occurrence): return entry(for: occurrence, wording)
        case .habit(let notice): return entry(for: notice, words)
        case .withdrawn(let reminderID):
            return Entry(message: "Reminder \(reminderID) is no longer due", priority: .debug, fields: [("REMINDER_ID", String(reminderID))].map(Entry.Field.init))
        case .daemon(let message):
            return Entry(message: message.text(in: words), priority: Journal.Priority(rawValue: message.severity.rawValue) ?? .info, fields: [])
        case .lowStock(let notice):
            let message = words(DaemonMessages.runningLowLine, count: notice.refillDays, notice.name, wording.stock(notice), notice.refillDays)
            return Entry(message: message, priority: .warning, fields: [
                ("MESSAGE_ID", MessageID.lowStock), ("REMINDER_ID", String(notice.reminderID)), ("REMINDER_NAME", notice.name),
                ("STOCK_LEFT", notice.left.amountText), ("REMINDER_UNIT", notice.left.unit), ("STOCK_DAYS", String(notice.days)),
                ("STOCK_THROUGH", notice.through?.description ?? ""), ("REMINDER_REFILL_DAYS", String(notice.refillDays)),
                ("STOCK_ORDER_BY", notice.orderBy?.description ?? ""),
            ].map(Entry.Field.init))
        case .travelled(let notice):
            let message = ([words(DaemonMessages.travelledLine, count: notice.moved, notice.to, notice.from, notice.moved)] + FiringWording.stays(notice, words))
                .joined(separator: "; ")
            return Entry(message: message, priority: .notice, fields: [
                ("MESSAGE_ID", MessageID.travelled), ("FOLLOWED_ZONE", notice.to), ("PREVIOUS_ZONE", notice.from), ("MOVED_COUNT", String(notice.moved)),
            ].map(Entry.Field.init))
        case .escalation(let escalation):
            let firing = escalation.firing
            let after = FiringWording.duration(seconds: escalation.firing.reminder.delivery.escalation.afterSeconds ?? 0)
            var message = words(DaemonMessages.escalated, after, wording.reminder(firing))
            if escalation.late { message = words(DaemonMessages.escalatedLate, message, wording.when(firing.reminder.zone, escalation.due)) }
            let fields = [
                ("MESSAGE_ID", MessageID.escalated), ("REMINDER_ID", String(firing.reminder.id)), ("REMINDER_NAME", firing.reminder.name),
                ("REMINDER_SLOT", firing.slotID), ("SCHEDULED_UTC", firing.occurrence.instant.description), ("REMINDER_STATE", "overdue"),
                ("ESCALATED_UTC", escalation.at.description), ("REMINDER_ESCALATED_LATE", escalation.late ? "1" : "0"),
            ] + FiringWording.doseFields(firing.dose) + (escalation.record.map { [("REMINDER_RECORD", $0)] } ?? [])
            return Entry(message: message, priority: .warning, fields: fields.map(Entry.Field.init))
        case .headsUp(let notice):
            let firing = notice.firing
            let fields = [
                ("MESSAGE_ID", MessageID.comingUp), ("REMINDER_ID", String(notice.reminder.id)), ("REMINDER_NAME", notice.reminder.name),
                ("REMINDER_SLOT", firing.slotID), ("SCHEDULED_UTC", notice.occurrence.instant.description), ("REMINDER_ANNOUNCEMENT", "before"),
                ("BEFORE_MINUTES", String(notice.minutesBefore)),
            ] + FiringWording.doseFields(firing.dose)
            return Entry(
                message: words(DaemonMessages.comingUpLine, FiringWording.duration(seconds: Int64(notice.minutesBefore) * 60), wording.reminder(firing)),
                priority: .info,
                fields: fields.map(Entry.Field.init))
        }
    }

    private static func entry(for event: FiringEvent, _ wording: FiringWording) -> Entry {
        let (firing, words, about) = (event.firing, wording.words, wording.reminder(event.firing))
        var message: String
        var priority = Journal.Priority.notice
        var messageID = MessageID.fired
        switch event.kind {
        case .fired:
            message = words(DaemonMessages.fired, about)
        case .snoozed:
            messageID = MessageID.snoozed
            message = words(DaemonMessages.snoozed, about)
            if let hold = event.keptApart { message = words(DaemonMessages.withDetail, message, wording.keptApart(hold, in: firing.reminder.zone)) }
        case .repeated:
            messageID = MessageID.repeated
            message = words(DaemonMessages.repeated, event.repeatNumber ?? 1, about)
        case .postponed:
            messageID = MessageID.snoozed
            priority = .info
            message = words(DaemonMessages.postponed, about)
            if let detail = event.detail { message = words(DaemonMessages.withDetail, message, detail) }
        case .late:
            messageID = MessageID.caughtUp
            message = words(DaemonMessages.late, about, FiringWording.duration(seconds: firing.lateSeconds))
            if firing.slotsDue > 1 { message = words(DaemonMessages.missedTimes, message, firing.slotsDue) }
        case .suppressed, .skipped:
            messageID = MessageID.suppressed
            priority = .debug
            message = words(event.kind == .suppressed ? DaemonMessages.suppressed : DaemonMessages.missedReminder, about)
            if let detail = event.detail { message = words(DaemonMessages.withDetail, message, detail) }
        }
        var fields = [
            ("MESSAGE_ID", messageID), ("REMINDER_ID", String(firing.reminder.id)), ("REMINDER_NAME", firing.reminder.name),
            ("REMINDER_SLOT", firing.slotID), ("SCHEDULED_UTC", firing.occurrence.instant.description),
            ("FIRED_UTC", event.handledAt.description), ("LATE_SECONDS", String(firing.lateSeconds)),
            ("REMINDER_SLOTS_DUE", String(firing.slotsDue)), ("REMINDER_ANNOUNCEMENT", event.kind.rawValue),
        ]
        if let number = event.repeatNumber { fields.append(("REMINDER_REPEAT", String(number))) }
        if let calendar = firing.reminder.delivery.calendar { fields.append(("REMINDER_CALENDAR", calendar)) }
        if let person = firing.reminder.delivery.person.person { fields.append(("REMINDER_PERSON", person)) }
        if let event = wording.event(firing) { fields.append(("EVENT_UTC", event.instant.description)) }
        fields += FiringWording.doseFields(firing.dose)
        if let detail = event.detail { fields.append(("REMINDER_DETAIL", detail)) }
        if event.replanned {
            message = words(DaemonMessages.clockWentBack, message)
            fields.append(("REMINDER_REPLANNED", "1"))
        }
        if event.quiet {
            message = words(DaemonMessages.quietHours, message)
            fields.append(("REMINDER_QUIET", "1"))
        }
        recordFields(record: event.record, reannounced: event.reannounced, words, &message, &fields)
        return Entry(message: message, priority: priority, fields: fields.map(Entry.Field.init))
    }

    /// The record's key, by which the next start finds the entry after a crash, and whether it was announced
    /// again after one.
    private static func recordFields(
        record: String?, reannounced: Bool, _ words: any MessageCatalog, _ message: inout String, _ fields: inout [(String, String)]
    ) {
        if let record { fields.append(("REMINDER_RECORD", record)) }
        if reannounced {
            message = words(DaemonMessages.announcedAgain, message)
            fields.append(("REMINDER_REANNOUNCED", "1"))
        }
    }

    private static func entry(for event: OccurrenceEvent, _ wording: FiringWording) -> Entry {
        let (firing, words, about) = (event.firing, wording.words, wording.reminder(event.firing))
        let logged = { (message: String) in event.loggedAt.map { words(DaemonMessages.loggedAt, message, wording.when(firing.reminder.zone, $0)) } ?? message }
        var message: String
        var messageID = MessageID.acknowledged
        var priority = Journal.Priority.info
        switch event.state {
        case .taken:
            message = logged(words(DaemonMessages.takenLine, about))
        case .takenLate:
            message = logged(words(DaemonMessages.takenLateLine, about))
        case .skipped:
            message = words(DaemonMessages.skippedLine, about)
            if let reason = event.reason, !reason.isEmpty { message = words(DaemonMessages.withDetail, message, reason) }
        default:
            (messageID, priority) = (MessageID.missed, .notice)
            message = words(DaemonMessages.missedLine, about, wording.when(firing.reminder.zone, event.windowEnd))
        }
        var fields = [
            ("MESSAGE_ID", messageID), ("REMINDER_ID", String(firing.reminder.id)), ("REMINDER_NAME", firing.reminder.name),
            ("REMINDER_SLOT", firing.slotID), ("SCHEDULED_UTC", firing.occurrence.instant.description),
            ("REMINDER_STATE", event.state.rawValue), ("WINDOW_END_UTC", event.windowEnd.description), ("DECIDED_UTC", event.decidedAt.description),
        ]
        if let logged = event.loggedAt { fields.append(("LOGGED_UTC", logged.description)) }
        if let reason = event.reason, !reason.isEmpty { fields.append(("REMINDER_REASON", reason)) }
        recordFields(record: event.record, reannounced: event.reannounced, words, &message, &fields)
        return Entry(message: message, priority: priority, fields: fields.map(Entry.Field.init))
    }

    private static func entry(for notice: HabitNotice, _ words: any MessageCatalog) -> Entry {
        let (message, messageID, fields): (String, String, [(String, String)])
        switch notice {
        case .achievement(let id):
            (message, messageID, fields) = (
                words(DaemonMessages.achievement, id.title, id.xp), MessageID.achievement, [("ACHIEVEMENT_ID", id.rawValue), ("ACHIEVEMENT_XP", String(id.xp))]
            )
        case .freezeEarned(_, let streak, let banked):
            (message, messageID, fields) = (
                words(DaemonMessages.freezeEarned, streak, banked), MessageID.freezeEarned, [("STREAK_DAYS", String(streak)), ("FREEZES_BANKED", String(banked))]
            )
        case .freezeUsed(let date, let streak, let banked):
            (message, messageID, fields) = (
                words(DaemonMessages.freezeUsed, date, banked), MessageID.freezeUsed, [("STREAK_DAYS", String(streak)), ("FREEZES_BANKED", String(banked))]
            )
        case .streakBroken(_, let streak):
            (message, messageID, fields) = (words(DaemonMessages.streakBroken, count: streak, streak), MessageID.streakBroken, [("STREAK_DAYS", String(streak))])
        case .restSuggestion(let date):
            (message, messageID, fields) = (words(DaemonMessages.considerRest, date), MessageID.restSuggestion, [])
        }
        return Entry(message: message, priority: .notice, fields: ([("MESSAGE_ID", messageID)] + fields).map(Entry.Field.init))
    }
}
