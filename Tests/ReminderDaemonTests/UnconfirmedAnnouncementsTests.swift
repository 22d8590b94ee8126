import ReminderCore
import ReminderStore
import Testing

@testable import ReminderDaemon

/// What a start announces of what a crash left recorded but unconfirmed, decided directly from the records and
/// what the journal holds (the crash tests run it through the daemon and the real journal).
@Suite("Unconfirmed announcements")
struct UnconfirmedAnnouncementsTests {
    static func firing(_ id: Int64, _ kind: FiringRecord.Kind, againPending: Int? = nil, escalatedAt: Int64? = nil) -> FiringRecord {
        var record = FiringRecord(
            reminderId: 7, reminderName: "Pills", slot: "7@\(id)", scheduledAt: 1_000 * id, handledAt: 1_000 * id, kind: kind, lateSeconds: 0, slotsDue: 1,
            detail: nil)
        (record.id, record.againPending, record.escalatedAt, record.lastAnnouncedAt) = (id, againPending, escalatedAt, againPending.map { _ in 1_000 * id + 600 })
        return record
    }

    static let pending: FiringsStore.Unconfirmed = {
        var missed = OutcomeRecord(reminderId: 7, reminderName: "Pills", slot: "7@9", scheduledAt: 9_000, state: .missed, decidedAt: 12_600, reason: nil)
        missed.id = 21
        return FiringsStore.Unconfirmed(
            firings: [firing(1, .fired), firing(2, .suppressed), firing(3, .postponed)], missed: [missed],
            again: [firing(4, .fired, againPending: 2), firing(5, .fired, againPending: 0), firing(6, .fired)],
            escalations: [firing(8, .fired, escalatedAt: 8_900)])
    }()

    @Test func whatTheJournalLacksIsAnnouncedAsWhatItWasAndEverythingIsConfirmed() {
        let plan = UnconfirmedAnnouncements(Self.pending, instance: "i")
        #expect(plan.keys.count == 8 && plan.count == 8)
        #expect(plan.confirm.firings == [1, 2, 3] && plan.confirm.missed == [21] && plan.confirm.again == [4, 5, 6] && plan.confirm.escalations == [8])
        // The journal has the first firing and the repeat: the rest is announced, a fired one as late.
        let found: Set<String> = [FiringsStore.announcementKey(instance: "i", firingID: 1),
                                  FiringsStore.announcementKey(instance: "i", firingID: 4, again: Instant(secondsSinceEpoch: 4_600))]
        let described = plan.announcements(found: found).map { announcement -> String in
            switch announcement {
            case .firing(_, let record, let kind): "firing \(record.id ?? 0) \(kind)"
            case .missed(_, let record): "missed \(record.id ?? 0)"
            case .again(_, let record, let number): "again \(record.id ?? 0) #\(number)"
            case .escalation(_, let record, let at): "escalation \(record.id ?? 0) at \(at.secondsSinceEpoch)"
            }
        }
        #expect(described == ["firing 2 suppressed", "firing 3 postponed", "missed 21", "again 5 #0", "escalation 8 at 8900"])
        #expect(plan.notice(announced: 5, journalReadable: true).text == "8 announcements were recorded before a restart but not confirmed: 5 of them had not reached the journal and were announced now")
        // In the journal's language (it was English whatever the language).
        let entry = JournalAnnouncer.entry(for: .daemon(plan.notice(announced: 5, journalReadable: true)), in: TranslatedWordingTests.MarkingCatalog())
        #expect(entry.message.hasPrefix("«8 announcements were recorded") && entry.message.hasSuffix("announced now»"))
    }

    @Test func aJournalThatCannotBeReadBackHasEverythingAnnouncedAgain() {
        let plan = UnconfirmedAnnouncements(Self.pending, instance: "i")
        let all = plan.announcements(found: nil)
        #expect(all.count == 7, "every record but the one with nothing noted again (6)")
        if case .firing(_, _, let kind) = all[0] { #expect(kind == .late) } else { Issue.record("a firing first") }
        #expect(plan.notice(announced: 7, journalReadable: false).text.hasSuffix("the journal cannot be read back, so all were announced again"))
    }
}
