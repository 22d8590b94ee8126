import ReminderCore
import Testing

/// Dates and date-times as text: written into the string's bytes (a calendar read at start writes one per alarm),
/// as the padded parts wrote them, and read back as themselves.
@Suite("Dates as text")
struct DateTextTests {
    /// The reference: each part zero-padded and joined, as the text was made before.
    static func padded(_ value: LocalDateTime) -> String {
        let date = value.date
        return ISO8601.pad(date.year, 4) + "-" + ISO8601.pad(date.month, 2) + "-" + ISO8601.pad(date.day, 2) + "T"
            + ISO8601.pad(value.time.hour, 2) + ":" + ISO8601.pad(value.time.minute, 2) + ":" + ISO8601.pad(value.time.second, 2)
    }

    @Test func dateTimesAreWrittenAsTheirPaddedPartsAndReadBack() throws {
        var state: UInt64 = 62
        var values: [LocalDateTime] = [
            LocalDateTime(date: LocalDate(year: 1, month: 1, day: 1)!, time: TimeOfDay(hour: 0, minute: 0)!),
            LocalDateTime(date: LocalDate(year: 9999, month: 12, day: 31)!, time: TimeOfDay(hour: 23, minute: 59, second: 59)!),
            LocalDateTime(date: LocalDate(year: 0, month: 2, day: 29)!, time: TimeOfDay(hour: 9, minute: 5, second: 7)!),
        ]
        for _ in 0..<2_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            // Day numbers from year 1 to 9999, at any second.
            let days = Int64(state >> 40) % 3_652_059 - 719_162
            values.append(LocalDateTime(localSeconds: days * 86400 + Int64(state % 86400)))
        }
        for value in values {
            #expect(value.description == Self.padded(value))
            #expect(value.date.description == String(Self.padded(value).prefix(10)))
            #expect(ISO8601.parseDateTime(value.description) == value, "\(value)")
        }
    }

    /// Years of other widths keep the padded parts: a minus sign, or five digits.
    @Test(arguments: [-1, -2024, 10_000, 123_456])
    func yearsOutsideFourDigitsAreWrittenAsBefore(_ year: Int) throws {
        let value = LocalDateTime(date: try #require(LocalDate(year: year, month: 7, day: 4)), time: try #require(TimeOfDay(hour: 12, minute: 30)))
        #expect(value.description == Self.padded(value))
    }

    /// An instant's offset as each form writes it; what is not an offset (three digits, beyond ±18 h, 60 minutes,
    /// digits that are not ASCII, seconds) is refused rather than misread.
    @Test func instantsAreReadWithTheirOffsetOrRefused() throws {
        let offsets: [(String, Int?)] = [
            ("2026-03-10T03:30:00-04:00", -14_400), ("2026-03-10T03:30:00+0530", 19_800), ("2026-03-10T03:30+05", 18_000),
            ("2026-03-10T03:30:00Z", 0), ("2026-03-10T03:30:00z", 0), ("2026-03-10 03:30", nil), ("2026-03-10T03:30:00", nil),
        ]
        for (text, offset) in offsets {
            let parsed = try #require(ISO8601.parseInstant(text), "\(text)")
            #expect(parsed.offsetSeconds == offset, "\(text)")
            #expect(parsed.local.description.hasPrefix("2026-03-10T03:30"), "\(text)")
        }
        let refused = ["2026-03-10T03:30:00+05:3", "2026-03-10T03:30:00+19:00", "2026-03-10T03:30:00+05:60", "2026-03-10T03:30:00+\u{665}\u{660}",
                       "2026-03-10T03:30:00+05:00:00", "2026-03-10T03:30:00+", "2026-03-10", "", "Z", "2026-03-1xT03:30Z", "2026-03-10T03:30:00+05 "]
        for text in refused { #expect(ISO8601.parseInstant(text) == nil, "\(text)") }
    }
}
