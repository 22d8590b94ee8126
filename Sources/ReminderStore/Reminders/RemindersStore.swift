import GRDB
import ReminderCore

/// The reminders table: adding, changing, removing and reading reminders (the reminder service's store).
public struct RemindersStore: Sendable {
    let database: ReminderStore


    /// Adds a reminder; nothing is written when the name is taken.
    public func add(
        name: String, rule: RuleSpec, timeZone: String?, enabled: Bool = true, windowSeconds: Int64? = nil, delivery: Delivery = Delivery(),
        now: Instant
    ) throws(StoreError) -> StoredReminder {
        try database.write { db in
            if try StoredReminder.all().named(name).fetchCount(db) > 0 {
                throw StoreError.nameTaken(name)
            }
            let added = try ReminderFields(
                name: name, rule: rule, timeZone: timeZone, enabled: enabled,
                createdAt: now.secondsSinceEpoch, handledThrough: now.secondsSinceEpoch, windowSeconds: windowSeconds,
                delivery: delivery
            ).insert(db)
            try Self.keepPartners(of: added, was: nil, db)
            return added
        }
    }

    /// Replaces a reminder's fields; `handledThrough` moves to `now` when the rule changes, so the new rule
    /// does not catch up on slots that belonged to the old one.
    public func update(_ reminder: StoredReminder, now: Instant) throws(StoreError) -> StoredReminder {
        try database.write { db in
            guard let old = try StoredReminder.fetchOne(db, key: reminder.id) else { throw StoreError.notFound("\(reminder.id)") }
            if old.name.lowercased() != reminder.name.lowercased(),
                try StoredReminder.all().named(reminder.name).fetchCount(db) > 0
            {
                throw StoreError.nameTaken(reminder.name)
            }
            var updated = reminder
            if old.rule != reminder.rule || old.timeZone != reminder.timeZone || (!old.enabled && reminder.enabled) {
                updated.handledThrough = max(old.handledThrough, now.secondsSinceEpoch)
            }
            try updated.update(db)
            try Self.keepPartners(of: updated, was: old, db)
            return updated
        }
    }

    /// Makes the medicines a reminder is kept apart from (``DoseGap``; those it was, too) hold the same gap back,
    /// under its name now, or none when it holds none (or is gone): in the writer's transaction, so that the two
    /// never disagree. A partner that does not exist is passed over.
    static func keepPartners(of reminder: StoredReminder?, was old: StoredReminder?, _ db: Database) throws {
        guard let name = reminder?.name ?? old?.name else { return }
        let gaps = reminder?.delivery.medication.apart ?? [], oldGaps = old?.delivery.medication.apart ?? []
        guard !gaps.isEmpty || !oldGaps.isEmpty else { return }
        var seen: Set<String> = []
        for partnerName in (gaps + oldGaps).map(\.reminder) where seen.insert(partnerName.lowercased()).inserted {
            guard var partner = try StoredReminder.all().named(partnerName).fetchOne(db), partner.id != reminder?.id ?? old?.id else { continue }
            let seconds = reminder.flatMap { DoseGaps($0.delivery.medication.apart).gap(from: partner.name)?.seconds }
            let kept = DoseGaps.reciprocal(partner.delivery.medication.apart, of: name, formerly: old?.name ?? name, seconds: seconds)
            guard kept != partner.delivery.medication.apart else { continue }
            partner.delivery.medication.apart = kept
            try partner.update(db)
        }
    }

    /// Changes the pauses of the reminders `ids` (all, or none when one is gone) in one transaction, each from
    /// its row as it is now. - Returns: those whose pauses changed, as saved.
    public func changePauses(ids: [Int64], _ change: @Sendable (PauseSettings) -> PauseSettings) throws(StoreError) -> [StoredReminder] {
        try database.write { db in
            var changed: [StoredReminder] = []
            for id in ids {
                guard var reminder = try StoredReminder.fetchOne(db, key: id) else { throw StoreError.notFound(String(id)) }
                let pauses = change(reminder.delivery.pause)
                guard pauses != reminder.delivery.pause else { continue }
                reminder.delivery.pause = pauses
                try reminder.update(db)
                changed.append(reminder)
            }
            return changed
        }
    }

