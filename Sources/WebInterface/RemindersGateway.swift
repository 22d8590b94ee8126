import NIOPosix
import ReminderCore
import ReminderInterface
import VarlinkProtocol

/// What the pages ask of remindd: the port remindd-web's pages are written against (tests give a fake).
public protocol RemindersGateway: Sendable {
    /// Today's occurrences and where each as-needed medication stands.
    func today() async throws -> Reminders.Occurrences.Reply
    /// Takes the reminder's due occurrence now.
    func take(reminderID: Int64) async throws
    /// Skips the reminder's due occurrence.
    func skip(reminderID: Int64) async throws
    /// Announces the reminder's due occurrence again in `minutes`.
    func snooze(reminderID: Int64, minutes: Int) async throws
    /// Logs a dose of the reminder now (an as-needed medication's "Take one now"), within its limits.
    func logNow(reminderID: Int64) async throws
    /// The stock of every medication.
    /// The stocks that run low (``StockValue/runsLow``).
    func stocksRunningLow() async throws -> [StockValue]
    /// A page of the stocks: at most `limit` after the reminder id `after`, and the `after` of the next page.
    func stocks(after: Int64, limit: Int) async throws -> (stocks: [StockValue], next: Int64?)
    /// Counts a medication's stock (`set`) or adds a pack (`expires`: `2027-03` or a day; nil: it does not).
    func changeStock(reminderID: Int64, amount: String, expires: String?, set: Bool) async throws
    /// One reminder, by its id.
    func reminder(id: Int64) async throws -> ReminderValue
    /// A page of at most `limit` reminders after the id `after` (0: from the first), and the `after` of the next.
    func reminders(after: Int64, limit: Int) async throws -> (reminders: [ReminderValue], next: Int64?)
    /// The next `count` firings of a rule (`remindctl preview`), in remindd-web's zone.
    func preview(_ rule: RuleSpec, count: Int) async throws -> [FiringValue]
    func add(_ parameters: Reminders.Add.Parameters) async throws
    func update(_ parameters: Reminders.Update.Parameters) async throws
    func setEnabled(reminderID: Int64, _ enabled: Bool) async throws
    func remove(reminderID: Int64) async throws
    /// Pauses a reminder (`remindctl pause`): `from` empty is now; dates and times as remindctl takes them.
    func pause(reminderID: Int64, from: String?, until: String, reason: String?) async throws
    /// Ends its pause now, and removes those ahead (`remindctl resume`).
    func resume(reminderID: Int64) async throws
    /// The habit's streak, and its month calendar (`2026-11`; nil: this month).
    func streak() async throws -> StreakValue
    func habitCalendar(month: String?) async throws -> CalendarValue
    /// Marks `date` (YYYY-MM-DD) a rest day.
    func markRest(date: String, reason: String?) async throws
    /// The adherence report of the days from `from` to `to` (YYYY-MM-DD; nil: remindd's default, 90 days).
    func report(from: String?, to: String?) async throws -> Reminders.Report.Reply
    /// The newest `limit` handled firings and logs.
    func history(limit: Int) async throws -> [HistoryEntryValue]
    /// Hands on the kind of each entry of remindd's Watch stream (a firing, a log, a miss) until cancelled;
    /// `subscribed` runs once the Watch call is sent (what changed before it is not in the stream).
    func watch(subscribed: @Sendable () async throws -> Void, _ body: @Sendable (String) async throws -> Void) async throws
}

/// remindd over its Varlink socket, as `remindctl` calls it: a connection per request, each call on NIO's
/// thread pool (the client blocks; the server's event loops and Swift's shared threads must not).
public struct VarlinkRemindersGateway: RemindersGateway {
    let socketPath: String

    public init(socketPath: String) { self.socketPath = socketPath }

    public func today() async throws -> Reminders.Occurrences.Reply {
        try await call(Reminders.Occurrences.self, .init(date: nil))
    }

    public func take(reminderID: Int64) async throws {
        _ = try await call(Reminders.Done.self, .init(reminder: String(reminderID)))
    }

