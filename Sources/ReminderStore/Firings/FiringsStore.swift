import GRDB
import ReminderCore

/// What became of each slot: handled firings (recorded, announced, confirmed), decided outcomes (missed,
/// skipped) and pending snoozes (the scheduling service's store).
public struct FiringsStore: Sendable {
    let database: ReminderStore

    // MARK: Snoozes

    /// Records a snoozed repeat of an occurrence, so that it survives a restart; it replaces an earlier snooze
    /// of the same occurrence.
    public func setSnooze(reminderID: Int64, scheduledAt: Instant, dueAt: Instant) throws(StoreError) {
        try database.write { db in
            _ = try SnoozeRecord.of(reminderID: reminderID, scheduledAt: scheduledAt).deleteAll(db)
            var record = SnoozeRecord(id: nil, reminderId: reminderID, scheduledAt: scheduledAt.secondsSinceEpoch, dueAt: dueAt.secondsSinceEpoch)
            try record.insert(db)
        }
    }

    /// Every pending snooze, the next due first.
    public func snoozes() throws(StoreError) -> [SnoozeRecord] {
        try database.read { db in try SnoozeRecord.order(SnoozeRecord.Columns.dueAt).fetchAll(db) }
    }

    /// Forgets the snooze of an occurrence (announced, or cancelled by a log or a skip).
    public func removeSnooze(reminderID: Int64, scheduledAt: Instant) throws(StoreError) {
        try database.write { db in _ = try SnoozeRecord.of(reminderID: reminderID, scheduledAt: scheduledAt).deleteAll(db) }
    }

    // MARK: Firings

    /// What ``recordFiring(_:handledThrough:)`` did.
    public enum FiringRecorded: Sendable, Hashable {
        /// Recorded (unconfirmed: see ``confirmAnnounced(_:)``) as row `id`; `replanned` when the slot had been
        /// handled once already, before the clock went back.
        case recorded(id: Int64, replanned: Bool)
        /// Not recorded: the reminder's `handledThrough` already covers the slot (the caller must not announce it).
        case alreadyHandled
    }

    /// Durably records a handled firing and advances the reminder's `handledThrough`, in one transaction.
    ///
    /// A slot at or before the reminder's `handledThrough` is never recorded again: that is what makes every
    /// slot fire once across retries and restarts. Only ``rewindHandled(to:)`` (the clock went back) lowers
    /// `handledThrough`; a slot handled again after it is recorded a second time, marked `replanned`.
    public func recordFiring(_ record: FiringRecord, handledThrough: Instant) throws(StoreError) -> FiringRecorded {
        try recordFirings([(record, handledThrough)])[0]
    }

    /// Records several handled firings in order, in one transaction (one write to the disk for a burst of
    /// firings due together); each as ``recordFiring(_:handledThrough:)`` does. All or none are recorded.
    public func recordFirings(_ batch: [(record: FiringRecord, handledThrough: Instant)]) throws(StoreError) -> [FiringRecorded] {
        try database.write { db in
            let handledThrough = try RemindersStore.HandledThrough(db)
            // SQL: prepared inserts for the whole batch; the record's own insert builds its statement and arguments
            // again for each row (11% of a burst of 10,000). A slot's first record is the plain insert (number 0);
            // only when the slot was recorded before (the clock went back) is it numbered by its earlier records.
            // Without `RETURNING`, which made and dropped a result table and a cursor per row (a seventh of a burst).
            // Unconfirmed until announced.
            let insertInto = "INSERT INTO firing (reminderId, reminderName, slot, scheduledAt, handledAt, kind, lateSeconds, slotsDue, detail, replanned, confirmed)"
            let first = try db.cachedStatement(sql: """
                \(insertInto) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0, 0)
                ON CONFLICT (reminderId, slot, scheduledAt, replanned) DO NOTHING
                """)
            let again = try db.cachedStatement(sql: """
                \(insertInto) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, (SELECT count(*) FROM firing WHERE reminderId = ?1 AND slot = ?3 AND scheduledAt = ?4), 0)
                """)
            return try batch.map { record, through in
                guard try handledThrough.advance(record.reminderId, past: record.scheduledAt, to: through) else { return .alreadyHandled }
                let arguments: StatementArguments = [
                    record.reminderId, record.reminderName, record.slot, record.scheduledAt, record.handledAt, record.kind.rawValue,
                    record.lateSeconds, record.slotsDue, record.detail,
                ]
                try first.execute(arguments: arguments)
                if db.changesCount > 0 { return .recorded(id: db.lastInsertedRowID, replanned: false) }
                try again.execute(arguments: arguments)
                return .recorded(id: db.lastInsertedRowID, replanned: true)
            }
        }
    }

