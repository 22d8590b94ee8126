import ReminderCore
import Testing

/// An archive item reads back exactly what was folded into it, is the same text for the same records whatever
/// their order, and says which quarter and which cutoff a time falls in.
@Suite("Collection archives")
struct CollectionArchiveTests {
    @Test func recordsReadBackExactlyAndTheTextIsTheSameForTheSameRecords() throws {
        var late = CollectionItem.Record(
            uid: "odd uid%20 with spaces", kind: .taken, reminder: "r1", at: instant("2026-08-02T07:05:00Z"), timeZone: "America/Argentina/Buenos_Aires",
            occurrence: instant("2026-08-01T07:00:00Z"))
        late.amount = 500
        let skip = CollectionItem.Record(
            uid: "s1@remindd", kind: .skipped, reminder: "r1", at: instant("2026-09-30T23:59:59Z"), timeZone: "UTC", occurrence: instant("2026-10-01T07:00:00Z"),
            reason: "blood test; fasting, 100%")
        let plain = CollectionItem.Record(uid: "t1@remindd", kind: .taken, reminder: "r1", at: instant("2026-07-01T00:00:00Z"), timeZone: "Europe/Berlin")
        let items = CollectionArchive.items(reminder: "r1", month: "2026-07", records: [skip, late, plain], deleted: ["gone@remindd"])
        #expect(items.count == 1 && items[0].uid == "r1-archive-2026-07")
        let text = items[0].text(reminderName: "Metformin")
        #expect(text == CollectionArchive.items(reminder: "r1", month: "2026-07", records: [plain, skip, late], deleted: ["gone@remindd"])[0].text(reminderName: "Metformin"))
        guard case .archive(let read) = try CollectionItem.read(text, file: "a.ics") else { Issue.record("not an archive"); return }
        #expect(read.records == [plain, late, skip] && read.deleted == ["gone@remindd"] && read.month == "2026-07" && read.reminder == "r1")
    }

    @Test func aQuarterIsNamedByItsFirstMonthAndTheCutoffIsADay() {
        #expect(CollectionArchive.month(of: instant("2026-09-30T23:59:59Z")) == "2026-07")
        #expect(CollectionArchive.month(of: instant("2026-10-01T00:00:00Z")) == "2026-10")
        #expect(CollectionArchive.month(of: instant("2027-03-31T12:00:00Z")) == "2027-01")
        #expect(CollectionArchive.foldBefore(now: instant("2026-12-31T00:00:05Z")) == instant("2026-12-17T00:00:00Z"))
        #expect(CollectionArchive.foldBefore(now: instant("2026-12-30T23:59:59Z")) == instant("2026-12-16T00:00:00Z"))
    }

    @Test func aRecordPerItemLimitSplitsAQuarterIntoParts() throws {
        let records = (0..<(CollectionArchive.recordsPerItem + 3)).map {
            CollectionItem.Record(uid: "u\($0)", kind: .taken, reminder: "r1", at: instant("2026-07-01T00:00:00Z").adding(seconds: Int64($0) * 60), timeZone: "UTC")
        }
        let items = CollectionArchive.items(reminder: "r1", month: "2026-07", records: records)
        #expect(items.map(\.records.count) == [CollectionArchive.recordsPerItem, 3] && items[1].uid == "r1-archive-2026-07-2")
        guard case .archive(let second) = try CollectionItem.read(items[1].text(reminderName: "M"), file: "b.ics") else { Issue.record("not an archive"); return }
        #expect(second.part == 2 && second.records == Array(records.suffix(3)))
    }
}
