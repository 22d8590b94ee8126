import FoundationEssentials
import ReminderCore
import ReminderInterface
import Testing
import Translation

@testable import WebInterface

/// Today in the web window: what is due with its buttons, and the day's times on the user's clock (the zone
/// remindd-web follows), whatever zone each reminder keeps; a dose of the day before still due says its date.
@Suite("remindd-web's Today")
struct TodayPageTests {
    /// An occurrence as the daemon's `Occurrences` gives it.
    static func occurrence(_ id: Int64, _ name: String, utc: String, local: String, state: String, dose: Double? = nil) throws -> OccurrenceValue {
        let json = """
            {"reminderId": \(id), "reminderName": "\(name)", "slot": "reminder-\(id)-d", "local": "\(local)", "utc": "\(utc)", \
            "state": "\(state)", "windowEndUtc": "\(utc)"\(dose.map { ", \"dose\": \($0), \"unit\": \"tablet\"" } ?? "")}
            """
        return try JSONDecoder().decode(OccurrenceValue.self, from: Data(json.utf8))
    }

    static func page(_ occurrences: [OccurrenceValue], date: String, zone: TimeZoneRules) -> String {
        let frame = HTMLPage(words: UntranslatedCatalog(), csrf: "token", path: "/")
        return TodayPage(frame: frame, day: .init(date: date, occurrences: occurrences), stocks: [], zone: zone, notice: nil).html()
    }

    /// The rows of the day's table: each row's cells as text.
    static func rows(_ html: String) -> [[String]] {
        html.split(separator: "<tr class=").dropFirst().map { row in
            row.split(separator: "<td>").dropFirst().map { cell in String(cell.prefix { $0 != "<" }) }
        }
    }

    @Test func timesAreOnTheUsersClockAndYesterdaysDoseStillDueSaysItsDate() throws {
        let berlin = TimeZoneRules(identifier: "Etc/GMT-1", fixedOffset: 3600)
        let html = Self.page([
            // Fired at 23:50 on the user's 1 December (a reminder kept in UTC-12), due until 00:50.
            try Self.occurrence(1, "Insulin", utc: "2026-12-01T22:50:00Z", local: "2026-12-01T10:50:00-12:00", state: "due", dose: 4),
            // Tokyo's 09:00 is 01:00 on the user's clock.
            try Self.occurrence(2, "Pills", utc: "2026-12-02T00:00:00Z", local: "2026-12-02T09:00:00+09:00", state: "taken"),
            try Self.occurrence(3, "Walk", utc: "2026-12-02T16:30:00Z", local: "2026-12-02T17:30:00+01:00", state: "upcoming"),
        ], date: "2026-12-02", zone: berlin)
        #expect(Self.rows(html) == [
            ["2026-12-01 23:50", "Insulin (4 tablets)", "due"], ["01:00", "Pills", "taken"], ["17:30", "Walk", "upcoming"],
        ])
        // Only what is due has its buttons: one Taken, no Take all for a single dose.
        #expect(html.components(separatedBy: "action=\"/take\"").count == 2)
        #expect(!html.contains("action=\"/take-all\""))
    }

    @Test func severalDueGetTakeAllAndNothingDueSaysSo() throws {
        let utc = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        let two = Self.page([
            try Self.occurrence(1, "A", utc: "2026-12-02T08:00:00Z", local: "2026-12-02T08:00:00+00:00", state: "due"),
            try Self.occurrence(2, "B", utc: "2026-12-02T08:00:00Z", local: "2026-12-02T08:00:00+00:00", state: "due"),
        ], date: "2026-12-02", zone: utc)
        #expect(two.contains("action=\"/take-all\""))
        let none = Self.page([], date: "2026-12-02", zone: utc)
        #expect(none.contains(UntranslatedCatalog()(WebMessages.nothingDue)))
        #expect(!none.contains("<table"))
    }
}
