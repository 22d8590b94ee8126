/// Which system zone a VTIMEZONE of a calendar file describes, when its TZID is no zone name the system knows
/// (Outlook writes "W. Europe Standard Time" with the rules inline): the zone whose UTC offsets are the same
/// as the VTIMEZONE's observances give, from a year before the import to three years after it. The zone CLDR
/// maps a Windows name to is tried first; otherwise the first that matches, by name.
enum VTimeZoneMatch {
    /// CLDR's windowsZones (territory 001) for the zones calendar programs on Windows write most.
    static let windowsNames = [
        "W. Europe Standard Time": "Europe/Berlin", "Romance Standard Time": "Europe/Paris", "Central Europe Standard Time": "Europe/Budapest",
        "Central European Standard Time": "Europe/Warsaw", "GMT Standard Time": "Europe/London", "Greenwich Standard Time": "Atlantic/Reykjavik",
        "E. Europe Standard Time": "Europe/Chisinau", "FLE Standard Time": "Europe/Kiev", "GTB Standard Time": "Europe/Bucharest",
        "Russian Standard Time": "Europe/Moscow", "Eastern Standard Time": "America/New_York", "Central Standard Time": "America/Chicago",
        "Mountain Standard Time": "America/Denver", "US Mountain Standard Time": "America/Phoenix", "Pacific Standard Time": "America/Los_Angeles",
        "Alaskan Standard Time": "America/Anchorage", "Hawaiian Standard Time": "Pacific/Honolulu", "Atlantic Standard Time": "America/Halifax",
        "E. South America Standard Time": "America/Sao_Paulo", "Pacific SA Standard Time": "America/Santiago", "India Standard Time": "Asia/Calcutta",
        "China Standard Time": "Asia/Shanghai", "Tokyo Standard Time": "Asia/Tokyo", "Korea Standard Time": "Asia/Seoul",
        "Singapore Standard Time": "Asia/Singapore", "AUS Eastern Standard Time": "Australia/Sydney", "New Zealand Standard Time": "Pacific/Auckland",
        "South Africa Standard Time": "Africa/Johannesburg", "Arabian Standard Time": "Asia/Dubai", "Israel Standard Time": "Asia/Jerusalem",
        "UTC": "Etc/UTC",
    ]

    static func zone(
        for definition: ICalendarComponent, zones: CalendarImport.Zones, now: Instant, fail: (Int, String) -> FileLineError
    ) throws(FileLineError) -> String {
        let tzid = definition.first("TZID")?.value ?? ""
        let from = now.adding(seconds: -366 * 86400), through = now.adding(seconds: 3 * 366 * 86400)
        var onsets: [(instant: Instant, from: Int, to: Int)] = []
        for observance in definition.components where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
            guard let start = observance.first("DTSTART"), let local = ICalendarTime.dateTime(start.value.uppercased()),
                let offsetFrom = observance.first("TZOFFSETFROM").flatMap({ parseOffset($0.value) }),
                let offsetTo = observance.first("TZOFFSETTO").flatMap({ parseOffset($0.value) })
            else { throw fail(observance.line, "VTIMEZONE '\(tzid.prefix(60))': a \(observance.name) needs DTSTART, TZOFFSETFROM and TZOFFSETTO") }
            var rule: RecurrenceRule?
            if let text = observance.first("RRULE") {
                do { rule = try RecurrenceRule(parsing: text.value) } catch { throw fail(text.line, "RRULE: \(error.message)") }
            }
            let dates = observance.all("RDATE").flatMap { $0.value.split(separator: ",").compactMap { ICalendarTime.dateTime(String($0).uppercased()) } }
            // Onsets are local times on the clock before them.
            let clock = TimeZoneRules(identifier: "onset", fixedOffset: offsetFrom)
            onsets += ([local] + dates).map { (clock.resolve($0), offsetFrom, offsetTo) }
            if var instances = rule?.expansion(from: local, in: clock) {
                _ = instances.next()  // DTSTART, added above
                // Outlook starts its rules in 1601: at most 2,000 onsets a rule up to three years from now.
                for _ in 0..<2000 {
                    guard let instance = instances.next(), instance.instant <= through else { break }
                    onsets.append((instance.instant, offsetFrom, offsetTo))
                }
            }
        }
        guard !onsets.isEmpty else { throw fail(definition.line, "VTIMEZONE '\(tzid.prefix(60))' has no STANDARD or DAYLIGHT observance") }
        onsets.sort { $0.instant < $1.instant }
        func offset(at instant: Instant) -> Int {
            var low = 0, high = onsets.count
            while low < high {
                let middle = (low + high) / 2
                if onsets[middle].instant <= instant { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? onsets[0].from : onsets[low - 1].to
        }
        var samples = onsets.map(\.instant).filter { $0 >= from && $0 <= through }.flatMap { [$0.adding(seconds: -3600), $0, $0.adding(seconds: 3600)] }
        samples += stride(from: from.secondsSinceEpoch, through: through.secondsSinceEpoch, by: 7 * 86400).map(Instant.init(secondsSinceEpoch:))
        let preferred = windowsNames[tzid].map { [$0] } ?? []
        let others = zones.names.filter { $0.contains("/") && !$0.hasPrefix("Etc/") && !$0.hasPrefix("posix/") && !$0.hasPrefix("right/") }.sorted()
        for name in preferred + others {
            guard let rules = zones.named(name) else { continue }
            if samples.allSatisfy({ rules.offset(at: $0) == offset(at: $0) }) { return name }
        }
        throw fail(definition.line, "VTIMEZONE '\(tzid.prefix(60))' gives offsets no zone of this system has: give the event a TZID such as Europe/Berlin")
    }

    /// `+0100`, `-0500`, `+053000` as seconds east of UTC.
    private static func parseOffset(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
            bytes.dropFirst().allSatisfy({ (48...57).contains($0) })
        else { return nil }
        let digits = bytes.dropFirst().map { Int($0 - 48) }
        let seconds = (digits[0] * 10 + digits[1]) * 3600 + (digits[2] * 10 + digits[3]) * 60 + (digits.count == 6 ? digits[4] * 10 + digits[5] : 0)
        return bytes[0] == UInt8(ascii: "-") ? -seconds : seconds
    }
}
