import ReminderCore
import Testing

/// remindd's items in a linked collection: what is written reads back the same, another client's properties
/// and components survive a rewrite, the same reminder is the same text, and bad values are refused.
@Suite("Collection items")
struct CollectionItemTests {
    static let pills = CollectionItem.Reminder(
        uid: "0f3c9a52-remindd", name: "Vitamin D, 1 tablet", rule: RuleSpec(daily: true, at: "08:00,20:00"), timeZone: "Europe/Berlin",
        enabled: true, windowSeconds: 7200, delivery: Delivery(
            repeating: RepeatSettings(plan: RepeatPlan(intervalSeconds: 600, maximum: 3)), notification: NotificationSettings(urgency: .critical),
            medication: MedicationSettings(dose: Dose(thousandths: 1000, unit: "tablet"))))

    private func text(_ reminder: CollectionItem.Reminder = pills, previous: String? = nil, at: String = "2026-11-24T10:00:00Z") throws -> String {
        CollectionItem.text(reminder, rule: try reminder.rule.makeRule(), zone: try zone("Europe/Berlin"), modifiedAt: instant(at), previous: previous)
    }

    @Test func aReminderReadsBackAsItWasWrittenAndOtherClientsSeeATaskWithItsSchedule() throws {
        let written = try text()
        #expect(try CollectionItem.read(written, file: "a.ics") == .reminder(Self.pills))
        #expect(written.contains("BEGIN:VTODO\r\n"))
        #expect(written.contains("SUMMARY:Vitamin D\\, 1 tablet\r\n"))
        // The first time of day's series, from the day after the change; the 20:00 dose an alarm 12 hours on.
        #expect(written.contains("DTSTART;TZID=Europe/Berlin:20261125T080000\r\n"))
        #expect(written.contains("DUE;TZID=Europe/Berlin:20261125T100000\r\n"))  // its window's end
        #expect(written.contains("RRULE:FREQ=DAILY\r\n"))
        #expect(written.contains("TRIGGER:PT0S\r\n") && written.contains("TRIGGER:PT12H\r\n"))
        #expect(written.contains("LAST-MODIFIED:20261124T100000Z\r\n"))
        #expect(written.contains("X-REMINDD-DOSE:1 tablet\r\n"))
        // Written again unchanged: the same text (so the file is not rewritten).
        #expect(try text(previous: written) == written)
        let disabled = CollectionItem.Reminder(uid: "x", name: "Stretch", rule: RuleSpec(weekly: "mon,thu", at: "18:30"), timeZone: nil, enabled: false)
        #expect(try CollectionItem.read(try text(disabled), file: "b.ics") == .reminder(disabled))
    }

    @Test func aRewriteKeepsWhatRemindddoesNotOwn() throws {
        let theirs = try text().replacingOccurrences(of: "BEGIN:VALARM", with: """
            CATEGORIES:Health\r
            X-APPLE-SORT-ORDER:42\r
            BEGIN:VALARM\r
            ACTION:AUDIO\r
            TRIGGER:-PT5M\r
            END:VALARM\r
            BEGIN:VALARM
            """).replacingOccurrences(of: "END:VCALENDAR", with: """
            BEGIN:VTODO\r
            UID:0f3c9a52-remindd\r
            RECURRENCE-ID;TZID=Europe/Berlin:20261125T080000\r
            STATUS:COMPLETED\r
            SUMMARY:Vitamin D\\, 1 tablet\r
            END:VTODO\r
            END:VCALENDAR
            """)
        var renamed = Self.pills
        renamed.name = "Vitamin D3"
        let rewritten = try text(renamed, previous: theirs, at: "2026-11-25T09:00:00Z")
        #expect(try CollectionItem.read(rewritten, file: "a.ics") == .reminder(renamed))
        for kept in ["CATEGORIES:Health\r\n", "X-APPLE-SORT-ORDER:42\r\n", "ACTION:AUDIO\r\nTRIGGER:-PT5M\r\n", "RECURRENCE-ID;TZID=Europe/Berlin:20261125T080000\r\nSTATUS:COMPLETED\r\n"] {
            #expect(rewritten.contains(kept), "\(kept) lost:\n\(rewritten)")
        }
        #expect(rewritten.components(separatedBy: "X-REMINDD-ALARM").count == 3)  // remindd's two alarms, not four
        #expect(rewritten.components(separatedBy: "SUMMARY:Vitamin D3\r\n").count == 2)
        #expect(rewritten.components(separatedBy: "SUMMARY:Vitamin D\\, 1 tablet\r\n").count == 2)  // the override's, as it was
        #expect(rewritten.contains("LAST-MODIFIED:20261125T090000Z\r\n"))
    }

