import Glibc
import ReminderCore
import ReminderStore
import SystemdSupport

/// The steps of ``CollectionService/scan(named:)``: what the folder and the store hold, the removals, the items
/// that changed read in order (reminders before the logs and skips that refer to them), and the records that
/// can be applied.
extension CollectionService {
    /// What the changed items held, by kind; and the reminders applied (to plan again).
    struct ChangedItems {
        var records: [CollectionReading.Record] = []
        var tasks: [(entry: VdirFolder.Entry, text: String, task: OccurrenceTask.Read)] = []
        var archives: [(entry: VdirFolder.Entry, text: String, archive: CollectionArchive)] = []
        var replan: Set<Int64> = []
        /// The UIDs of the reminders read (applied or noted).
        var reminderUIDs: Set<String> = []
    }

    /// The rows of the entries looked at (`named`, or all) and the folder's entries; nil when the store or the
    /// folder cannot be read (said, and the folder held). Read on NIO's thread pool: the entries the watcher
    /// named in a second of a publish (thousands of remindd's own writes) held an event loop for up to a second.
    func readFolderAndRows(_ folder: String, named: Set<String>?, vdir: VdirFolder) async -> (items: [String: CollectionItemRecord], entries: [VdirFolder.Entry])? {
        let store = stores.collection
        func readItems() async throws(StoreError) -> [String: CollectionItemRecord] {
            try await offTheEventLoops { () throws(StoreError) in
                if let named { try store.items(named: named) } else { try store.itemsWithoutText() }
            }
        }
        var items: [String: CollectionItemRecord]
        let listing: (entries: [VdirFolder.Entry], refused: [VdirFolder.Refused])
        do { items = try await readItems() } catch {
            linkedUnreadable(folder, error)
            return nil
        }
        do {
            listing = try await offTheEventLoops { () throws(SystemError) in
                if let named { vdir.look(at: named) } else { try vdir.list() }
            }
        } catch {
            hold(folder, because: error.code == ENOENT ? "the folder does not exist" : "it cannot be read (\(error))")
            return nil
        }
        // Another device folded old logs into an archive: the logs' own items, gone with it, are not deletions.
        if adoptArchived(listing.entries, items: items, vdir: vdir) {
            do { items = try await readItems() } catch {
                linkedUnreadable(folder, error)
                return nil
            }
        }
        for refused in listing.refused {
            reportOnce("\(refused.name) \(refused.reason)", .warning, "Collection: item \(VdirFolder.printable(refused.name)) is not read: \(refused.reason)")
        }
        return (items, listing.entries)
    }

    /// Applies the removal of the items gone from the folder. A completion's log (`file#key`) goes with its
    /// item's file; a reminder's logs are kept aside; an occurrence task deleted in an app is no skip (a list
    /// deleted whole would silence two days of doses): its reminder's tasks are published again.
    /// - Returns: the reminders removed, and those whose tasks are to be written again.
    func applyRemovals(_ gone: [CollectionItemRecord], now: Instant) -> (removed: Set<Int64>, tasksGone: Set<Int64>) {
        var removedReminders: Set<Int64> = []
        var tasksGone: Set<Int64> = []
        for item in gone {
            if item.kind == .occurrence, let reminderID = item.localId { tasksGone.insert(reminderID) }
            do {
                guard let removed = try stores.collection.remove(item, now: now), item.kind == .reminder else { continue }
                removedReminders.insert(removed.reminderID)
                context.say(.notice, DaemonMessages.removedElsewhere, item.fileName, removed.keptLogs)
            } catch {
                context.say(.error, "Collection: could not apply the removal of \(item.fileName): \(error)")
            }
        }
        return (removedReminders, tasksGone.subtracting(removedReminders))
    }

    /// Reads the changed entries: reminders are applied at once (the logs and skips read with them refer to
    /// them by UID), the rest gathered by kind; an item that does not read is said once.
    func readChanged(
        _ changed: [VdirFolder.Entry], found: ScanFindings, items: [String: CollectionItemRecord], vdir: VdirFolder, named: Set<String>?, now: Instant
    ) async -> ChangedItems {
        var read = ChangedItems()
        var uids = found.uids
        for (index, entry) in changed.enumerated() {
            // Calls, firings and the actor's other callers go on between every 64 items read.
            if index % 64 == 63 { await yieldToQueuedWork() }
            let text: String
            var content: CollectionItem.Content
            do throws(FileLineError) {
                do { text = try vdir.read(entry) } catch { throw FileLineError(file: entry.name, line: 1, message: error.description) }
                content = try CollectionItem.read(text, file: entry.name)
                if case .foreign(let uid) = content, let adopted = try adopted(text, uid: uid, file: entry.name, now: now) { content = .reminder(adopted) }
            } catch {
                reportOnce("\(entry.name)", .warning, "Collection: item \(entry.name) is not applied: \(error.description)")
                continue
            }
            var item = CollectionItemRecord(
                fileName: entry.name, uid: "", kind: .foreign, localId: items[entry.name]?.localId, etag: entry.etag, text: text,
                modifiedAt: now.secondsSinceEpoch)
            switch content {
            case .reminder(let reminder):
                read.reminderUIDs.insert(reminder.uid)
                guard let applied = applyReminder(reminder, item: item, text: text, uids: &uids, items: items, vdir: vdir, named: named, now: now) else { continue }
                read.replan.formUnion(applied)
                read.records += completionRecords(in: text, of: reminder, entry: entry, known: items, now: now)
            case .record(let record): read.records.append(CollectionReading.Record(entry: entry, text: text, record: record, source: .ownItem))
            case .occurrence(let task): read.tasks.append((entry, text, task))
            case .archive(let archive): read.archives.append((entry, text, archive))
            case .foreign(let uid):
                (item.uid, item.localId) = (uid, nil)
                do { try stores.collection.save(item) } catch { context.say(.error, "Collection: could not note \(item.fileName): \(error)") }
            }
        }
        return read
    }

