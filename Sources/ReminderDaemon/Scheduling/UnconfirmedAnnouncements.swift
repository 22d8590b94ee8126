import ReminderCore
import ReminderStore

/// What a start announces of what a crash left recorded but not confirmed as announced: each record the journal
/// does not have, as what it was (a firing announced again is late), or every one of them, marked as announced
/// again, when the journal cannot be read back. All of them are confirmed afterwards.
///
/// Pure: made from the records, their announcement keys and what the journal holds; the scheduling service
/// restores each one's reminder, announces and confirms.
struct UnconfirmedAnnouncements {
    /// One announcement to make again, with its key (the record it confirms) and its record.
    enum Announcement {
        case firing(key: String, FiringRecord, kind: FiringEvent.Kind)
        case missed(key: String, OutcomeRecord)
        /// A repeat (`number` 1, 2 ...) or a snooze (0) noted but not confirmed.
        case again(key: String, FiringRecord, number: Int)
        case escalation(key: String, FiringRecord, at: Instant)
    }

    /// Every record's announcement key, for the journal look-up.
    let keys: Set<String>
    /// Every record's id, by kind: all are confirmed, whether announced now or found in the journal.
    let confirm: (firings: [Int64], missed: [Int64], again: [Int64], escalations: [Int64])
    /// How many records there were.
    let count: Int
    private let pending: FiringsStore.Unconfirmed
    private let instance: String

    init(_ pending: FiringsStore.Unconfirmed, instance: String) {
        (self.pending, self.instance) = (pending, instance)
        let firings = pending.firings.compactMap(\.id), missed = pending.missed.compactMap(\.id)
        let again = pending.again.compactMap(\.id), escalations = pending.escalations.compactMap(\.id)
        confirm = (firings, missed, again, escalations)
        count = firings.count + missed.count + again.count + escalations.count
        keys = Set(
            firings.map { FiringsStore.announcementKey(instance: instance, firingID: $0) }
                + missed.map { FiringsStore.announcementKey(instance: instance, outcomeID: $0) }
                + pending.again.compactMap { record in record.id.map { FiringsStore.announcementKey(instance: instance, firingID: $0, again: Self.againAt(record)) } }
                + escalations.map { FiringsStore.announcementKey(instance: instance, escalationOf: $0) })
    }

    /// When a noted repeat or snooze was announced.
    private static func againAt(_ record: FiringRecord) -> Instant { Instant(secondsSinceEpoch: record.lastAnnouncedAt ?? record.handledAt) }

    /// What to announce, given the keys the journal holds (nil: it cannot be read back, so everything is): what
    /// the journal lacks, in order (firings, missed notes, repeats and snoozes, escalations).
    func announcements(found: Set<String>?) -> [Announcement] {
        let missing = { (key: String) in found?.contains(key) != true }
        var planned: [Announcement] = []
        for record in pending.firings {
            guard let id = record.id else { continue }
            let key = FiringsStore.announcementKey(instance: instance, firingID: id)
            guard missing(key) else { continue }
            let kind: FiringEvent.Kind = switch record.kind {
            case .fired, .late: .late
            case .suppressed: .suppressed
            case .skipped: .skipped
            case .postponed: .postponed
            }
            planned.append(.firing(key: key, record, kind: kind))
        }
        for record in pending.missed {
            guard let id = record.id else { continue }
            let key = FiringsStore.announcementKey(instance: instance, outcomeID: id)
            if missing(key) { planned.append(.missed(key: key, record)) }
        }
        for record in pending.again {
            guard let id = record.id, let number = record.againPending else { continue }
            let key = FiringsStore.announcementKey(instance: instance, firingID: id, again: Self.againAt(record))
            if missing(key) { planned.append(.again(key: key, record, number: number)) }
        }
        for record in pending.escalations {
            guard let id = record.id, let at = record.escalatedAt else { continue }
            let key = FiringsStore.announcementKey(instance: instance, escalationOf: id)
            if missing(key) { planned.append(.escalation(key: key, record, at: Instant(secondsSinceEpoch: at))) }
        }
        return planned
    }

    /// The journal's notice after the start announced `announced` of them.
    func notice(announced: Int, journalReadable: Bool) -> DaemonMessage {
        journalReadable
            ? DaemonMessage(.notice, DaemonMessages.unconfirmedAnnounced, count: count, [String(count), String(announced)])
            : DaemonMessage(.notice, DaemonMessages.unconfirmedAllAgain, count: count, [String(count)])
    }
}
