import ReminderCore
import VarlinkProtocol

/// `io.remindd.Reminders`: reminders, their occurrences, logged intake, and the daemon's status.
public enum Reminders {
    public static let interface = "io.remindd.Reminders"
}

/// A method of `io.remindd.Reminders`.
public protocol RemindersMethod: VarlinkMethod {}
extension RemindersMethod {
    public static var interface: String { Reminders.interface }
}

/// A reminder by id or name: the parameters of several methods.
public struct ReminderKey: Codable, Sendable, Hashable {
    public var reminder: String
    public init(reminder: String) { self.reminder = reminder }
}

/// A day (YYYY-MM-DD; default today) of every reminder, or of one (by id or name).
public struct DayOfReminders: Codable, Sendable, Hashable {
    public var date: String?
    public var reminder: String?
    public init(date: String? = nil, reminder: String? = nil) { (self.date, self.reminder) = (date, reminder) }
}

/// A reply of one reminder.
public struct ReminderReply: Codable, Sendable, Hashable {
    public var reminder: ReminderValue
    public init(reminder: ReminderValue) { self.reminder = reminder }
}

/// A reply of firings, soonest first.
public struct FiringsReply: Codable, Sendable, Hashable {
    public var firings: [FiringValue]
    public init(firings: [FiringValue]) { self.firings = firings }
}

extension Reminders {
    /// Adds a reminder.
    public enum Add: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var name: String
            public var rule: RuleSpec
            public var timeZone: String?
            public var enabled: Bool?
            public var window: String?
            /// Each part's settings, as flat keys beside these (``Delivery/Change``).
            public var delivery: Delivery.Change

            public init(name: String, rule: RuleSpec, timeZone: String? = nil, enabled: Bool? = nil, window: String? = nil, delivery: Delivery.Change = .init()) {
                (self.name, self.rule, self.timeZone, self.enabled, self.window, self.delivery) = (name, rule, timeZone, enabled, window, delivery)
            }