    /// Sets what reminders have handled (their zone moved: ``ReminderScheduling/ZoneMove``), earlier or later, and
    /// the zone they follow now, in one transaction.
    public func moved(to zone: String, handledThrough: [(id: Int64, instant: Instant)]) throws(StoreError) {
        try database.write { db in
            for (id, instant) in handledThrough {
                try db.execute(sql: "UPDATE reminder SET handledThrough = ? WHERE id = ?", arguments: [instant.secondsSinceEpoch, id])
            }
            try db.execute(sql: "UPDATE storeInstance SET followedZone = ?", arguments: [zone])
        }
    }

    /// The zone the reminders without their own followed when it was last set (nil: never, a store older
    /// than travel).
    public func followedZone() throws(StoreError) -> String? {
        try database.read { db in try String.fetchOne(db, sql: "SELECT followedZone FROM storeInstance") }
    }

    /// Removes a reminder and its intake log; its firing history stays.
    public func remove(id: Int64) throws(StoreError) {
        try database.write { db in
            guard let old = try StoredReminder.fetchOne(db, key: id), try StoredReminder.deleteOne(db, key: id) else { throw StoreError.notFound(String(id)) }
            try Self.keepPartners(of: nil, was: old, db)
        }
    }

    /// Every reminder, by id; or those whose ids fall in a range (concurrent readers can load a large store in parts).
    /// A row remindd cannot use is left out (see ``takeUnusableRows()``).
    public func all(ids: ClosedRange<Int64>? = nil) throws(StoreError) -> [StoredReminder] {
        try database.read { db in
            var request = StoredReminder.order(StoredReminder.Columns.id)
            if let ids { request = request.filter(ids.contains(StoredReminder.Columns.id)) }
            return try usable(request, db)
        }
    }

    /// The reminders of `ids`, by id; an id with no usable row is left out. The ids go as one JSON array
    /// (``ReminderStore/jsonArray(_:)-(Sequence<Int64>)``): a statement with a parameter per id was a sixth of the
    /// scheduler's reading back of a calendar's 23,863 alarms.
    public func all(among ids: [Int64]) throws(StoreError) -> [StoredReminder] {
        try database.read { db in
            let listed = SQL("\(StoredReminder.Columns.id) IN (SELECT value FROM json_each(\(ReminderStore.jsonArray(ids))))")
            return try usable(StoredReminder.filter(listed).order(StoredReminder.Columns.id), db)
        }
    }

    /// At most `limit` reminders with an id above `after`, by id: one page of a long list (unusable rows left out).
    public func all(after: Int64, limit: Int) throws(StoreError) -> [StoredReminder] {
        try database.read { db in try usable(StoredReminder.filter(StoredReminder.Columns.id > after).order(StoredReminder.Columns.id).limit(limit), db) }
    }

    /// The enabled reminders taken as needed (`--as-needed`), by id. The rule column holds `"asNeeded":true`
    /// as ``RuleSpecColumn`` writes it: found by it, then checked.
    public func asNeeded() throws(StoreError) -> [StoredReminder] {
        try database.read { db in
            try usable(StoredReminder.filter(sql: Self.asNeededTerm).filter(StoredReminder.Columns.enabled).order(StoredReminder.Columns.id), db)
                .filter { $0.rule.asNeeded == true }
        }
    }

    /// The SQL term of the reminders taken as needed, as a literal: the partial index `reminder_as_needed` is
    /// used only for a query with the same term (a bound pattern is not).
    static let asNeededTerm = #"rule LIKE '%"asNeeded":true%'"#

    /// The reminders a request finds, without the rows remindd cannot use (they are kept for
    /// ``takeUnusableRows()``): one bad row must not keep the others from firing, or the daemon from starting.
    private func usable(_ request: QueryInterfaceRequest<StoredReminder>, _ db: Database) throws -> [StoredReminder] {
        let prepared = try request.makePreparedRequest(db)
        // The columns found once for all the rows (where no adapter moves them).
        let indexes = prepared.adapter == nil ? StoredReminder.ColumnIndexes(prepared.statement) : nil
        let rows = try Row.fetchCursor(prepared.statement, adapter: prepared.adapter)
        var reminders: [StoredReminder] = []
        while let row = try rows.next() {
            do {
                reminders.append(try StoredReminder(row: row, at: indexes))
            } catch let error as UnusableRow {
                database.unusableRows.withLock { $0[error.id ?? 0] = error }
            }
        }
        return reminders
    }