    @Test func logsAndSkipsReadBackAsWritten() throws {
        var taken = CollectionItem.Record(uid: "log-1", kind: .taken, reminder: "0f3c9a52-remindd", at: instant("2026-11-24T07:58:00Z"), timeZone: "Europe/Berlin")
        #expect(try CollectionItem.read(CollectionItem.text(taken, reminderName: "Vitamin D"), file: "l.ics") == .record(taken))
        taken.amount = 500  // half a tablet
        #expect(CollectionItem.text(taken, reminderName: "Vitamin D").contains("X-REMINDD-AMOUNT:0.5\r\n"))
        #expect(try CollectionItem.read(CollectionItem.text(taken, reminderName: "Vitamin D"), file: "l.ics") == .record(taken))
        let hostile = CollectionItem.text(taken, reminderName: "Vitamin D").replacingOccurrences(of: "X-REMINDD-AMOUNT:0.5", with: "X-REMINDD-AMOUNT:1e20")
        #expect(throws: FileLineError.self) { try CollectionItem.read(hostile, file: "l.ics") }
        let skipped = CollectionItem.Record(
            uid: "skip-1", kind: .skipped, reminder: "0f3c9a52-remindd", at: instant("2026-11-24T06:00:00Z"), timeZone: "UTC",
            occurrence: instant("2026-11-24T07:00:00Z"), reason: "fasting; blood test, 9:00")
        #expect(try CollectionItem.read(CollectionItem.text(skipped, reminderName: "Vitamin D"), file: "s.ics") == .record(skipped))
    }

    /// Values with a comma are TEXT with it escaped: a bare comma separates values (RFC 5545 3.3.11), and
    /// Radicale's parser kept only `21600` of `X-REMINDD-LIMITS:21600,3`, so the second device refused the
    /// medication. Both forms read back; the unescaped one is what remindd wrote before.
    /// `--before 15m`: a task app warns too, with an alarm 15 minutes before each of the day's times; other remindd
    /// devices read the lengths back.
    @Test func noticesBeforeAreAlarmsBeforeEachTimeAndReadBack() throws {
        var reminder = Self.pills
        reminder.delivery.notification.beforeMinutes = [15, 60]
        let written = try text(reminder)
        for trigger in ["PT0S", "PT12H", "-PT15M", "PT11H45M", "-PT1H", "PT11H"] {
            #expect(written.contains("TRIGGER:\(trigger)\r\n"), "\(trigger)")
        }
        #expect(written.contains("DESCRIPTION:Vitamin D\\, 1 tablet in 15m\r\n"))
        #expect(written.contains("X-REMINDD-BEFORE:900\\,3600\r\n"), "\(written)")
        #expect(try CollectionItem.read(written, file: "a.ics") == .reminder(reminder))
        #expect(try text(reminder, previous: written) == written)
    }

    @Test func settingsWithACommaAreEscapedAndReadBackEitherWay() throws {
        var reminder = Self.pills
        reminder.delivery.medication.limits = DoseLimits(minIntervalSeconds: 21600, maxPerDay: 3)
        let written = try text(reminder)
        #expect(written.contains("X-REMINDD-LIMITS:21600\\,3\r\n") && written.contains("X-REMINDD-REPEAT:600\\,3\r\n"), "\(written)")
        #expect(try CollectionItem.read(written, file: "a.ics") == .reminder(reminder))
        let older = written.replacingOccurrences(of: "21600\\,3", with: "21600,3").replacingOccurrences(of: "600\\,3", with: "600,3")
        #expect(older != written)
        #expect(try CollectionItem.read(older, file: "a.ics") == .reminder(reminder))
        reminder.delivery.medication.limits = DoseLimits(minIntervalSeconds: nil, maxPerDay: 4)
        #expect(try CollectionItem.read(try text(reminder), file: "a.ics") == .reminder(reminder))
    }

