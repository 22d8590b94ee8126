import ReminderCore
import ReminderStore

/// How the collection's items from other devices and apps are read, decided as values without the folder or the
/// store: what a log or skip from elsewhere does (noted, refused with its one message, or applied), and what a
/// task app's mark on an occurrence task is (a dose, a skip, nothing, or refused). ``CollectionService`` lists,
/// reads the files, asks these, applies what they say in batches and says what they refuse; its mirror for
/// writing is ``CollectionPublisher``. (What a scan finds when it compares the folder with the items linked
/// there, the presence verdict included, is ``ScanFindings``.)
enum CollectionReading {
    /// How far ahead of this device's clock a log or skip from another device may be dated (two clocks a few
    /// minutes apart): beyond it, it is a device with a wrong clock, and the log is not applied.
    static let clockToleranceSeconds: Int64 = 300

    /// A log or skip read from an item, with where it was read: its own item, a completion kept in a task's
    /// item, or an archive (whose records have no files of their own: `file#uid`, no etag).
    struct Record: Sendable {
        enum Source: Sendable, Hashable { case ownItem, completion, occurrenceTask, archive }

        var entry: VdirFolder.Entry
        var text: String
        var record: CollectionItem.Record
        var source: Source
    }

    /// What becomes of a log or skip read from the folder.
    enum RecordDecision: Sendable {
        /// Here already (its file rewritten, the same log): the item is noted with its row.
        case note(CollectionItemRecord)
        /// Not applied, with why; the item is kept aside as another client's (noted when it has a file of its own).
        case refuse(CollectionItemRecord, why: String)
        /// To apply; a log here already (the item's `localId` set) whose item now has another time takes it.
        case apply(CollectionItemRecord)
    }

    /// What a log or skip read from the folder does, given the items linked (`known`). An archive's record is
    /// applied when its log is not here: a row under its name is one left by a log that went with its reminder.
    /// - Parameter zoneProblem: why a zone is not one this device knows, or nil.
    static func decide(_ read: Record, known: [String: CollectionItemRecord], now: Instant, zoneProblem: (String) -> String?) -> RecordDecision {
        let (entry, record) = (read.entry, read.record)
        var item = CollectionItemRecord(
            fileName: entry.name, uid: record.uid, kind: record.kind == .taken ? .taken : .skipped, localId: nil, etag: entry.etag, text: read.text,
            modifiedAt: record.at.secondsSinceEpoch)
        if let row = known[entry.name], row.kind == item.kind, let id = row.localId, read.source != .archive {
            item.localId = id
            // Its time changed: two devices each wrote a phone's tick of one task as the same item at their own
            // times, and the sync kept one version on both: each takes that version's time (they diverged).
            let retimed = item.kind == .taken && row.modifiedAt != record.at.secondsSinceEpoch && read.source == .ownItem
            if !retimed { return .note(item) }
        }
        if let why = refusal(of: record, now: now, zoneProblem: zoneProblem) {
            (item.kind, item.localId) = (.foreign, nil)
            return .refuse(item, why: why)
        }
        return .apply(item)
    }

    /// Why a log or skip from another device is not applied, as `remindctl log` would refuse it: dated ahead of
    /// this device's clock (beyond ``clockToleranceSeconds``), more than the history's years back, or in a zone
    /// that does not exist here. nil: it is applied.
    static func refusal(of record: CollectionItem.Record, now: Instant, zoneProblem: (String) -> String?) -> String? {
        let latest = now.adding(seconds: clockToleranceSeconds)
        if record.at > latest {
            return "it is dated \(record.at), ahead of this device's clock (\(now)) by more than \(clockToleranceSeconds / 60) minutes: "
                + "the device that made it has a wrong clock? log the dose again with the right time"
        }
        if record.kind == .taken, let occurrence = record.occurrence, occurrence > latest {
            return "it takes the occurrence at \(occurrence) late, which is ahead of this device's clock (\(now))"
        }
        let earliest = now.adding(seconds: -Int64(TypedTime.historyYears) * 366 * 86_400)
        if record.at < earliest {
            return "it is dated \(record.at), more than \(TypedTime.historyYears) years ago"
        }
        if let problem = zoneProblem(record.timeZone) { return "its zone is not one this device knows (\(problem))" }
        return nil
    }

