import ReminderCore
import ReminderScheduling
import ReminderStore

/// `Firing` of the Varlink interface.
struct FiringValue: Codable, Sendable {
    var reminderId: Int64
    var reminderName: String
    var slot: String
    var local: String
    var utc: String

    init(reminderID: Int64, name: String, occurrence: Occurrence) {
        reminderId = reminderID
        reminderName = name
        slot = occurrence.slotID(reminderID: String(reminderID))
        local = occurrence.localISO8601
        utc = occurrence.instant.description
    }
}

/// `Reminder` of the Varlink interface.
struct ReminderValue: Codable, Sendable {
    var id: Int64
    var name: String
    var rule: RuleSpec
    var summary: String
    var timeZone: String?
    var effectiveTimeZone: String
    var enabled: Bool
    var next: FiringValue?
}

/// `HistoryEntry` of the Varlink interface.
struct HistoryEntryValue: Codable, Sendable {
    var reminderId: Int64
    var reminderName: String
    var slot: String
    var kind: String
    var scheduledUtc: String
    var handledUtc: String
    var lateSeconds: Int64
    var slotsDue: Int
    var detail: String?

    init(_ record: FiringRecord) {
        reminderId = record.reminderId
        reminderName = record.reminderName
        slot = record.slot
        kind = record.kind.rawValue
        scheduledUtc = Instant(secondsSinceEpoch: record.scheduledAt).description
        handledUtc = Instant(secondsSinceEpoch: record.handledAt).description
        lateSeconds = record.lateSeconds
        slotsDue = record.slotsDue
        detail = record.detail
    }
}