            private enum CodingKeys: String, CodingKey { case name, rule, timeZone, enabled, window }

            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                (name, rule) = (try container.decode(String.self, forKey: .name), try container.decode(RuleSpec.self, forKey: .rule))
                timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
                enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled)
                window = try container.decodeIfPresent(String.self, forKey: .window)
                delivery = try Delivery.Change(from: decoder)
            }

            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
                try container.encode(rule, forKey: .rule)
                try container.encodeIfPresent(timeZone, forKey: .timeZone)
                try container.encodeIfPresent(enabled, forKey: .enabled)
                try container.encodeIfPresent(window, forKey: .window)
                try delivery.encode(to: encoder)
            }
        }
        public typealias Reply = ReminderReply
    }

    /// Changes a reminder; absent fields stay as they are.
    public enum Update: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var reminder: String
            public var name: String?
            public var rule: RuleSpec?
            public var timeZone: String?
            public var window: String?
            /// Each part's changes, as flat keys beside these (``Delivery/Change``; "" or 0: none, as each says).
            public var delivery: Delivery.Change

            public init(reminder: String, name: String? = nil, rule: RuleSpec? = nil, timeZone: String? = nil, window: String? = nil, delivery: Delivery.Change = .init()) {
                (self.reminder, self.name, self.rule, self.timeZone, self.window, self.delivery) = (reminder, name, rule, timeZone, window, delivery)
            }

            private enum CodingKeys: String, CodingKey { case reminder, name, rule, timeZone, window }

            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                reminder = try container.decode(String.self, forKey: .reminder)
                name = try container.decodeIfPresent(String.self, forKey: .name)
                rule = try container.decodeIfPresent(RuleSpec.self, forKey: .rule)
                timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
                window = try container.decodeIfPresent(String.self, forKey: .window)
                delivery = try Delivery.Change(from: decoder)
            }

            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(reminder, forKey: .reminder)
                try container.encodeIfPresent(name, forKey: .name)
                try container.encodeIfPresent(rule, forKey: .rule)
                try container.encodeIfPresent(timeZone, forKey: .timeZone)
                try container.encodeIfPresent(window, forKey: .window)
                try delivery.encode(to: encoder)
            }
        }
        public typealias Reply = ReminderReply
    }

    /// Removes a reminder with its history.
    public enum Remove: RemindersMethod {
        public typealias Parameters = ReminderKey
        public typealias Reply = ReminderReply
    }

    public enum Enable: RemindersMethod {
        public typealias Parameters = ReminderKey
        public typealias Reply = ReminderReply
    }

    public enum Disable: RemindersMethod {
        public typealias Parameters = ReminderKey
        public typealias Reply = ReminderReply
    }

    /// Reminders by id, a page at a time (with `more`: every page as its own reply).
    public enum List: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var after: Int64?
            public var limit: Int?
            public init(after: Int64? = nil, limit: Int? = nil) { (self.after, self.limit) = (after, limit) }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var reminders: [ReminderValue]
            /// The `after` of the next page; nil on the last (and in every reply of a `more` call).
            public var after: Int64?
            public init(reminders: [ReminderValue], after: Int64?) { (self.reminders, self.after) = (reminders, after) }
        }
    }

    /// One reminder, and what each announcement of its occurrences does (``AnnouncementLadder``).
    public enum Get: RemindersMethod {
        public typealias Parameters = ReminderKey
        public struct Reply: Codable, Sendable, Hashable {
            public var reminder: ReminderValue
            public var ladder: [AnnouncementLadder.Step]
            public init(reminder: ReminderValue, ladder: [AnnouncementLadder.Step]) { (self.reminder, self.ladder) = (reminder, ladder) }
        }
    }

    /// The occurrences of a day and their states.
    public enum Occurrences: RemindersMethod {
        public typealias Parameters = DayOfReminders
        public struct Reply: Codable, Sendable, Hashable {
            public var date: String
            public var occurrences: [OccurrenceValue]
            /// Where each medication taken as needed stands now (today's only).
            public var asNeeded: [AsNeededValue]?
            public init(date: String, occurrences: [OccurrenceValue], asNeeded: [AsNeededValue]? = nil) {
                (self.date, self.occurrences, self.asNeeded) = (date, occurrences, asNeeded)
            }
        }
    }

    /// The next firings of a rule, without adding it.
    public enum Preview: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var rule: RuleSpec
            public var timeZone: String?
            public var after: String?
            public var count: Int?
            /// A tapering course (as `Add` takes it): each firing says its day's dose.
            public var steps: String?
            public init(rule: RuleSpec, timeZone: String? = nil, after: String? = nil, count: Int? = nil, steps: String? = nil) {
                (self.rule, self.timeZone, self.after, self.count, self.steps) = (rule, timeZone, after, count, steps)
            }
        }
        public typealias Reply = FiringsReply
    }

    /// The next firings across all enabled reminders.
    public enum Next: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var count: Int?
            public init(count: Int? = nil) { self.count = count }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var firings: [FiringValue]
            /// Where each medication taken as needed stands.
            public var asNeeded: [AsNeededValue]?
            public init(firings: [FiringValue], asNeeded: [AsNeededValue]? = nil) { (self.firings, self.asNeeded) = (firings, asNeeded) }
        }
    }

    /// Records an intake, now or at a past time.
    public enum Log: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var reminder: String
            public var at: String?
            /// How much was taken (`1`, `0.5`) in the unit of the reminder's dose; default: its dose.
            public var amount: String?
            /// Log it even past the reminder's dose limits (recorded as forced).
            public var force: Bool?
            public init(reminder: String, at: String? = nil, amount: String? = nil, force: Bool? = nil) {
                (self.reminder, self.at, self.amount, self.force) = (reminder, at, amount, force)
            }
        }
        public typealias Reply = LogReply
    }

    /// Logs an intake now, taking the occurrence that is due.
    public enum Done: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var reminder: String
            /// How much was taken, and whether past the limits, as with `Log`.
            public var amount: String?
            public var force: Bool?
            public init(reminder: String, amount: String? = nil, force: Bool? = nil) { (self.reminder, self.amount, self.force) = (reminder, amount, force) }
        }
        public typealias Reply = LogReply
    }

    /// Takes the most recent missed occurrence (of the last two days) late: a log now, made for it.
    public enum TakeLate: RemindersMethod {
        public typealias Parameters = ReminderKey
        public typealias Reply = Skip.Reply
    }

    /// Skips the occurrence that is due, or else the next one.
    public enum Skip: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var reminder: String
            public var reason: String?
            public init(reminder: String, reason: String? = nil) { (self.reminder, self.reason) = (reminder, reason) }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var occurrence: OccurrenceValue
            public init(occurrence: OccurrenceValue) { self.occurrence = occurrence }
        }
    }

    /// Undoes the latest skip of an occurrence still ahead: it is announced at its time.
    public enum Unskip: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var reminder: String
            public init(reminder: String) { self.reminder = reminder }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var occurrence: OccurrenceValue
            public init(occurrence: OccurrenceValue) { self.occurrence = occurrence }
        }
    }

    /// Pauses a reminder, or every one (`all`), from `from` (default now) until `until`: its occurrences then are
    /// not announced, never missed, and counted apart.
    public enum Pause: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var reminder: String?
            public var all: Bool?
            public var from: String?
            public var until: String
            public var reason: String?
            public init(reminder: String? = nil, all: Bool? = nil, from: String? = nil, until: String, reason: String? = nil) {
                (self.reminder, self.all, self.from, self.until, self.reason) = (reminder, all, from, until, reason)
            }
        }
        public struct Reply: Codable, Sendable, Hashable {
            /// The reminders paused, with their pauses (the first 1,000 of `count`).
            public var reminders: [ReminderValue]
            public var count: Int
            /// The doses already logged within the pause (they stay recorded).
            public var loggedWithin: Int
            /// The pause as taken (UTC): its start (now when none was given) and its end.
            public var from: String
            public var until: String
            public init(reminders: [ReminderValue], count: Int, loggedWithin: Int, from: String, until: String) {
                (self.reminders, self.count, self.loggedWithin, self.from, self.until) = (reminders, count, loggedWithin, from, until)
            }
        }
    }

    /// Ends a reminder's pause (or every reminder's, `all`) now: a pause running ends, those ahead are removed.
    public enum Resume: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var reminder: String?
            public var all: Bool?
            public init(reminder: String? = nil, all: Bool? = nil) { (self.reminder, self.all) = (reminder, all) }
        }
        public struct Reply: Codable, Sendable, Hashable {
            /// The reminders whose pauses changed (the first 1,000 of `count`).
            public var reminders: [ReminderValue]
            public var count: Int
            public init(reminders: [ReminderValue], count: Int) { (self.reminders, self.count) = (reminders, count) }
        }
    }

    /// Announces the occurrence that is due again later, or postpones the next one.
    public enum Snooze: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var reminder: String
            public var minutes: Int
            public init(reminder: String, minutes: Int) { (self.reminder, self.minutes) = (reminder, minutes) }
        }
        public typealias Reply = SnoozeReply
    }

    /// The intake logged on a date.
    public enum Logs: RemindersMethod {
        public typealias Parameters = DayOfReminders
        public struct Reply: Codable, Sendable, Hashable {
            public var logs: [IntakeValue]
            public init(logs: [IntakeValue]) { self.logs = logs }
        }
    }

    /// Deletes a log.
    public enum DeleteLog: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var id: Int64
            public init(id: Int64) { self.id = id }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var log: IntakeValue
            public init(log: IntakeValue) { self.log = log }
        }
    }

    /// How well each reminder was kept over a period: the figures of `remindctl report` (not its pictures).
    public enum Report: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            /// The first and last day (YYYY-MM-DD); default the 90 days up to today.
            public var from: String?
            public var to: String?
            /// Ids or names; default every enabled reminder with a schedule.
            public var reminders: [String]?
            /// Only the reminders for this person (`--for Anna`; "" or `me`: the user's own); their report alone.
            public var person: String?
            public init(from: String? = nil, to: String? = nil, reminders: [String]? = nil, person: String? = nil) {
                (self.from, self.to, self.reminders, self.person) = (from, to, reminders, person)
            }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var from: String
            public var to: String
            /// The zone the period's days are read in when a reminder has none of its own.
            public var timeZone: String
            public var madeUtc: String
            public var reminders: [ReportReminderValue]
            /// Who the report is for, when the profile names them.
            public var profileName: String?
            public var medications: [ReportMedicationValue]?
            public var habits: ReportHabitsValue?
            public var fitness: ReportFitnessValue?
            public init(
                from: String, to: String, timeZone: String, madeUtc: String, reminders: [ReportReminderValue], profileName: String? = nil,
                medications: [ReportMedicationValue]? = nil, habits: ReportHabitsValue? = nil, fitness: ReportFitnessValue? = nil
            ) {
                (self.from, self.to, self.timeZone, self.madeUtc, self.reminders) = (from, to, timeZone, madeUtc, reminders)
                (self.profileName, self.medications, self.habits, self.fitness) = (profileName, medications, habits, fitness)
            }
        }
    }

    /// Handled firings, newest first.
    public enum History: RemindersMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var since: String?
            public var reminder: String?
            public var limit: Int?
            public init(since: String? = nil, reminder: String? = nil, limit: Int? = nil) {
                (self.since, self.reminder, self.limit) = (since, reminder, limit)
            }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var entries: [HistoryEntryValue]
            public init(entries: [HistoryEntryValue]) { self.entries = entries }
        }
    }

    /// Takes the linked collection's folder as it is now: writes back what it lacks, removes nothing.
    public enum RelinkCollection: RemindersMethod {
        public typealias Parameters = NoFields
        public struct Reply: Codable, Sendable, Hashable {
            public var folder: String
            /// How many items were written back into the folder.
            public var restored: Int
            public init(folder: String, restored: Int) { (self.folder, self.restored) = (folder, restored) }
        }
    }

    public enum Status: RemindersMethod {
        public typealias Parameters = NoFields
        public typealias Reply = StatusValue
    }

    /// Streams each handled firing and each decided occurrence (with `more`).
    public enum Watch: RemindersMethod {
        public typealias Parameters = NoFields
        /// One entry of the stream. Its JSON bytes are written once, with the reply: a burst goes to every Watch
        /// client as the same bytes (made once per client through Foundation's encoder, 250 clients' copies of a
        /// burst of 2,000 kept the daemon busy for seconds and a firing after it 2.3 s late; written once per
        /// client from the same value, a firing 3 s after such a burst was still 0.5-1.8 s late in the debug build).
        public struct Reply: Codable, Sendable, Hashable, JSONPreEncoded {
            public let entry: HistoryEntryValue
            public let encodedJSON: [UInt8]

            public init(entry: HistoryEntryValue) {
                self.entry = entry
                var object = JSONObjectWriter()
                object.field("entry", json: entry.encodedJSON)
                encodedJSON = object.finished()
            }

            private enum CodingKeys: String, CodingKey { case entry }

            public init(from decoder: any Decoder) throws {
                self.init(entry: try decoder.container(keyedBy: CodingKeys.self).decode(HistoryEntryValue.self, forKey: .entry))
            }

            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(entry, forKey: .entry)
            }
        }
    }
}