    /// What a task app's mark on an occurrence task is here.
    enum TaskMark: Sendable, Hashable {
        /// A dose or skip: its own item (`-taken` or `-skipped` after the task's UID) is written and applied.
        case record(CollectionItem.Record)
        /// Nothing to do: the occurrence was taken or skipped here already (the same dose, not a second one).
        case done
        /// Refused, with the message said once.
        case refused(String)
        /// Marked done before its occurrence was due: no dose (said with the others of the scan).
        case tickedAhead
    }

    /// The reminder a task marks an occurrence of, as the reading needs it.
    struct MarkedReminder: Sendable {
        var name: String
        var rule: ReminderRule
        var zone: TimeZoneRules
        /// Its own zone's name; nil: it follows this device's (`followedZone`).
        var zoneName: String?
        var followedZone: String
        var createdAt: Instant
        var windowSeconds: Int64?
        var medication: MedicationSettings
    }

    /// Whether `task`'s time is an occurrence of `reminder` (from when it was added): the occurrence, or nil.
    static func occurrence(of task: OccurrenceTask.Read, in reminder: MarkedReminder) -> Occurrence? {
        guard let occurrence = reminder.rule.nextOccurrence(after: task.occurrence.adding(seconds: -1), in: reminder.zone),
            occurrence.instant == task.occurrence, task.occurrence >= reminder.createdAt
        else { return nil }
        return occurrence
    }

    /// What `marked` on the task of `occurrence` is, given what this device knows of the occurrence (`facts`): a
    /// task completed is a dose at its COMPLETED time (or now), taken late after its window; a task cancelled a
    /// skip of an occurrence not yet taken; each refused as a log from elsewhere is.
    static func mark(
        _ marked: OccurrenceTask.Marked, task: OccurrenceTask.Read, occurrence: Occurrence, of reminder: MarkedReminder, facts: OccurrenceFacts, now: Instant,
        zoneProblem: (String) -> String?
    ) -> TaskMark {
        let status = reminder.rule.state(
            of: occurrence, in: reminder.zone, logs: facts.logInstants, skips: facts.skips, windowSeconds: reminder.windowSeconds, now: now,
            takenLate: facts.takenLate)
        var record: CollectionItem.Record
        switch marked {
        case .completed(let at):
            guard ![.taken, .suppressed, .takenLate].contains(status.state) else { return .done }
            let when = at ?? now
            record = CollectionItem.Record(
                uid: task.uid + "-taken", kind: .taken, reminder: task.reminder, at: when, timeZone: reminder.zoneName ?? reminder.followedZone)
            if when >= status.windowEnd { record.occurrence = task.occurrence }  // after its window: taken late
            record.amount = reminder.medication.dose(on: occurrence.scheduledDate)?.thousandths
        case .cancelled:
            guard [.upcoming, .due, .missed].contains(status.state) else { return .done }
            record = CollectionItem.Record(
                uid: task.uid + "-skipped", kind: .skipped, reminder: task.reminder, at: now, timeZone: "UTC", occurrence: task.occurrence,
                reason: "cancelled in a task app")
        }
        if let why = refusal(of: record, now: now, zoneProblem: zoneProblem) { return .refused(why) }
        if record.kind == .taken,
            !OccurrenceTask.completionTakes(
                occurrence, at: record.at, rule: reminder.rule, zone: reminder.zone, logs: facts.logInstants, windowSeconds: reminder.windowSeconds)
        {
            return .tickedAhead
        }
        return .record(record)
    }
}