    public func skip(reminderID: Int64) async throws {
        _ = try await call(Reminders.Skip.self, .init(reminder: String(reminderID)))
    }

    public func snooze(reminderID: Int64, minutes: Int) async throws {
        _ = try await call(Reminders.Snooze.self, .init(reminder: String(reminderID), minutes: minutes))
    }

    public func logNow(reminderID: Int64) async throws {
        _ = try await call(Reminders.Log.self, .init(reminder: String(reminderID)))
    }

    public func stocksRunningLow() async throws -> [StockValue] {
        try await call(Medication.Stock.self, .init(runningLow: true)).stocks
    }

    public func stocks(after: Int64, limit: Int) async throws -> (stocks: [StockValue], next: Int64?) {
        let page = try await call(Medication.Stock.self, .init(after: after, limit: limit))
        return (page.stocks, page.after)
    }

    public func changeStock(reminderID: Int64, amount: String, expires: String?, set: Bool) async throws {
        let parameters = StockAmount(reminder: String(reminderID), amount: amount, expires: expires)
        _ = set ? try await call(Medication.StockSet.self, parameters) : try await call(Medication.StockAdd.self, parameters)
    }

    public func reminder(id: Int64) async throws -> ReminderValue {
        try await call(Reminders.Get.self, ReminderKey(reminder: String(id))).reminder
    }

    public func reminders(after: Int64, limit: Int) async throws -> (reminders: [ReminderValue], next: Int64?) {
        let page = try await call(Reminders.List.self, .init(after: after, limit: limit))
        return (page.reminders, page.after)
    }

    public func preview(_ rule: RuleSpec, count: Int) async throws -> [FiringValue] {
        try await call(Reminders.Preview.self, .init(rule: rule, count: count)).firings
    }

    public func add(_ parameters: Reminders.Add.Parameters) async throws {
        _ = try await call(Reminders.Add.self, parameters)
    }

    public func update(_ parameters: Reminders.Update.Parameters) async throws {
        _ = try await call(Reminders.Update.self, parameters)
    }

    public func setEnabled(reminderID: Int64, _ enabled: Bool) async throws {
        let key = ReminderKey(reminder: String(reminderID))
        _ = enabled ? try await call(Reminders.Enable.self, key) : try await call(Reminders.Disable.self, key)
    }

    public func remove(reminderID: Int64) async throws {
        _ = try await call(Reminders.Remove.self, ReminderKey(reminder: String(reminderID)))
    }

    public func pause(reminderID: Int64, from: String?, until: String, reason: String?) async throws {
        _ = try await call(Reminders.Pause.self, .init(reminder: String(reminderID), from: from, until: until, reason: reason))
    }

    public func resume(reminderID: Int64) async throws {
        _ = try await call(Reminders.Resume.self, .init(reminder: String(reminderID)))
    }

    public func streak() async throws -> StreakValue {
        try await call(Habits.Streak.self, NoFields())
    }

    public func habitCalendar(month: String?) async throws -> CalendarValue {
        try await call(Habits.Calendar.self, .init(month: month))
    }

    public func markRest(date: String, reason: String?) async throws {
        _ = try await call(Habits.RestMark.self, .init(from: date, reason: reason))
    }

    public func report(from: String?, to: String?) async throws -> Reminders.Report.Reply {
        try await call(Reminders.Report.self, .init(from: from, to: to))
    }

    public func history(limit: Int) async throws -> [HistoryEntryValue] {
        try await call(Reminders.History.self, .init(limit: limit)).entries
    }

    public func watch(subscribed: @Sendable () async throws -> Void, _ body: @Sendable (String) async throws -> Void) async throws {
        try await RemindersWatch(socketPath: socketPath).entries(subscribed: subscribed, body)
    }

    private func call<Method: VarlinkMethod>(_ method: Method.Type, _ parameters: Method.Parameters) async throws -> Method.Reply {
        let path = socketPath
        return try await NIOThreadPool.singleton.runIfActive {
            let connection = try VarlinkConnection(path: path)
            return try connection.call(method, parameters)
        }
    }
}
