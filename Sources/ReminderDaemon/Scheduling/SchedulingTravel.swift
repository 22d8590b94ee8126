import ReminderCore
import ReminderScheduling
import ReminderStore

/// Travel: the zone the reminders without their own follow (the system's, or config.toml's `time-zone`) is not
/// the one they followed when remindd last looked (the store keeps it): each moves to local time from the last
/// local slot it handled (``ZoneMove``: none twice, none lost), and what moved and what stayed is said once.
extension SchedulingService {
    /// Moves the reminders that follow the zone when it is another than the store's, keeps what they handled and
    /// the zone in the store, and says so. - Parameter replanning: plan the moved reminders again (false at the
    /// start, before they are loaded). - Returns: how many moved.
    @discardableResult
    func followTheZone(now: Instant, replanning: Bool = true) async -> Int {
        let current = context.settings.followedZone.name
        let followed: String?
        let reminders: [StoredReminder]
        do {
            followed = try stores.reminders.followedZone()
            guard followed != current else { return 0 }  // every start: the reminders are read only when it moved
            reminders = try stores.reminders.all()
        } catch {
            context.say(.error, "Cannot read which zone the reminders followed: \(error); those without their own zone are planned in \(current) as they stand")
            return 0
        }
        var moves: [(id: Int64, instant: Instant)] = []
        // A store older than travel, or a zone whose rules are gone: nothing to move from; the zone is noted.
        if let followed, let old = try? context.settings.zone(named: followed) {
            for reminder in reminders where reminder.enabled && reminder.timeZone == nil && reminder.delivery.calendar == nil {
                guard let schedulable = try? schedulable(reminder) else { continue }  // unusable: load says why
                let plan = ZoneMove.plan(
                    schedulable.rule, from: old, to: schedulable.zone, handledThrough: Instant(secondsSinceEpoch: reminder.handledThrough),
                    createdAt: Instant(secondsSinceEpoch: reminder.createdAt))
                skipAnnouncedBefore(plan.alreadyAnnounced, of: schedulable, in: followed, now: now)
                moves.append((reminder.id, plan.handledThrough))
            }
        }
        do { try stores.reminders.moved(to: current, handledThrough: moves) } catch {
            context.say(.error, "Cannot keep that the reminders now follow \(current): \(error); they are planned there, and a restart may plan them again")
        }
        if let followed {
            let kept = reminders.filter { $0.enabled && $0.timeZone != nil && $0.delivery.calendar == nil }
            context.announcer.announce(.travelled(Self.notice(from: followed, to: current, moved: moves.count, kept: kept, now: now, settings: context.settings)))
        }
        guard replanning, !moves.isEmpty else { return moves.count }
        // Planned with the skips just recorded: a slot due at once (the change noticed late) is not announced.
        if moves.count > Self.batchThreshold {
            do { try await refresh(reminderIDs: Set(moves.map(\.id))) } catch { context.say(.error, "Cannot read the reminders to plan them in \(current): \(error)") }
        } else {
            for move in moves { refresh(reminderID: move.id) }
        }
        for move in moves { restoreSkippedAhead(reminderID: move.id, now: now) }
        return moves.count
    }

    /// Skips the slots the new zone brings again (their local times were announced in `old`), with why: a
    /// record of its own, so a restart does not announce them either.
    private func skipAnnouncedBefore(_ occurrences: [Occurrence], of reminder: SchedulableReminder, in old: String, now: Instant) {
        for occurrence in occurrences {
            let event = OccurrenceEvent(
                state: .skipped, firing: DueFiring(reminder: reminder, occurrence: occurrence, slotsDue: 1, lateSeconds: 0),
                windowEnd: reminder.windowEnd(of: occurrence), decidedAt: now,
                reason: "its \(occurrence.localDateTime.time.description.prefix(5)) was announced in \(old) before the zone changed")
            do { try recordSkip(event) } catch {
                context.say(.error, "Cannot skip \(reminder.name)'s \(occurrence.localDateTime), announced in \(old) already: \(error); it may be announced again")
            }
        }
    }

    /// What moved and what stayed: those that keep their zone with their next time there and here (five named).
    static func notice(from old: String, to new: String, moved: Int, kept: [StoredReminder], now: Instant, settings: DaemonSettings) -> TravelNotice {
        // The new zone's rules are gone (a tzdata update meanwhile): the reminders that stay are not named.
        let here = try? settings.zone(named: new)
        let stays = kept.prefix(5).compactMap { reminder -> TravelNotice.Stay? in
            guard let here, let (rule, zone) = settings.schedule(reminder.rule, in: reminder.timeZone), let next = rule.nextOccurrence(after: now, in: zone) else {
                return nil
            }
            return TravelNotice.Stay(name: reminder.name, zone: zone.identifier, there: next.localDateTime.time, here: here.localDateTime(at: next.instant).time)
        }
        return TravelNotice(from: old, to: new, moved: moved, stays: stays, moreStay: max(0, kept.count - stays.count))
    }
}
