import ReminderCore
import ReminderStore

/// `collection-mode = "occurrences"`: each occurrence from `occurrence-window` before now to as long after it as a
/// plain task (``OccurrenceTask``), closed when its dose is taken, skipped or missed anywhere, so that a phone's
/// task app shows and rings what is due and stops when it is done.
extension CollectionPublisher {
    /// At most this many tasks for one reminder (the nearest to now): one every minute would be 5,760 in two days.
    static let tasksPerReminder = 200

    /// The tasks a reminder has now, each with its file, and when the window next takes in or lets go of one of
    /// its occurrences (nil: never). None for a reminder that is disabled, taken as needed, counted from the last
    /// dose, or in `recurring` mode.
    /// `writer`: this store's id, which a task it writes first carries (``OccurrenceTask/writesNew(_:now:window:writer:currentWriter:)``).
    func occurrenceTasks(
        of reminder: StoredReminder, uid: String, previous: [String: CollectionItemRecord], writer: String, now: Instant
    ) throws(StoreError) -> (tasks: [(fileName: String, task: OccurrenceTask)], nextChange: Instant?) {
        guard context.settings.configuration.collectionMode == .occurrences, reminder.enabled, reminder.rule.asNeeded != true,
            let (rule, zone) = context.settings.schedule(reminder.rule, in: reminder.timeZone), !rule.countsFromLastDose
        else { return ([], nil) }
        let window = context.settings.configuration.occurrenceWindowSeconds
        let created = Instant(secondsSinceEpoch: reminder.createdAt)
        let from = max(now.adding(seconds: -window), created)
        let horizon = now.adding(seconds: window)
        let found = rule.occurrences(after: from.adding(seconds: -1), count: Self.tasksPerReminder + 1, in: zone)
        let occurrences = found.prefix(Self.tasksPerReminder).filter { $0.instant <= horizon }
        // Next: the first occurrence beyond the horizon comes in, or the oldest one goes out.
        var next = [found.first { $0.instant > horizon }.map { $0.instant.adding(seconds: -window) }]
        next.append(occurrences.first.map { $0.instant.adding(seconds: window + 1) })
        guard !occurrences.isEmpty else { return ([], next.compactMap { $0 }.min()) }
        // Logs up to two days before the first: suppression counts a day's logs before its occurrences.
        let facts = try stores.collection.occurrenceFacts(
            reminderID: reminder.id, from: occurrences[0].instant.adding(seconds: -2 * 86_400), through: horizon)
        let currentWriter = OccurrenceTask.currentWriter(amongTasks: previous.values.filter { $0.localId == reminder.id }.map(\.text))
        var deferred: [Instant] = []
        let tasks: [(fileName: String, task: OccurrenceTask)] = occurrences.compactMap { occurrence in
            var task = OccurrenceTask(
                reminder: uid, occurrence: occurrence.instant, name: reminder.name, dose: reminder.delivery.medication.dose(on: occurrence.scheduledDate),
                beforeMinutes: reminder.delivery.notification.beforeMinutes ?? [])
            let fileName = CollectionItem.fileName(uid: task.uid)
            let status = rule.state(
                of: occurrence, in: zone, logs: facts.logInstants, skips: facts.skips, windowSeconds: reminder.windowSeconds, now: now, takenLate: facts.takenLate,
                pauses: reminder.delivery.pause)
            // A task is made for what is still to come or due; one decided before it had a task (a device linked
            // in the evening, a time the schedule had not before it changed) gets none.
            guard previous[fileName] != nil || [.upcoming, .due].contains(status.state) else { return nil }
            task.writer = previous[fileName].map { OccurrenceTask.writer(in: $0.text) } ?? writer
            if previous[fileName] == nil, !OccurrenceTask.writesNew(occurrence.instant, now: now, window: window, writer: writer, currentWriter: currentWriter) {
                deferred.append(occurrence.instant)  // the first writer's comes: read, not written
                return nil
            }
            switch status.state {
            case .taken, .suppressed, .takenLate:
                // Completed in an app: its status stays as the app wrote it.
                let log = facts.logs.first { $0.at == status.coveredBy }
                task.closure = log?.completing == fileName ? nil : status.coveredBy.map { .taken(at: $0) }
            case .skipped, .paused: task.closure = .skipped  // paused after its task was written: closed here
            case .missed: task.closure = .missed
            case .upcoming, .due:
                // Closed by another device whose log or skip this one has not read yet: not reopened.
                task.closure = CollectionItem.closure(of: previous[fileName]?.text)
            }
            return (fileName, task)
        }
        next.append(deferred.first.map { $0.adding(seconds: OccurrenceTask.deferral(window: window) - window) })
        return (tasks, next.compactMap { $0 }.filter { $0 > now }.min())
    }
}

extension CollectionService {
    /// The window moved past an occurrence: every reminder's tasks are looked at again (those that came into it
    /// written, those that left it removed).
    func windowMoved() async {
        publishEverything = true
        await publish()
    }
}