    /// Lowers every `handledThrough` that is after `now` to `now`: the clock went back, and the slots that are
    /// in the future again are to be handled again.
    /// - Returns: how many reminders were re-planned.
    public func rewindHandled(to now: Instant) throws(StoreError) -> Int {
        try database.write { db in try RemindersStore.rewindHandled(to: now, in: db) }
    }

    // MARK: Outcomes

    /// Records what became of an occurrence (missed, skipped), once: a second record of the same occurrence
    /// and state changes nothing. A missed note the daemon announces is recorded unconfirmed
    /// (`confirmed` false) and confirmed with ``confirmAnnounced(_:)`` once announced.
    /// - Returns: its row id when it was recorded now (nil: it already was).
    public func recordOutcome(_ outcome: OutcomeRecord) throws(StoreError) -> Int64? {
        try database.write { db in
            try outcome.insert(db, onConflict: .ignore)
            return db.changesCount > 0 ? db.lastInsertedRowID : nil
        }
    }

    /// The outcomes of a reminder's occurrences scheduled between two instants, oldest first: every one, or
    /// those in `state`.
    public func outcomes(reminderID: Int64, from: Instant, through: Instant, state: OutcomeRecord.State? = nil) throws(StoreError) -> [Stored<OutcomeRecord>] {
        try database.read { db in
            var request = OutcomeRecord.filter(OutcomeRecord.Columns.reminderId == reminderID && OutcomeRecord.Columns.scheduledAt >= from.secondsSinceEpoch
                && OutcomeRecord.Columns.scheduledAt <= through.secondsSinceEpoch)
            if let state { request = request.filter(OutcomeRecord.Columns.state == state.rawValue) }
            return try request.order(OutcomeRecord.Columns.scheduledAt).stored().fetchAll(db)
        }
    }

    /// Removes a skip (`remindctl unskip`). - Returns: whether there was one.
    public func removeSkip(id: Int64) throws(StoreError) -> Bool {
        try database.write { db in try FiringsStore.deleteSkip(id, in: db) != nil }
    }

    /// The instants of the skipped occurrences scheduled between two instants (inclusive), per reminder: of
    /// `reminderIDs`, or of all reminders when it is nil.
    public func skips(from: Instant, through: Instant, reminderIDs: [Int64]? = nil) throws(StoreError) -> [Int64: Set<Instant>] {
        try decided(from: from, through: through, reminderIDs: reminderIDs, state: .skipped)
    }

    /// The instants of the occurrences scheduled between two instants (inclusive) whose outcome is recorded
    /// (`state`, or any), per reminder: of `reminderIDs`, or of all reminders when it is nil.
    public func decided(from: Instant, through: Instant, reminderIDs: [Int64]? = nil, state: OutcomeRecord.State? = nil) throws(StoreError) -> [Int64: Set<Instant>] {
        if reminderIDs?.isEmpty == true { return [:] }
        let which = reminderIDs.map { "reminderId IN \(ReminderStore.idList($0)) AND" } ?? ""
        let ofState = state == nil ? "" : "AND state = ?"
        return try database.read { db in
            var result: [Int64: Set<Instant>] = [:]
            // SQL: an id list the query interface would bind one by one, read by a cursor without records.
            let rows = try Row.fetchCursor(
                db, sql: "SELECT reminderId, scheduledAt FROM outcome WHERE \(which) scheduledAt BETWEEN ? AND ? \(ofState)",
                arguments: StatementArguments([from.secondsSinceEpoch, through.secondsSinceEpoch] + (state.map { [$0.rawValue] } ?? [])))
            while let row = try rows.next() { result[row[0], default: []].insert(Instant(secondsSinceEpoch: row[1])) }
            return result
        }
    }

    /// Outcomes decided since an instant, newest first, optionally for one reminder (for the history).
    public func outcomes(since: Instant, reminderID: Int64? = nil, limit: Int) throws(StoreError) -> [OutcomeRecord] {
        try database.read { db in
            var request = OutcomeRecord.filter(OutcomeRecord.Columns.decidedAt >= since.secondsSinceEpoch)
            if let reminderID { request = request.filter(OutcomeRecord.Columns.reminderId == reminderID) }
            return try request.order(OutcomeRecord.Columns.decidedAt.desc, OutcomeRecord.Columns.id.desc).limit(limit).fetchAll(db)
        }
    }

