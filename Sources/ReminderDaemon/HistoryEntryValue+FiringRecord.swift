import ReminderCore
import ReminderInterface
import ReminderStore

extension HistoryEntryValue {
    /// The interface record of a stored firing.
    init(_ record: FiringRecord) {
        self.init(
            reminderId: record.reminderId, reminderName: record.reminderName, slot: record.slot, kind: record.kind.rawValue,
            scheduledUtc: Instant(secondsSinceEpoch: record.scheduledAt).description,
            handledUtc: Instant(secondsSinceEpoch: record.handledAt).description,
            lateSeconds: record.lateSeconds, slotsDue: record.slotsDue, detail: record.detail)
    }
}