    /// Applies a reminder's item: refused (said once) when another file has its UID or its zone is unknown here;
    /// noted only when it is another device's copy of one of ours. - Returns: nil when refused (its completions
    /// are not read), else the reminder applied (none for a copy).
    private func applyReminder(
        _ reminder: CollectionItem.Reminder, item: CollectionItemRecord, text: String, uids: inout [String: String], items: [String: CollectionItemRecord],
        vdir: VdirFolder, named: Set<String>?, now: Instant
    ) -> Set<Int64>? {
        var item = item
        if let other = uids[reminder.uid] ?? (named == nil ? nil : reminderFile(ofUID: reminder.uid)), other != item.fileName {
            reportOnce("\(item.fileName) uid", .warning, "Collection: item \(item.fileName) has the UID of \(other); it is not applied")
            return nil
        }
        if let zone = reminder.timeZone {
            do { _ = try context.settings.zone(named: zone) } catch {
                reportOnce("\(item.fileName)", .warning, "Collection: item \(item.fileName) is not applied: \(error.message)")
                return nil
            }
        }
        uids[reminder.uid] = item.fileName
        (item.uid, item.kind) = (reminder.uid, .reminder)
        if let alias = items[item.fileName], alias.kind == .alias {
            // Another device's copy of one of ours, which it drops: its edits meanwhile are not applied.
            (item.kind, item.localId) = (.alias, alias.localId)
            do { try stores.collection.save(item) } catch { context.say(.error, "Collection: could not note \(item.fileName): \(error)") }
            return nil
        }
        item.modifiedAt = (CollectionItem.lastModified(text) ?? now).secondsSinceEpoch
        if items[item.fileName]?.kind != .reminder { item.localId = nil }
        let applied: (id: Int64, dropped: String?)
        do { applied = try stores.collection.apply(reminder, item: item, now: now) } catch {
            context.say(.error, "Collection: could not apply \(item.fileName): \(error)")
            return []
        }
        if let dropped = applied.dropped {
            do { try vdir.remove(dropped) } catch { context.say(.error, "Collection: could not apply \(item.fileName): \(error)") }
        }
        return [applied.id]
    }

    /// The logs kept while their reminder was gone, now that reminders in `replan` are back (those not read again
    /// in this scan: `read`).
    func keptRecordsOfReturned(_ replan: Set<Int64>, besides read: [CollectionReading.Record]) -> [CollectionReading.Record] {
        guard !replan.isEmpty else { return [] }
        let kept: [CollectionItemRecord]
        do { kept = try stores.collection.keptRecords() } catch {
            context.say(.error, "Collection: the logs kept while their reminder was gone cannot be read (\(error)); applied at a later change")
            return []
        }
        let names = Set(read.map(\.entry.name))  // a set: 30,000 records searched for each kept log held an event loop
        return kept.compactMap { orphan in
            guard !names.contains(orphan.fileName) else { return nil }
            // Read as a record when it was kept: one that no longer reads stays kept, as it is.
            guard case .record(let record)? = try? CollectionItem.read(orphan.text, file: orphan.fileName) else { return nil }
            return CollectionReading.Record(entry: VdirFolder.Entry(name: orphan.fileName, etag: orphan.etag), text: orphan.text, record: record, source: .ownItem)
        }
    }

    /// The records to apply (``CollectionReading/decide(_:known:now:zoneProblem:)``): a log already here (its file
    /// rewritten) is only noted, a refused one kept aside as another client's item (said once, not read again
    /// until its file changes).
    func applicable(_ records: [CollectionReading.Record], items: [String: CollectionItemRecord], now: Instant)
        -> [(entry: VdirFolder.Entry, record: CollectionItem.Record, item: CollectionItemRecord)]
    {
        var applicable: [(entry: VdirFolder.Entry, record: CollectionItem.Record, item: CollectionItemRecord)] = []
        for read in records {
            switch CollectionReading.decide(read, known: items, now: now, zoneProblem: zoneProblem) {
            case .note(let item): note(item)
            case .refuse(let item, let why):
                reportOnce("\(read.entry.name) refused", .warning, "Collection: item \(read.entry.name) is not applied: \(why)")
                if !read.entry.etag.isEmpty { note(item) }
            case .apply(let item): applicable.append((read.entry, read.record, item))
            }
        }
        return applicable
    }

    /// Records an item's row (said when it cannot be).
    func note(_ item: CollectionItemRecord) {
        do { try stores.collection.save(item) } catch { context.say(.error, "Collection: could not note \(item.fileName): \(error)") }
    }

    /// Why a zone is not one this device knows, or nil.
    nonisolated func zoneProblem(_ name: String) -> String? {
        do {
            _ = try context.settings.zone(named: name)
            return nil
        } catch { return error.message }
    }
}