    /// Notes, before it goes out, that an announced occurrence is announced again at `at` (a snooze, whose
    /// stored snooze goes in the same transaction, or its `repeats`-th repeat), pending until
    /// ``confirmAnnounced(_:)``: a crash before that leaves it to be looked up in the journal at the next start.
    /// - Returns: the id of the occurrence's firing record, the key of the announcement (nil when the occurrence
    ///   has none: nothing is noted).
    public func noteAnnouncedAgain(reminderID: Int64, scheduledAt: Instant, at: Instant, repeats: Int, repeatNumber: Int?) throws(StoreError) -> Int64? {
        try database.write { db in
            if repeatNumber == nil { _ = try SnoozeRecord.of(reminderID: reminderID, scheduledAt: scheduledAt).deleteAll(db) }
            // The last record of the occurrence: a slot re-planned after the clock went back has two.
            guard var record = try FiringRecord.filter(
                FiringRecord.Columns.reminderId == reminderID && FiringRecord.Columns.scheduledAt == scheduledAt.secondsSinceEpoch
                    && ["fired", "late", "postponed"].contains(FiringRecord.Columns.kind)
            ).order(FiringRecord.Columns.id.desc).fetchOne(db) else { return nil }
            record.repeats = repeats
            record.lastAnnouncedAt = at.secondsSinceEpoch
            record.againPending = repeatNumber ?? 0
            try record.update(db, columns: ["repeats", "lastAnnouncedAt", "againPending"])
            return record.id
        }
    }

    /// Notes, before its command runs, that an announced occurrence is escalated at `at`, pending until
    /// ``confirmAnnounced(firings:missed:again:escalations:)``: a crash between is looked up in the journal at the
    /// next start (``announcementKey(instance:escalationOf:)``), so that the command runs once.
    /// - Returns: the id of the occurrence's firing record (nil when it has none: nothing is noted).
    public func noteEscalated(reminderID: Int64, scheduledAt: Instant, at: Instant) throws(StoreError) -> Int64? {
        try database.write { db in
            guard var record = try FiringRecord.filter(
                FiringRecord.Columns.reminderId == reminderID && FiringRecord.Columns.scheduledAt == scheduledAt.secondsSinceEpoch
                    && ["fired", "late", "postponed"].contains(FiringRecord.Columns.kind)
            ).order(FiringRecord.Columns.id.desc).fetchOne(db) else { return nil }
            (record.escalatedAt, record.escalationPending) = (at.secondsSinceEpoch, true)
            try record.update(db, columns: ["escalatedAt", "escalationPending"])
            return record.id
        }
    }

    /// Announced (or postponed) firings scheduled since an instant, oldest first: the occurrences whose windows
    /// may still be open after a restart.
    public func announcedFirings(since: Instant) throws(StoreError) -> [FiringRecord] {
        try database.read { db in
            // A firing is handled at or after its instant: the handledAt index finds them without reading all.
            try FiringRecord.filter(
                FiringRecord.Columns.handledAt >= since.secondsSinceEpoch && FiringRecord.Columns.scheduledAt >= since.secondsSinceEpoch
                    && ["fired", "late", "postponed"].contains(FiringRecord.Columns.kind))
                .order(FiringRecord.Columns.scheduledAt).fetchAll(db)
        }
    }

    /// Handled firings since an instant, newest first, optionally for one reminder.
    public func history(since: Instant, reminderID: Int64? = nil, limit: Int = 1000) throws(StoreError) -> [FiringRecord] {
        try database.read { db in try Self.historyRequest(since: since, reminderID: reminderID, limit: limit).fetchAll(db) }
    }

    /// ``history(since:reminderID:limit:)``'s query: one reminder's through its index by reminder and time
    /// (`firing_by_reminder_time`), every reminder's through the index by time.
    static func historyRequest(since: Instant, reminderID: Int64?, limit: Int) -> QueryInterfaceRequest<FiringRecord> {
        var request = FiringRecord.filter(FiringRecord.Columns.handledAt >= since.secondsSinceEpoch)
        if let reminderID { request = request.filter(FiringRecord.Columns.reminderId == reminderID) }
        return request.order(FiringRecord.Columns.handledAt.desc, FiringRecord.Columns.id.desc).limit(limit)
    }

    /// The most recent handled firing of a reminder.
    public func lastFiring(reminderID: Int64) throws(StoreError) -> FiringRecord? {
        try database.read { db in
            try FiringRecord.filter(FiringRecord.Columns.reminderId == reminderID).order(FiringRecord.Columns.scheduledAt.desc).fetchOne(db)
        }
    }
}
