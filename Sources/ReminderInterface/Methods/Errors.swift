import VarlinkProtocol

/// The errors of remindd's interfaces, each with its parameters. An interface's IDL declares the ones its
/// methods raise; ``Catalogue/errorName(_:calledIn:)`` names an error in the interface that was called.
public enum RemindErrors {
    /// No reminder has that id or name.
    public struct ReminderNotFound: VarlinkErrorParameters {
        public var reminder: String
        public init(reminder: String) { self.reminder = reminder }
    }

    public struct NameTaken: VarlinkErrorParameters {
        public var name: String
        public init(name: String) { self.name = name }
    }

    public struct InvalidRule: VarlinkErrorParameters {
        public var message: String
        public init(message: String) { self.message = message }
    }

    /// A time or date parameter that cannot be read, or lies where it may not.
    public struct InvalidTime: VarlinkErrorParameters {
        public var parameter: String
        public var message: String
        /// The text typed, when it is no time or date at all (a client words the refusal from it), and what was
        /// wanted: `date` (YYYY-MM-DD) or `time`.
        public var unreadable: String?
        public var wanted: String?
        public init(parameter: String, message: String, unreadable: String? = nil, wanted: String? = nil) {
            (self.parameter, self.message, self.unreadable, self.wanted) = (parameter, message, unreadable, wanted)
        }
    }

    public struct UnknownTimeZone: VarlinkErrorParameters {
        public var timeZone: String
        public var message: String
        public init(timeZone: String, message: String) { (self.timeZone, self.message) = (timeZone, message) }
    }

    /// Nothing of the reminder is due (Done), due or ahead (Skip, Snooze), or missed lately (TakeLate).
    public struct NothingDue: VarlinkErrorParameters {
        public var reminder: String
        public var message: String
        /// Done: the next occurrence that is not skipped, its local time with offset; nil when the rule has ended.
        public var next: String?
        public init(reminder: String, message: String, next: String? = nil) { (self.reminder, self.message, self.next) = (reminder, message, next) }
    }

    /// A dose sooner than the reminder's minimum interval, or past its maximum in 24 hours, with the facts a client
    /// words it from: the limit broken, the dose asked for, the other dose, and from when the next is allowed.
    public struct DoseNotAllowed: VarlinkErrorParameters {
        public var reminder: String
        public var allowedFromUtc: String
        public var message: String
        /// `interval` (another dose, at `otherUtc`, is closer than `minIntervalSeconds`), `per-day` (it would be
        /// dose `count` in the 24 hours from `otherUtc`, more than `maxPerDay`) or `apart` (a dose of
        /// `otherReminder`, at `otherUtc`, is closer than `gapSeconds`).
        public var limit: String?
        /// The dose that was refused.
        public var atUtc: String?
        public var otherUtc: String?
        public var count: Int?
        public var minIntervalSeconds: Int64?
        public var maxPerDay: Int?
        /// Why other devices' doses could not be brought in first, when they could not.
        public var unsynced: String?
        /// With `apart`: the medicine kept apart from, and the gap.
        public var otherReminder: String?
        public var gapSeconds: Int64?

        public init(
            reminder: String, allowedFromUtc: String, message: String, limit: String? = nil, atUtc: String? = nil, otherUtc: String? = nil,
            count: Int? = nil, minIntervalSeconds: Int64? = nil, maxPerDay: Int? = nil, unsynced: String? = nil
        ) {
            (self.reminder, self.allowedFromUtc, self.message, self.limit, self.atUtc) = (reminder, allowedFromUtc, message, limit, atUtc)
            (self.otherUtc, self.count, self.minIntervalSeconds, self.maxPerDay, self.unsynced) = (otherUtc, count, minIntervalSeconds, maxPerDay, unsynced)
        }
    }

    public struct LogNotFound: VarlinkErrorParameters {
        public var id: Int64
        public var message: String
        public init(id: Int64, message: String) { (self.id, self.message) = (id, message) }
    }

    /// A habit rule refused the request (a rest-day limit, a second recovery).
    public struct HabitRefused: VarlinkErrorParameters {
        public var message: String
        public init(message: String) { self.message = message }
    }

    public struct InvalidInput: VarlinkErrorParameters {
        public var parameter: String
        public var message: String
        public init(parameter: String, message: String) { (self.parameter, self.message) = (parameter, message) }
    }

    /// The store could not be read or written.
    public struct StoreFailure: VarlinkErrorParameters {
        public var message: String
        public init(message: String) { self.message = message }
    }

    /// A Watch client left too many entries unread and was dropped.
    public struct WatchTooSlow: VarlinkErrorParameters {
        public var message: String
        public init(message: String) { self.message = message }
    }

    /// A message that is not a Varlink call, too large, or refused for lack of resources.
    public struct ProtocolError: VarlinkErrorParameters {
        public var reason: String
        public init(reason: String) { self.reason = reason }
    }
}
