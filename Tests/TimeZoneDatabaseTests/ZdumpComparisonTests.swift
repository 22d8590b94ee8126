import Foundation
import ReminderCore
import Testing
import TimeZoneDatabase

/// Compares the engine's UTC offsets with `zdump -v` for every zone on the machine, 1970 to 2037:
/// zdump prints each transition as the second before it and the second it happens, with `gmtoff=`.
@Suite("Offsets match zdump for every zone")
struct ZdumpComparisonTests {
    let database = TimeZoneDatabase()

    @Test func everyZoneMatchesZdumpAroundEveryTransition() async throws {
        let names = database.allZoneNames()
        #expect(names.count > 300, "tzdata should hold several hundred zones")
        var checkedLines = 0
        var mismatches: [String] = []
        var loaded: [String: TimeZoneRules] = [:]
        for batch in stride(from: 0, to: names.count, by: 50).map({ Array(names[$0..<min($0 + 50, names.count)]) }) {
            let output = try zdump(batch)
            for line in output.split(separator: "\n") {
                guard let (name, utc, gmtoff) = Self.parse(line) else { continue }
                let rules = try loaded[name] ?? database.rules(named: name)
                loaded[name] = rules
                let offset = rules.offset(at: utc)
                checkedLines += 1
                if offset != gmtoff && mismatches.count < 20 {
                    mismatches.append("\(name) at \(utc): engine \(offset), zdump \(gmtoff)")
                }
            }
        }
        #expect(checkedLines > 50_000)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test func transitionCountsMatchZdump() throws {
        // The engine must not invent changes zdump does not show: count offset changes in a sample of zones.
        for name in ["America/New_York", "Europe/London", "Australia/Lord_Howe", "Pacific/Apia", "America/Santiago", "Asia/Kolkata"] {
            let output = try zdump([name])
            let changes = output.split(separator: "\n").compactMap(Self.parse).map(\.2)
            var zdumpCount = 0
            for index in stride(from: 0, to: changes.count - 1, by: 2) where changes[index] != changes[index + 1] {
                zdumpCount += 1
            }
            let rules = try database.rules(named: name)
            var cursor = Instant(secondsSinceEpoch: Self.start)
            var engineCount = 0
            while let next = rules.nextTransition(after: cursor), next.secondsSinceEpoch < Self.end {
                engineCount += 1
                cursor = next
            }
            #expect(engineCount == zdumpCount, "\(name)")
        }
    }

    @Test func unknownZoneIsAnErrorNotUTC() {
        #expect(throws: TimeZoneError.unknown("Mars/Olympus_Mons")) { try database.rules(named: "Mars/Olympus_Mons") }
        #expect(throws: TimeZoneError.unknown("../../etc/passwd")) { try database.rules(named: "../../etc/passwd") }
        #expect(throws: TimeZoneError.unknown("zone.tab")) { try database.rules(named: "zone.tab") }
    }

    @Test func systemZoneFollowsTZThenLocaltime() {
        #expect(database.systemZoneName(environment: ["TZ": ":Europe/Berlin"]) == "Europe/Berlin")
        #expect(database.systemZoneName(environment: ["TZ": "Asia/Tokyo"]) == "Asia/Tokyo")
        let fromLink = database.systemZoneName(environment: [:], localtime: "/nonexistent", timezoneFile: "/nonexistent")
        #expect(fromLink == "UTC")
    }

    static let start: Int64 = 0  // 1970-01-01
    static let end: Int64 = 2_145_916_800  // 2038-01-01

    func zdump(_ names: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zdump")
        process.arguments = ["-v", "-c", "1970,2038"] + names
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// `America/New_York  Sun Mar 10 06:59:59 2024 UT = Sun Mar 10 01:59:59 2024 EST isdst=0 gmtoff=-18000`
    static func parse(_ line: Substring) -> (String, Instant, Int)? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 15, fields[6] == "UT", let gmtoff = fields.last.flatMap({ Int($0.dropFirst(7)) }),
            let day = Int(fields[3]), let year = Int(fields[5]),
            let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].firstIndex(of: String(fields[2])),
            let time = ISO8601.parseTime(fields[4]), let date = LocalDate(year: year, month: month + 1, day: day)
        else { return nil }
        let utc = Instant(secondsSinceEpoch: LocalDateTime(date: date, time: time).localSeconds)
        return (String(fields[0]), utc, gmtoff)
    }
}
