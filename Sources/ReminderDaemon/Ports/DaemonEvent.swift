import HabitCore
import ReminderCore
import ReminderScheduling
import Translation

/// Something that happened in the daemon, as a value: the announcers decide how each channel says it.
public enum DaemonEvent: Sendable, Hashable {
    /// A reminder's slot was handled: fired, caught up late, suppressed, skipped, postponed; or a due
    /// occurrence announced again (snoozed, repeated).
    case firing(FiringEvent)
    /// What became of an announced occurrence: taken or skipped by the user, or missed (its window closed with
    /// nothing logged).
    case occurrence(OccurrenceEvent)
    /// A habit notice (achievement, freeze, broken streak, rest suggestion), announced once.
    case habit(HabitNotice)
    /// The daemon's own news: started, reloaded, a store that cannot be written, a skipped file.
    case daemon(DaemonMessage)
    /// A medication's stock covers fewer days than its refill reminder asks (once, again after a refill).
    case lowStock(LowStockNotice)
    /// The zone the reminders without their own follow changed (travel): which moved to local time and which
    /// stayed (``ZoneMove``).
    case travelled(TravelNotice)
    /// An occurrence still not taken or skipped its reminder's `--escalate-after` past its time: its
    /// escalation command runs (once per occurrence).
    case escalation(EscalationEvent)
    /// A notice before an occurrence (`--before`): "Metformin in 15m".
    case headsUp(HeadsUp)
    /// A reminder was deleted or disabled (here or on another device): nothing of it is due any more, and a
    /// notification that lists it drops it. (The journal says the change where it is made.)
    case withdrawn(reminderID: Int64)
}

/// An occurrence escalated at its reminder's `--escalate-after` delay.
public struct EscalationEvent: Sendable, Hashable {
    /// The reminder and the occurrence (as it was announced).
    public var firing: DueFiring
    /// When it was escalated (later than ``due`` when the daemon was not running then).
    public var at: Instant
    /// The key under which the journal's entry can be looked up after a crash (nil: it was not noted).
    public var record: String?

    public init(firing: DueFiring, at: Instant) {
        (self.firing, self.at) = (firing, at)
    }

    /// When it was due to be escalated: the occurrence's time and the reminder's delay.
    public var due: Instant { firing.occurrence.instant.adding(seconds: firing.reminder.delivery.escalation.afterSeconds ?? 0) }
    /// Escalated more than a minute after ``due`` (the daemon was down then).
    public var late: Bool { at.secondsSinceEpoch > due.secondsSinceEpoch + 60 }
}

/// A medication running low: what is left, and the last day it covers.
/// What a change of the followed zone did: how many reminders moved to local time, and those that keep their
/// own zone with their next time there and here (at most five named).
public struct TravelNotice: Sendable, Hashable {
    public var from: String
    public var to: String
    public var moved: Int
    public var stays: [Stay]
    /// How many more keep their own zone than ``stays`` names.
    public var moreStay: Int

    /// A reminder that keeps its zone.
    public struct Stay: Sendable, Hashable {
        public var name: String
        public var zone: String
        public var there: TimeOfDay
        public var here: TimeOfDay
    }
}

public struct LowStockNotice: Sendable, Hashable {
    public var reminderID: Int64
    public var name: String
    /// What is left (at least 0), in the dose's unit.
    public var left: Dose
    /// The last day the stock covers (the reminder's zone), nil when it covers no dose.
    public var through: LocalDate?
    /// Days from today to `through`.
    public var days: Int
    /// The reminder's `--refill-days`.
    public var refillDays: Int
    /// The reminder's own `--exec` hook, run for the notice too.
    public var command: [String]?
    /// The day to order more by (the reminder's `--order-days` before `through`, not before today).
    public var orderBy: LocalDate?
}

/// A handled slot of a reminder.
public struct FiringEvent: Sendable, Hashable {
    /// How the slot was handled.
    public enum Kind: String, Sendable, Hashable {
        /// Announced on time.
        case fired
        /// Announced late: missed while the daemon was down, suspended, or the clock jumped.
        case late
        /// Not announced: the intake was already logged.
        case suppressed
        /// Recorded without announcing: missed while catch-up is off.
        case skipped
        /// Announced again after a snooze.
        case snoozed
        /// Announced again because it is still due (the reminder's `--repeat`).
        case repeated
        /// Not announced at its time: it was snoozed before it came due (the snooze announces it).
        case postponed