    /// The reminder rows left out since the last call (each is reported once; a later read finds it again).
    public func takeUnusableRows() -> [UnusableRow] {
        database.unusableRows.withLock { found in
            defer { found = [:] }
            return found.keys.sorted().compactMap { found[$0] }
        }
    }

    /// How many reminders there are, and how many of them are enabled (counted, not read; a hand-written
    /// `enabled` that is neither 0 nor 1 counts as not enabled, as the readers leave that row out). Counted
    /// again only after a commit that changed them (``ReminderCountCache``).
    public func counts() throws(StoreError) -> (total: Int, enabled: Int) {
        try database.reminderCounts.counts { () throws(StoreError) in
            try database.read { db in
                (try StoredReminder.fetchCount(db), try StoredReminder.filter(StoredReminder.Columns.enabled == 1).fetchCount(db))
            }
        }
    }

    /// The smallest and largest reminder id, or nil when there is no reminder.
    public func idBounds() throws(StoreError) -> ClosedRange<Int64>? {
        try database.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT min(id), max(id) FROM reminder")
            guard let low: Int64 = row?[0], let high: Int64 = row?[1] else { return nil }
            return low...high
        }
    }

    /// A reminder by id, or by name (case-insensitive).
    public func find(_ key: String) throws(StoreError) -> StoredReminder {
        let found: StoredReminder? = try database.read { db in
            if let id = Int64(key), let byID = try StoredReminder.fetchOne(db, key: id) { return byID }
            return try StoredReminder.all().named(key).fetchOne(db)
        }
        guard let found else { throw StoreError.notFound(key) }
        return found
    }

    /// Whom each of the reminders `ids` that is someone's is for (``PersonSettings``); the user's own are left out.
    public func people(ids: Set<Int64>) throws(StoreError) -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        return try database.read { db in
            let reminders = try StoredReminder.filter(keys: Array(ids)).fetchAll(db)
            return Dictionary(reminders.compactMap { reminder in reminder.delivery.person.person.map { (reminder.id, $0) } }) { first, _ in first }
        }
    }

    /// The reminder named `name` (without regard to case), by name only, or nil.
    public func named(_ name: String) throws(StoreError) -> StoredReminder? {
        try database.read { db in try StoredReminder.all().named(name).fetchOne(db) }
    }
}

// MARK: In other stores' transactions

extension RemindersStore {
    /// A reminder's `handledThrough` as the firings store moves it, in the transaction that records a firing:
    /// advanced (never lowered there). Prepared once per transaction (a burst records thousands).
    struct HandledThrough {
        private let database: Database
        private let read: Statement
        private let advance: Statement

        init(_ db: Database) throws {
            database = db
            read = try db.cachedStatement(sql: "SELECT handledThrough FROM reminder WHERE id = ?")
            advance = try db.cachedStatement(sql: "UPDATE reminder SET handledThrough = max(handledThrough, ?) WHERE id = ? AND handledThrough < ?")
        }

        /// Moves the reminder's `handledThrough` to `instant` when its slot at `scheduled` is not handled yet, in
        /// one statement (a burst of 10,000 ran two for each).
        /// - Returns: false when the slot was handled already; true when it was not, or there is no such reminder
        ///   (its firing is recorded all the same).
        func advance(_ reminderID: Int64, past scheduled: Int64, to instant: Instant) throws -> Bool {
            try advance.execute(arguments: [instant.secondsSinceEpoch, reminderID, scheduled])
            if database.changesCount > 0 { return true }
            return try Int64.fetchOne(read, arguments: [reminderID]) == nil
        }
    }

    /// Lowers every `handledThrough` that is after `now` to `now`, in `db`'s transaction. - Returns: how many.
    static func rewindHandled(to now: Instant, in db: Database) throws -> Int {
        try StoredReminder.filter(StoredReminder.Columns.handledThrough > now.secondsSinceEpoch)
            .updateAll(db, StoredReminder.Columns.handledThrough.set(to: now.secondsSinceEpoch))
    }
}
