@testable import ReminderCore
import Testing

@testable import ReminderDaemon
@testable import ReminderStore

/// The collection's reading decided as values, without a folder, a store or a daemon: what a log or skip from
/// elsewhere does, and what a task app's mark on an occurrence task is.
@Suite("Collection reading")
struct CollectionReadingTests {
    /// 2026-11-22 07:45:00 UTC; the dose is daily at 08:00 UTC with a window of an hour.
    let now = Instant(secondsSinceEpoch: 1_795_333_500)
    var eight: Instant { Instant(secondsSinceEpoch: 1_795_334_400) }
    let noZoneProblem: (String) -> String? = { $0 == "Mars/Olympus" ? "no zone Mars/Olympus" : nil }

    func reminder() throws -> CollectionReading.MarkedReminder {
        let medication = try MedicationSettings().applying(.init(dose: "2", unit: "tablet"), adding: true)
        return CollectionReading.MarkedReminder(
            name: "Metformin", rule: try RuleSpec(daily: true, at: "08:00").makeRule(), zone: TimeZoneRules(identifier: "UTC", fixedOffset: 0),
            zoneName: nil, followedZone: "Europe/Berlin", createdAt: now.adding(seconds: -10 * 86_400), windowSeconds: 3600, medication: medication)
    }

    func task(at occurrence: Instant, _ marked: OccurrenceTask.Marked?) -> OccurrenceTask.Read {
        OccurrenceTask.Read(uid: "t1@remindd", reminder: "r1@remindd", occurrence: occurrence, marked: marked)
    }

    func log(_ file: String, at: Instant, zone: String = "UTC", etag: String = "e1", source: CollectionReading.Record.Source = .ownItem) -> CollectionReading.Record {
        CollectionReading.Record(
            entry: VdirFolder.Entry(name: file, etag: etag), text: "BEGIN:VCALENDAR",
            record: CollectionItem.Record(uid: file + "@other", kind: .taken, reminder: "r1@remindd", at: at, timeZone: zone), source: source)
    }

    /// A log's row (its `modifiedAt` is the log's time, as the publisher and the reading note it).
    func row(_ file: String, localId: Int64?, at: Instant? = nil) -> CollectionItemRecord {
        CollectionItemRecord(fileName: file, uid: file + "@other", kind: .taken, localId: localId, etag: "e0", text: "", modifiedAt: (at ?? now).secondsSinceEpoch)
    }

    /// What ``CollectionReading/decide(_:known:now:zoneProblem:)`` says, in words.
    func decide(_ read: CollectionReading.Record, known: [String: CollectionItemRecord] = [:]) -> String {
        switch CollectionReading.decide(read, known: known, now: now, zoneProblem: noZoneProblem) {
        case .apply(let item): "apply \(item.kind) \(item.etag)" + (item.localId.map { " to \($0)" } ?? "")
        case .note(let item): "note \(item.localId.map(String.init) ?? "without a row")"
        case .refuse(let item, let why): "refuse \(item.kind): \(why)"
        }
    }

    @Test func aLogIsAppliedNotedWhenHereAndRefusedWithItsReason() {
        #expect(decide(log("a.ics", at: now)) == "apply taken e1")
        // Its file rewritten with the same time: the same log; the row is kept with the new etag.
        #expect(decide(log("a.ics", at: now), known: ["a.ics": row("a.ics", localId: 7)]) == "note 7")
        // With another time (two devices' versions of one phone's tick, the sync kept one): the log takes it.
        #expect(decide(log("a.ics", at: now), known: ["a.ics": row("a.ics", localId: 7, at: now.adding(seconds: -600))]) == "apply taken e1 to 7")
        #expect(decide(log("a.ics", at: now, source: .archive), known: ["a.ics": row("a.ics", localId: 7, at: now.adding(seconds: -600))]) == "apply taken e1")
        #expect(decide(log("a.ics", at: now.adding(seconds: 301))).hasPrefix("refuse foreign: it is dated 2026-11-22T07:50:01Z, ahead of this device's clock"))
        #expect(decide(log("a.ics", at: now.adding(seconds: 300))) == "apply taken e1", "two clocks 5 minutes apart")
        #expect(decide(log("a.ics", at: now.adding(seconds: -60 * 366 * 86_400))).hasSuffix("more than \(TypedTime.historyYears) years ago"))
        #expect(decide(log("a.ics", at: now, zone: "Mars/Olympus")) == "refuse foreign: its zone is not one this device knows (no zone Mars/Olympus)")
    }