extension CollectionService {
    /// What task apps did to occurrence tasks (read after the reminders of the same scan): a task completed is a
    /// dose at its COMPLETED time (or when it was seen), a task cancelled a skip, each once, and never for an
    /// occurrence already taken or skipped here (a dose logged on the laptop and ticked on the phone is one dose).
    /// Each becomes a log or skip item of its own, its UID the task's with `-taken` or `-skipped`: every device
    /// that reads the completion writes the same item, and reads the others' as the log it has.
    /// - Returns: the logs and skips to apply, their items already written into the folder.
    func taskRecords(
        _ tasks: [(entry: VdirFolder.Entry, text: String, task: OccurrenceTask.Read)], known: [String: CollectionItemRecord], vdir: VdirFolder, now: Instant
    ) -> [CollectionReading.Record] {
        var records: [CollectionReading.Record] = []
        // Tasks marked done before their occurrences: no doses, said in one line for the scan.
        var ahead: [String] = []
        defer { reportTickedAhead(ahead) }
        for (entry, text, task) in tasks {
            var item = CollectionItemRecord(
                fileName: entry.name, uid: task.uid, kind: .occurrence, localId: nil, etag: entry.etag, text: text, modifiedAt: task.occurrence.secondsSinceEpoch)
            defer { note(item) }
            let reminder: StoredReminder?
            do { reminder = try stores.collection.reminder(uid: task.reminder) } catch {
                context.say(.error, "Collection: could not read the reminder of \(entry.name): \(error)")
                continue
            }
            item.localId = reminder?.id
            guard let marked = task.marked else { continue }
            switch read(marked, task: task, entry: entry, of: reminder, known: known, now: now) {
            case nil: item.etag = ""  // read again at the next change
            case .done?: continue
            case .refused(let why)?: reportOnce("\(entry.name) task", .warning, "Collection: item \(entry.name) \(why)")
            case .tickedAhead?: ahead.append("\(reminder?.name ?? task.reminder) at \(task.occurrence)")
            case .record(let record)?:
                let (fileName, recordText) = (CollectionItem.fileName(uid: record.uid), CollectionItem.text(record, reminderName: reminder?.name ?? ""))
                do {
                    let etag = try vdir.write(fileName, recordText)
                    records.append(CollectionReading.Record(
                        entry: VdirFolder.Entry(name: fileName, etag: etag), text: recordText, record: record, source: .occurrenceTask))
                } catch {
                    context.say(.error, "Collection: could not write \(fileName) for \(entry.name): \(error); read again at the next change")
                    item.etag = ""
                }
            }
        }
        return records
    }

    /// What a task's mark is here (``CollectionReading/mark(_:task:occurrence:of:facts:now:zoneProblem:)``), its
    /// refusal worded as the end of "item NAME ..."; `.done` when its dose or skip was applied already (here,
    /// or read as another device's item); nil when the store cannot say (said).
    private func read(
        _ marked: OccurrenceTask.Marked, task: OccurrenceTask.Read, entry: VdirFolder.Entry, of reminder: StoredReminder?, known: [String: CollectionItemRecord],
        now: Instant
    ) -> CollectionReading.TaskMark? {
        guard let reminder, let (rule, zone) = context.settings.schedule(reminder.rule, in: reminder.timeZone) else {
            return .refused("marks an occurrence of a reminder that is not here (\(VdirFolder.printable(task.reminder))): not taken as a dose")
        }
        let marking = CollectionReading.MarkedReminder(
            name: reminder.name, rule: rule, zone: zone, zoneName: reminder.timeZone, followedZone: context.settings.followedZone.name,
            createdAt: Instant(secondsSinceEpoch: reminder.createdAt), windowSeconds: reminder.windowSeconds, medication: reminder.delivery.medication)
        guard let occurrence = CollectionReading.occurrence(of: task, in: marking) else {
            return .refused("marks \(task.occurrence), which is not an occurrence of \(reminder.name): not taken as a dose")
        }
        let suffix = if case .completed = marked { "-taken" } else { "-skipped" }
        do {
            let fileName = CollectionItem.fileName(uid: task.uid + suffix)
            guard known[fileName] == nil, try stores.collection.items(named: [fileName]).isEmpty else { return .done }
            let facts = try stores.collection.occurrenceFacts(
                reminderID: reminder.id, from: task.occurrence.adding(seconds: -2 * 86_400), through: task.occurrence.adding(seconds: 2 * 86_400))
            return switch CollectionReading.mark(marked, task: task, occurrence: occurrence, of: marking, facts: facts, now: now, zoneProblem: zoneProblem) {
            case .refused(let why): .refused("is not applied: \(why)")
            case let other: other
            }
        } catch {
            context.say(.error, "Collection: could not read the doses of \(reminder.name) for \(entry.name): \(error); read again at the next change")
            return nil
        }
    }

    /// Says in one line that tasks were marked done before their occurrences (`ahead`: what and when), and that
    /// they are no doses.
    private func reportTickedAhead(_ ahead: [String]) {
        guard let first = ahead.first else { return }
        reportOnce("ahead \(ahead.count) \(first)", .warning, """
            Collection: \(ahead.count) \(ahead.count == 1 ? "task is" : "tasks are") marked done before \(ahead.count == 1 ? "its occurrence is" : "their occurrences are") \
            due (\(first)\(ahead.count > 1 ? " ..." : "")): not taken as doses; a task counts as its own occurrence's dose from \
            \(OccurrenceTask.earlyCompletionSeconds / 60) minutes before its time (log a dose taken earlier with 'remindctl log')
            """)
    }
}