    /// A one-off is a task due at its time; closed by remindd, it says so, and is not read back as a completion
    /// (its log is an item of its own); a task app's own completion still is.
    @Test func aOneOffIsDueAtItsTimeAndItsClosureIsNoCompletion() throws {
        let once = CollectionItem.Reminder(uid: "once-1", name: "Antibiotic", rule: RuleSpec(once: "2026-12-01T09:00"), timeZone: "Europe/Berlin")
        let open = try text(once)
        #expect(open.contains("DUE;TZID=Europe/Berlin:20261201T090000\r\n") && !open.contains("DTSTART"), "\(open)")
        #expect(open.contains("TRIGGER;RELATED=END:PT0S\r\n"))
        #expect(CollectionItem.closure(of: open) == nil)
        let taken = CollectionItem.text(
            once, rule: try once.rule.makeRule(), zone: try zone("Europe/Berlin"), modifiedAt: instant("2026-11-24T10:00:00Z"),
            previous: open.replacingOccurrences(of: "END:VTODO", with: "STATUS:NEEDS-ACTION\r\nEND:VTODO"), closure: .taken(at: instant("2026-12-01T08:05:00Z")))
        #expect(taken.contains("STATUS:COMPLETED\r\nCOMPLETED:20261201T080500Z\r\nPERCENT-COMPLETE:100\r\n") && !taken.contains("NEEDS-ACTION"), "\(taken)")
        #expect(CollectionItem.closure(of: taken) == .taken(at: instant("2026-12-01T08:05:00Z")))
        #expect(CollectionItem.completions(taken).isEmpty)
        #expect(try CollectionItem.read(taken, file: "a.ics") == .reminder(once))
        let missed = CollectionItem.text(
            once, rule: try once.rule.makeRule(), zone: try zone("Europe/Berlin"), modifiedAt: instant("2026-11-24T10:00:00Z"), previous: taken, closure: .missed)
        #expect(missed.contains("STATUS:CANCELLED\r\n") && !missed.contains("COMPLETED:"), "\(missed)")
        #expect(CollectionItem.closure(of: missed) == .missed)
        let doneInAnApp = missed.replacingOccurrences(of: "STATUS:CANCELLED", with: "STATUS:COMPLETED")
        #expect(CollectionItem.completions(doneInAnApp).map(\.key) == ["done"])
    }

    /// An occurrence task reads back as whose and which occurrence; what an app did to it is read from STATUS,
    /// PERCENT-COMPLETE or COMPLETED (any of them), and remindd's own closure is not an app's doing.
    @Test func anOccurrenceTaskSaysWhatAnAppDidToIt() throws {
        let task = OccurrenceTask(reminder: "r1@remindd", occurrence: instant("2026-12-01T07:00:00Z"), name: "Metformin", dose: Dose(thousandths: 500_000, unit: "mg"), beforeMinutes: [15])
        let open = task.text(previous: nil, writtenAt: instant("2026-11-29T10:00:00Z"))
        #expect(task.uid == "r1@remindd-20261201T070000Z" && open.contains("TRIGGER;RELATED=END:-PT15M\r\n"), "\(open)")
        // Stamped when written (not at the occurrence, in the future), and not written again for its stamps alone.
        #expect(open.contains("DTSTAMP:20261129T100000Z\r\n") && open.contains("LAST-MODIFIED:20261129T100000Z\r\n"), "\(open)")
        #expect(task.text(previous: open, writtenAt: instant("2026-11-29T11:00:00Z")) == open)
        func marked(_ lines: String) throws -> OccurrenceTask.Marked? {
            guard case .occurrence(let read) = try CollectionItem.read(open.replacingOccurrences(of: "END:VTODO", with: lines + "END:VTODO"), file: "t.ics") else { return nil }
            #expect(read.reminder == "r1@remindd" && read.occurrence == instant("2026-12-01T07:00:00Z"))
            return read.marked
        }
        #expect(try marked("") == nil)
        #expect(try marked("STATUS:COMPLETED\r\nCOMPLETED:20261201T071000Z\r\n") == .completed(at: instant("2026-12-01T07:10:00Z")))
        #expect(try marked("PERCENT-COMPLETE:100\r\n") == .completed(at: nil))
        #expect(try marked("COMPLETED:20261201T071000Z\r\n") == .completed(at: instant("2026-12-01T07:10:00Z")))
        #expect(try marked("STATUS:CANCELLED\r\n") == .cancelled)
        #expect(try marked("STATUS:COMPLETED\r\nX-REMINDD-CLOSED:TAKEN\r\n") == nil)
        #expect(try marked("STATUS:COMPLETED\r\nX-REMINDD-CLOSED:MISSED\r\n") == .completed(at: nil))  // taken late after all
        var closed = task
        closed.closure = .taken(at: instant("2026-12-01T07:05:00Z"))
        let text = closed.text(
            previous: open.replacingOccurrences(of: "END:VTODO", with: "STATUS:NEEDS-ACTION\r\nCATEGORIES:Health\r\nEND:VTODO"), writtenAt: instant("2026-12-01T07:05:30Z"))
        #expect(text.contains("STATUS:COMPLETED\r\n") && !text.contains("NEEDS-ACTION") && text.contains("CATEGORIES:Health\r\n"), "\(text)")
        #expect(text.contains("LAST-MODIFIED:20261201T070530Z\r\n"), "the closure is a change: stamped when written")
        // Two devices' versions between syncs: the closed one wins, whichever was written later.
        let reopened = task.text(previous: nil, writtenAt: instant("2026-12-01T08:00:00Z"))
        #expect(CollectionItem.resolve(reopened, text).kept == text && CollectionItem.resolve(text, reopened).kept == text)
        // A person's tick in an app wins over remindd's "missed", written later on a computer (the e2e phone test
        // lost a dose ticked in its window to the computer's closure).
        var missed = task
        missed.closure = .missed
        let closedMissed = missed.text(previous: open, writtenAt: instant("2026-12-01T09:00:00Z"))
        let ticked = open.replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nCOMPLETED:20261201T071000Z\r\nEND:VTODO")
        #expect(CollectionItem.resolve(closedMissed, ticked).kept == ticked && CollectionItem.resolve(ticked, closedMissed).kept == ticked)
    }

