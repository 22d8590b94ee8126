import ReminderCore
import ReminderDaemon
import ReminderDaemonTesting
import ReminderInterface
import VarlinkProtocol

/// `2026-03-02T08:00:00Z` (or with an offset) as an instant.
func instant(_ text: String) -> Instant {
    let parsed = ISO8601.parseInstant(text)!
    return Instant(secondsSinceEpoch: parsed.local.localSeconds - Int64(parsed.offsetSeconds!))
}

/// A rule as the `Add` call takes it: `["daily": true, "at": "08:00"]`.
typealias Rule = [String: JSONValue]

extension TestDaemon {
    /// Adds a reminder through the `Add` method.
    @discardableResult
    func add(_ name: String, _ rule: Rule, timeZone: String? = nil, _ extra: [String: JSONValue] = [:]) async throws -> ReminderValue {
        var parameters: [String: JSONValue] = ["name": .string(name), "rule": .object(rule)].merging(extra) { $1 }
        if let timeZone { parameters["timeZone"] = .string(timeZone) }
        return try await call("Add", parameters, as: [String: ReminderValue].self)["reminder"]!
    }

    /// Logs an intake of a reminder now, or at a time the user typed.
    func log(_ name: String, at: String? = nil) async throws {
        var parameters: [String: JSONValue] = ["reminder": .string(name)]
        if let at { parameters["at"] = .string(at) }
        try await call("Log", parameters)
    }

    /// The recorded firings of one reminder (its name), in the order they were announced.
    func firings(of name: String) -> [FiringEvent] {
        announcer.firings.filter { $0.firing.reminder.name == name }
    }

    /// The stored history of a reminder, oldest first.
    func history(of name: String) async throws -> [HistoryEntryValue] {
        try await call("History", ["reminder": .string(name)], as: [String: [HistoryEntryValue]].self)["entries"]!.reversed()
    }

    /// The next instants `Preview` gives for a rule after an instant.
    func preview(_ rule: Rule, timeZone: String, after: Instant, count: Int) async throws -> [Instant] {
        let firings = try await call(
            "Preview", ["rule": .object(rule), "timeZone": .string(timeZone), "after": .string(after.description), "count": .number(Double(count))],
            as: [String: [FiringValue]].self)["firings"]!
        return firings.map { instant($0.utc) }
    }
}

/// The Varlink error a call ends with (nil: it succeeded, or failed otherwise).
func refusal(_ call: () async throws -> Void) async -> VarlinkError? {
    do {
        try await call()
        return nil
    } catch {
        return error as? VarlinkError
    }
}

extension FiringEvent {
    /// The slot's instant.
    var scheduled: Instant { firing.occurrence.instant }
}
