import ReminderCore
import ReminderScheduling
import ReminderStore

/// Medicines kept apart (`--apart-from Iron 4h`): an occurrence that comes within the gap of the other's dose,
/// or of the other's occurrence still due that goes first, is not announced then but at the gap's end, with the
/// reason; the wait is a stored snooze, so a restart keeps it. Every announcement checks again (a snooze's or a
/// repeat's), so a dose of the other taken meanwhile moves it on. (``DoseGaps`` decides.)
extension SchedulingService {
    /// An event to announce, or the postponement of it while a medicine it is kept apart from holds it back
    /// (its snooze stored first: a crash after the record cannot lose it).
    func keepingApart(_ event: FiringEvent, now: Instant) -> FiringEvent {
        guard [.fired, .late].contains(event.kind), let hold = apartHold(of: event.firing, now: now) else { return event }
        guard storeWait(event.firing, hold) else { return event }
        let zone = event.firing.reminder.zone
        return FiringEvent(kind: .postponed, firing: event.firing, handledAt: now, detail: Self.heldText(hold, in: zone))
    }

    /// Whether an occurrence due to be announced again now waits instead (then its snooze moved to the gap's end).
    func waitsApart(_ firing: DueFiring, now: Instant) -> Bool {
        guard let hold = apartHold(of: firing, now: now), storeWait(firing, hold) else { return false }
        context.say(.info, DaemonMessages.waitsApart, firing.reminder.name, Self.heldText(hold, in: firing.reminder.zone))
        return true
    }

    /// Stores the wait as the occurrence's snooze. - Returns: whether it was stored (unstored, the occurrence is
    /// announced now rather than lost).
    private func storeWait(_ firing: DueFiring, _ hold: DoseGaps.Hold) -> Bool {
        do {
            _ = try snooze(firing, until: hold.until)
            keptApart[OccurrenceKey(firing)] = hold
            return true
        } catch {
            context.say(.warning, "Could not store that \(firing.reminder.name) waits for \(hold.partner): \(error); it is announced now")
            return false
        }
    }

    /// "kept 4h apart from Iron (taken at 08:30): announced at 12:30", for the record and the journal.
    static func heldText(_ hold: DoseGaps.Hold, in zone: TimeZoneRules) -> String {
        let wording = FiringWording.english
        let from = "\(hold.taken ? "taken" : "due") at \(wording.when(zone, hold.from))"
        return "kept \(WindowLength.text(hold.gapSeconds)) apart from \(hold.partner) (\(from)): announced at \(wording.when(zone, hold.until))"
    }

    /// What holds an occurrence back now, if anything: read from the partners' doses and their occurrences
    /// still due. A read that fails announces it (said): a dose is not held back on a guess either.
    func apartHold(of firing: DueFiring, now: Instant) -> DoseGaps.Hold? {
        let reminder = firing.reminder
        let gaps = (scheduler.reminder(id: reminder.id)?.delivery ?? reminder.delivery).medication.apart
        guard !gaps.isEmpty else { return nil }
        do {
            var partners: [DoseGaps.Partner] = []
            for gap in gaps {
                guard let stored = try stores.reminders.named(gap.reminder), let partner = scheduler.reminder(id: stored.id) else { continue }
                partners.append(try self.partner(partner, gap: gap.seconds, now: now))
            }
            return DoseGaps.hold(now: now, occurrence: firing.occurrence.instant, name: reminder.name, partners: partners)
        } catch {
            context.say(.warning, "Could not read the doses of what \(reminder.name) is kept apart from: \(error); it is announced without waiting")
            return nil
        }
    }

    /// A partner's doses within the gap before `now`, and its occurrences in that time still due.
    private func partner(_ partner: SchedulableReminder, gap: Int64, now: Instant) throws(StoreError) -> DoseGaps.Partner {
        let from = now.adding(seconds: -gap)
        let logs = try stores.intake.instants(reminderID: partner.id, from: from.adding(seconds: -2 * 86400), through: now)
        let doses = try stores.intake.instants(reminderID: partner.id, from: from, through: now, lateTakes: true)
        let skips = try stores.firings.skips(from: from, through: now, reminderIDs: [partner.id])[partner.id] ?? []
        var pending: [Instant] = []
        var next = partner.rule.nextOccurrence(after: from, in: partner.zone)
        for _ in 0..<Self.burstChunk {  // a bound: a minutely rule in a day's gap is 1,440
            guard let occurrence = next, occurrence.instant <= now else { break }
            let status = partner.rule.state(
                of: occurrence, in: partner.zone, logs: logs, skips: skips, windowSeconds: partner.windowSeconds, now: now, pauses: partner.delivery.pause)
            if status.state == .due { pending.append(occurrence.instant) }
            next = partner.rule.nextOccurrence(after: occurrence.instant, in: partner.zone)
        }
        return DoseGaps.Partner(gap: DoseGap(reminder: partner.name, seconds: gap), doses: doses, pending: pending)
    }
}