    @Test func anotherClientsTaskIsForeign() throws {
        let todo = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:abc@todoman\r\nSUMMARY:Buy pills\r\nDUE:20261201T180000\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        #expect(try CollectionItem.read(todo, file: "t.ics") == .foreign("abc@todoman"))
    }

    @Test func valuesAddWouldRefuseAreRefusedWithTheirLine() throws {
        let good = try text()
        let cases = [
            ("X-REMINDD-WINDOW:7200", "X-REMINDD-WINDOW:999999", "X-REMINDD-WINDOW"),
            ("X-REMINDD-REPEAT:600\\,3", "X-REMINDD-REPEAT:600\\,1000", "X-REMINDD-REPEAT"),
            ("SUMMARY:Vitamin D\\, 1 tablet", "SUMMARY:12345", "SUMMARY"),
            ("X-REMINDD-TZ:Europe/Berlin", "X-REMINDD-TZ:../../etc/passwd", "X-REMINDD-TZ"),
            ("X-REMINDD-DOSE:1 tablet", "X-REMINDD-DOSE:-1 tablet", "X-REMINDD-DOSE"), ("X-REMINDD-DOSE:1 tablet", "X-REMINDD-DOSE:2 furlongs", "X-REMINDD-DOSE"),
        ]
        for (from, to, named) in cases {
            let bad = good.replacingOccurrences(of: from, with: to)
            #expect(bad != good)
            let error = #expect(throws: FileLineError.self) { try CollectionItem.read(bad, file: "a.ics") }
            #expect(error?.message.contains(named) == true, "\(String(describing: error))")
        }
        let badRule = good.replacingOccurrences(of: #"{"at":"08:00\,20:00"\,"daily":true}"#, with: #"{"at":"25:00"\,"daily":true}"#)
        #expect(badRule != good)
        #expect(throws: FileLineError.self) { try CollectionItem.read(badRule, file: "a.ics") }
    }

    @Test func aUIDThatIsNoSafeFileNameGetsADigest() {
        #expect(CollectionItem.fileName(uid: "0f3c9a52-remindd") == "0f3c9a52-remindd.ics")
        for hostile in ["../../.bashrc", "a/b", ".hidden", "new\nline", String(repeating: "x", count: 300)] {
            let name = CollectionItem.fileName(uid: hostile)
            #expect(name.hasPrefix("remindd-") && name.hasSuffix(".ics") && !name.contains("/"), "\(name)")
        }
        #expect(CollectionItem.fileName(uid: "a/b") != CollectionItem.fileName(uid: "a/c"))
    }
}