        /// Whether the person is told: a notification, a command, a journal entry at notice level.
        public var reachesThePerson: Bool { [.fired, .late, .snoozed, .repeated].contains(self) }
    }

    public var kind: Kind
    /// The reminder, the slot (the latest one when several were missed) and how many slots it stands for.
    public var firing: DueFiring
    /// When the daemon handled it.
    public var handledAt: Instant
    /// Why it was suppressed or skipped.
    public var detail: String?
    /// The slot had been handled once already, before the clock went back to before it.
    public var replanned: Bool
    /// Which repeat this is (1, 2, ...; `repeated` only).
    public var repeatNumber: Int?
    /// The key of its record in the store, under which the journal keeps it (`REMINDER_RECORD`), so that
    /// after a crash the next start can tell whether it was announced. Nil for what is not recorded (an
    /// announcement again whose occurrence has no record).
    public var record: String?
    /// Announced again after a restart because the journal could not tell whether it was announced before.
    public var reannounced: Bool
    /// Announced during quiet hours, quietly: no sound, no speech, low urgency (the journal and hooks as always).
    public var quiet = false
    /// Announced at the end of the gap from a medicine it is kept apart from, which held it back until now.
    public var keptApart: DoseGaps.Hold?

    public init(
        kind: Kind, firing: DueFiring, handledAt: Instant, detail: String? = nil, replanned: Bool = false, repeatNumber: Int? = nil,
        record: String? = nil, reannounced: Bool = false
    ) {
        self.kind = kind
        self.firing = firing
        self.handledAt = handledAt
        self.detail = detail
        self.replanned = replanned
        self.repeatNumber = repeatNumber
        self.record = record
        self.reannounced = reannounced
    }
}

/// An announced occurrence whose state was settled: taken or skipped by the user, or missed (recorded first,
/// then announced, once).
public struct OccurrenceEvent: Sendable, Hashable {
    /// taken, skipped or missed.
    public var state: OccurrenceState
    /// The reminder and the occurrence (as it was announced).
    public var firing: DueFiring
    /// When its window closed.
    public var windowEnd: Instant
    /// When the daemon decided (later than `windowEnd` when it was not running then).
    public var decidedAt: Instant
    /// The log that took it (taken), or the user's reason (skipped).
    public var loggedAt: Instant?
    public var reason: String?
    /// The key of its record (a missed note's), as ``FiringEvent/record``.
    public var record: String?
    /// Announced again after a restart because the journal could not tell whether it was announced before.
    public var reannounced = false
    /// Its escalation command already ran at the reminder's `--escalate-after` delay: not again when missed.
    public var escalated = false

    public init(
        state: OccurrenceState, firing: DueFiring, windowEnd: Instant, decidedAt: Instant, loggedAt: Instant? = nil, reason: String? = nil,
        record: String? = nil
    ) {
        self.state = state
        self.firing = firing
        self.windowEnd = windowEnd
        self.decidedAt = decidedAt
        self.loggedAt = loggedAt
        self.reason = reason
        self.record = record
    }
}

/// A message about the daemon itself, with its importance.
public struct DaemonMessage: Sendable, Hashable {
    /// How important the message is (the journal's priorities).
    public enum Severity: Int, Sendable, Hashable, Comparable {
        case error = 3, warning, notice, info, debug

        public static func < (a: Severity, b: Severity) -> Bool { a.rawValue < b.rawValue }
    }

    public var severity: Severity
    /// In English (tests and the hooks read it).
    public var text: String
    /// The message of a table and its arguments, when it is one: the journal says it in the daemon's language.
    private var message: Message?
    private var arguments: [String] = []
    /// The count its plural form is chosen by.
    private var count = 1

    public init(_ severity: Severity, _ text: String) {
        self.severity = severity
        self.text = text
    }

    /// A message of a table (``DaemonMessages``), said in English here and in the journal's language there.
    public init(_ severity: Severity, _ message: Message, count: Int = 1, _ arguments: [String]) {
        self.init(severity, Message.format(UntranslatedCatalog().template(message, count: count), arguments))
        (self.message, self.arguments, self.count) = (message, arguments, count)
    }

    /// The text in the language of `words`.
    public func text(in words: any MessageCatalog) -> String {
        message.map { Message.format(words.template($0, count: count), arguments) } ?? text
    }

    /// Two messages are the same when they say the same, whether or not one came from a table.
    public static func == (a: DaemonMessage, b: DaemonMessage) -> Bool { (a.severity, a.text) == (b.severity, b.text) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(severity)
        hasher.combine(text)
    }
}