    /// An archive's record has no file of its own: a row under its name is one a log left when it went with its
    /// reminder, and it is applied again. Known by where it was read, not by its name: a completion kept in a
    /// task whose file name says "-archive-" is noted as the completion it is.
    @Test func anArchivesRecordIsKnownByItsSourceNotByItsName() {
        let name = "x-archive-2026-10.ics#k1"
        let known = [name: row(name, localId: 9)]
        #expect(decide(log(name, at: now, etag: "", source: .archive), known: known) == "apply taken ")
        #expect(decide(log(name, at: now, etag: "", source: .completion), known: known) == "note 9")
    }

    @Test func onlyATasksOwnOccurrenceSinceTheReminderWasAddedIsOne() throws {
        var reminder = try reminder()
        #expect(CollectionReading.occurrence(of: task(at: eight, nil), in: reminder)?.instant == eight)
        #expect(CollectionReading.occurrence(of: task(at: eight.adding(seconds: 60), nil), in: reminder) == nil)
        reminder.createdAt = now
        #expect(CollectionReading.occurrence(of: task(at: eight.adding(seconds: -86_400), nil), in: reminder) == nil)
    }

    func mark(_ marked: OccurrenceTask.Marked, facts: OccurrenceFacts = OccurrenceFacts(), at now: Instant) throws -> CollectionReading.TaskMark {
        let reminder = try reminder()
        let occurrence = try #require(CollectionReading.occurrence(of: task(at: eight, marked), in: reminder))
        return CollectionReading.mark(marked, task: task(at: eight, marked), occurrence: occurrence, of: reminder, facts: facts, now: now, zoneProblem: noZoneProblem)
    }

    @Test func aCompletedTaskIsItsDoseInTheRemindersZoneOrTheFollowedOne() throws {
        let completed = eight.adding(seconds: 300)
        let record = try #require(try mark(.completed(at: completed), at: eight.adding(seconds: 600)).record, "a task completed in its window is its dose")
        #expect(record.uid == "t1@remindd-taken" && record.kind == .taken && record.at == completed && record.occurrence == nil)
        #expect(record.timeZone == "Europe/Berlin", "the reminder follows this device's zone")
        #expect(record.amount == 2000, "its dose on the day: 2 tablets, in thousandths")
        // Completed after the window: taken late, for its occurrence.
        let late = eight.adding(seconds: 7200)
        let lateRecord = try #require(try mark(.completed(at: late), at: late.adding(seconds: 60)).record, "a task completed after its window is a late take")
        #expect(lateRecord.occurrence == eight)
    }

    @Test func aTaskMarkOfAnOccurrenceDoneHereIsNothingAndOneTickedAheadIsNoDose() throws {
        var taken = OccurrenceFacts()
        taken.logs = [OccurrenceFacts.Log(at: eight.adding(seconds: 60), forScheduledAt: nil, completing: nil)]
        #expect(try mark(.completed(at: eight.adding(seconds: 120)), facts: taken, at: eight.adding(seconds: 180)) == .done)
        #expect(try mark(.cancelled, facts: taken, at: eight.adding(seconds: 180)) == .done, "a taken dose is not skipped")
        // Ticked two hours before its time: no dose.
        #expect(try mark(.completed(at: eight.adding(seconds: -7200)), at: eight.adding(seconds: -7000)) == .tickedAhead)
        // Completed at a time ahead of this device's clock: a wrong clock, refused with why.
        let refused = try mark(.completed(at: eight.adding(seconds: 3600)), at: eight.adding(seconds: 60))
        #expect(refused.refusal?.contains("ahead of this device's clock") == true, "\(refused)")
    }

    @Test func aCancelledTaskSkipsAnOccurrenceNotYetTaken() throws {
        let skip = try #require(try mark(.cancelled, at: now).record, "a task cancelled ahead is a skip")
        #expect(skip.kind == .skipped && skip.occurrence == eight && skip.reason == "cancelled in a task app" && skip.uid == "t1@remindd-skipped")
    }
}

extension CollectionReading.TaskMark {
    var record: CollectionItem.Record? { if case .record(let record) = self { record } else { nil } }
    var refusal: String? { if case .refused(let why) = self { why } else { nil } }
}
