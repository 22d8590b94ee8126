import ReminderCore
import ReminderInterface
import VarlinkProtocol
import VarlinkServer

/// The reminder methods of `io.remindd.Reminders`: their parameters and how each maps onto ``ReminderService``.
extension ReminderService {
    struct Key: Decodable { let reminder: String }
    struct AddParameters: Decodable {
        let name: String; let rule: RuleSpec; let timeZone: String?; let enabled: Bool?; let window: String?
        let `repeat`: String?; let repeatMax: Int?; let command: [String]?; let urgency: String?
    }
    struct UpdateParameters: Decodable {
        let reminder: String; let name: String?; let rule: RuleSpec?; let timeZone: String?; let window: String?
        let `repeat`: String?; let repeatMax: Int?; let command: [String]?; let urgency: String?
    }
    struct PreviewParameters: Decodable { let rule: RuleSpec; let timeZone: String?; let after: String?; let count: Int? }
    struct CountParameters: Decodable { let count: Int? }
    struct LogParameters: Decodable { let reminder: String; let at: String? }
    struct SnoozeParameters: Decodable { let reminder: String; let minutes: Int }
    struct SkipParameters: Decodable { let reminder: String; let reason: String? }
    struct LogsParameters: Decodable { let date: String?; let reminder: String? }
    struct LogID: Decodable { let id: Int64 }
    struct HistoryParameters: Decodable { let since: String?; let reminder: String?; let limit: Int? }
    struct ListParameters: Decodable { let after: Int64?; let limit: Int? }
    struct ListReply: Encodable { let reminders: [ReminderValue]; let after: Int64? }
    struct OccurrencesParameters: Decodable { let date: String?; let reminder: String? }

    func register(in router: inout MethodRouter) {
        router.method("Add", AddParameters.self) { p in
            let delivery = DeliveryChange(repeat: p.repeat, repeatMax: p.repeatMax, command: p.command, urgency: p.urgency)
            return ["reminder": try await add(name: p.name, rule: p.rule, timeZone: p.timeZone, enabled: p.enabled ?? true, window: p.window, delivery: delivery)]
        }
        router.method("Update", UpdateParameters.self) { p in
            let delivery = DeliveryChange(repeat: p.repeat, repeatMax: p.repeatMax, command: p.command, urgency: p.urgency)
            return ["reminder": try await update(key: p.reminder, name: p.name, rule: p.rule, timeZone: p.timeZone, window: p.window, delivery: delivery)]
        }
        router.method("Remove", Key.self) { p in
            try await remove(key: p.reminder)
            return EmptyReply()
        }
        router.method("Enable", Key.self) { p in ["reminder": try await setEnabled(key: p.reminder, true)] }
        router.method("Disable", Key.self) { p in ["reminder": try await setEnabled(key: p.reminder, false)] }
        // One page (of `limit`, default 500) and the `after` of the next; called with `more`, every page as its
        // own reply. Never everything in one reply: a reply is encoded without a break.
        router.register("List") { call, reply in
            let p = try call.decodeParameters(ListParameters.self)
            if call.more == true {
                var after: Int64? = p.after ?? 0
                while let start = after {
                    let page = try list(after: start, limit: p.limit ?? Self.listPageSize)
                    after = page.next
                    try await reply(VarlinkReply(parameters: try JSONValue(encoding: ListReply(reminders: page.reminders, after: nil)), continues: after != nil ? true : nil))
                    // A write that does not have to wait does not suspend: without this, the pages would hold
                    // their thread to the end, and a firing queued behind them would wait (7 s for 100,000).
                    await yieldToQueuedWork()
                }
            } else {
                let page = try list(after: p.after ?? 0, limit: p.limit ?? Self.listPageSize)
                try await reply(VarlinkReply(parameters: try JSONValue(encoding: ListReply(reminders: page.reminders, after: page.next))))
            }
        }
        router.method("Get", Key.self) { p in ["reminder": try get(key: p.reminder)] }
        router.method("Occurrences", OccurrencesParameters.self) { p in try await occurrences(date: p.date, key: p.reminder) }
        router.method("Preview", PreviewParameters.self) { p in
            ["firings": try preview(rule: p.rule, timeZone: p.timeZone, after: p.after, count: p.count ?? 10)]
        }
        router.method("Next", CountParameters.self) { p in ["firings": try await next(count: p.count ?? 10)] }
        router.method("Log", LogParameters.self) { p in try await log(key: p.reminder, at: p.at) }
        router.method("Done", Key.self) { p in try await done(key: p.reminder) }
        router.method("Skip", SkipParameters.self) { p in ["occurrence": try await skip(key: p.reminder, reason: p.reason)] }
        router.method("Snooze", SnoozeParameters.self) { p in try await snooze(key: p.reminder, minutes: p.minutes) }
        router.method("Logs", LogsParameters.self) { p in ["logs": try logs(date: p.date, key: p.reminder)] }
        router.method("DeleteLog", LogID.self) { p in ["log": try await deleteLog(id: p.id)] }
        router.method("History", HistoryParameters.self) { p in
            ["entries": try history(since: p.since, key: p.reminder, limit: p.limit ?? 1000)]
        }
    }
}
