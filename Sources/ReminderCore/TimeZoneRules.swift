/// The UTC offsets of one time zone over all time, built from a TZif file (RFC 8536).
///
/// Two questions are answered exactly: the UTC offset at an instant (``offset(at:)``), and the
/// instant at which a local wall-clock time happens (``resolve(_:)``), with remindd's policy for
/// times that do not exist (DST gap: shift forward by the gap's length) or happen twice (DST
/// overlap: the first occurrence). Both are a binary search over a flat table of transitions.
///
/// Past the last transition in the file, the file's POSIX TZ footer (`EST5EDT,M3.2.0,M11.1.0`)
/// continues the rules. Its transitions are generated into the table for 400 years, one full
/// Gregorian cycle, after which they repeat exactly; later instants are folded back into that
/// cycle, so every instant gets an exact answer without unbounded tables.
public struct TimeZoneRules: Sendable, Hashable {
    /// The tables, shared: a zone is one reference wide, however many reminders use it.
    final class Table: Sendable {
        let identifier: String
        /// UTC instants of the offset changes, ascending. Changes of name or DST flag only are dropped.
        let transitionTimes: [Int64]
        /// The offset in force from `transitionTimes[i]` on.
        let offsetsAfter: [Int32]
        /// The offset in force before `transitionTimes[0]`, or always when there is no transition.
        let initialOffset: Int32
        /// `transitionTimes[i] + min(offset before, offset after)`: where the local-time window of transition i opens.
        let windowStarts: [Int64]
        /// Instants (UTC) and local times (as seconds) at or after which the 400-year fold applies.
        let foldFromUTC: Int64
        let foldFromLocal: Int64
        let minimumOffset: Int
        let maximumOffset: Int

        init(
            identifier: String, transitionTimes: [Int64], offsetsAfter: [Int32], initialOffset: Int32, windowStarts: [Int64],
            foldFromUTC: Int64, foldFromLocal: Int64, minimumOffset: Int, maximumOffset: Int
        ) {
            self.identifier = identifier
            self.transitionTimes = transitionTimes
            self.offsetsAfter = offsetsAfter
            self.initialOffset = initialOffset
            self.windowStarts = windowStarts
            self.foldFromUTC = foldFromUTC
            self.foldFromLocal = foldFromLocal
            self.minimumOffset = minimumOffset
            self.maximumOffset = maximumOffset
        }
    }

    let table: Table

    /// The zone's name as given (`America/New_York`).
    public var identifier: String { table.identifier }

    /// Whether `other` keeps the same time as this zone at every instant, whatever its name (`UTC` and
    /// `Etc/UTC`; a link and its target).
    public func keepsSameTime(as other: TimeZoneRules) -> Bool {
        let (a, b) = (table, other.table)
        return a === b
            || (a.transitionTimes == b.transitionTimes && a.offsetsAfter == b.offsetsAfter && a.initialOffset == b.initialOffset
                && a.foldFromUTC == b.foldFromUTC)
    }
    /// The smallest UTC offset the zone ever uses.
    public var minimumOffset: Int { table.minimumOffset }
    /// The largest UTC offset the zone ever uses.
    public var maximumOffset: Int { table.maximumOffset }

    /// Seconds in 400 Gregorian years, after which POSIX rules repeat exactly (146097 days is a whole number of weeks).
    static let cycle: Int64 = 146_097 * 86400

    /// A fixed-offset zone with no transitions (`UTC`, `Etc/GMT+5`).
    public init(identifier: String, fixedOffset: Int) {
        self.init(identifier: identifier, initialOffset: Int32(fixedOffset), transitions: [], posix: nil)
    }

    /// Parses the bytes of a TZif file (versions 1 to 4).
    /// - Throws: ``TimeZoneError/malformed(_:reason:)`` when the data is not a valid TZif file.
    public init(identifier: String, tzif bytes: [UInt8]) throws(TimeZoneError) {
        let parsed = try TZifParser.parse(bytes, identifier: identifier)
        self.init(
            identifier: identifier, initialOffset: parsed.initialOffset, transitions: parsed.transitions,
            posix: parsed.footer)
    }

    init(identifier: String, initialOffset: Int32, transitions raw: [(time: Int64, offset: Int32)], posix: POSIXTimeZone?) {
        var times: [Int64] = []
        var offsets: [Int32] = []
        var previous = initialOffset
        func append(_ time: Int64, _ offset: Int32) {
            if let last = times.last, time <= last { return }
            if offset == previous { return }
            times.append(time)
            offsets.append(offset)
            previous = offset
        }
        for t in raw { append(t.time, t.offset) }

        // Continue with the POSIX footer's rules for a full 400-year cycle after the table.
        let lastTableTime = raw.last?.time ?? Int64.min / 4
        var foldUTC = Int64.max
        if let posix, let dst = posix.daylight {
            let firstYear = raw.isEmpty ? 1970 : LocalDateTime(localSeconds: lastTableTime).date.year
            for year in firstYear...(firstYear + 402) {
                for change in dst.transitions(year: year, standardOffset: posix.standardOffset)
                where change.time > lastTableTime {
                    append(change.time, Int32(change.offset))
                }
            }
            foldUTC = Int64(CivilCalendar.dayNumber(year: firstYear + 2, month: 1, day: 1)) * 86400 + Self.cycle
        } else if let posix, Int32(posix.standardOffset) != previous {
            append(lastTableTime == Int64.min / 4 ? Int64.min / 2 : lastTableTime + 1, Int32(posix.standardOffset))
        }
        var starts: [Int64] = []
        starts.reserveCapacity(times.count)
        var before = initialOffset
        for (t, after) in zip(times, offsets) {
            starts.append(t + Int64(min(before, after)))
            before = after
        }
        let all = [initialOffset] + offsets
        let maximum = Int(all.max()!)
        table = Table(
            identifier: identifier, transitionTimes: times, offsetsAfter: offsets, initialOffset: initialOffset,
            windowStarts: starts, foldFromUTC: foldUTC,
            // A local time this late maps to UTC at or after foldFromUTC under any offset of the zone.
            foldFromLocal: foldUTC == Int64.max ? Int64.max : foldUTC + Int64(maximum) + 86400,
            minimumOffset: Int(all.min()!), maximumOffset: maximum)
    }

    /// The UTC offset, in seconds east of Greenwich, in force at `instant`.
    public func offset(at instant: Instant) -> Int {
        let table = self.table
        var t = instant.secondsSinceEpoch
        if t >= table.foldFromUTC { t -= ((t - table.foldFromUTC) / Self.cycle + 1) * Self.cycle }
        // Last transition at or before t.
        let times = table.transitionTimes
        var low = 0
        var high = times.count
        while low < high {
            let mid = (low &+ high) >> 1
            if times[mid] <= t { low = mid + 1 } else { high = mid }
        }
        return Int(low == 0 ? table.initialOffset : table.offsetsAfter[low - 1])
    }

    /// The instant at which the local wall-clock time `localSeconds` (seconds since 1970-01-01T00:00 local)
    /// happens, with remindd's DST policy:
    /// - in a gap, the time is shifted forward by the gap's length (02:30 in a 1-hour gap fires at 03:30 new time);
    /// - in an overlap, the first occurrence (the earlier instant) is chosen.
    public func resolve(localSeconds: Int64) -> Instant {
        let table = self.table
        var local = localSeconds
        var folded: Int64 = 0
        if local >= table.foldFromLocal {
            folded = ((local - table.foldFromLocal) / Self.cycle + 1) * Self.cycle
            local -= folded
        }
        // Last transition whose local window opens at or before `local`.
        let starts = table.windowStarts
        var low = 0
        var high = starts.count
        while low < high {
            let mid = (low &+ high) >> 1
            if starts[mid] <= local { low = mid + 1 } else { high = mid }
        }
        let utc: Int64
        if low == 0 {
            utc = local - Int64(table.initialOffset)
        } else {
            let i = low - 1
            let before = Int64(i == 0 ? table.initialOffset : table.offsetsAfter[i - 1])
            let after = Int64(table.offsetsAfter[i])
            // Inside the window (gap or overlap), the old offset gives both the shifted time and the first occurrence.
            utc = local < table.transitionTimes[i] + max(before, after) ? local - before : local - after
        }
        return Instant(secondsSinceEpoch: utc + folded)
    }

    /// The instant of a local date-time, with the DST policy of ``resolve(localSeconds:)``.
    public func resolve(_ local: LocalDateTime) -> Instant {
        resolve(localSeconds: local.localSeconds)
    }

    /// The wall-clock date-time at `instant`.
    public func localDateTime(at instant: Instant) -> LocalDateTime {
        LocalDateTime(localSeconds: instant.secondsSinceEpoch + Int64(offset(at: instant)))
    }

    /// The local day number (days since 1970-01-01) at `instant`.
    public func localDayNumber(at instant: Instant) -> Int {
        Int(CivilCalendar.floorDiv(instant.secondsSinceEpoch + Int64(offset(at: instant)), 86400))
    }

    /// The first offset change strictly after `instant`, if any.
    public func nextTransition(after instant: Instant) -> Instant? {
        var t = instant.secondsSinceEpoch
        var folded: Int64 = 0
        if t >= table.foldFromUTC {
            folded = ((t - table.foldFromUTC) / Self.cycle + 1) * Self.cycle
            t -= folded
        }
        guard let index = table.transitionTimes.firstIndex(where: { $0 > t }) else { return nil }
        return Instant(secondsSinceEpoch: table.transitionTimes[index] + folded)
    }

    public static func == (lhs: TimeZoneRules, rhs: TimeZoneRules) -> Bool {
        lhs.table === rhs.table
            || (lhs.identifier == rhs.identifier && lhs.table.transitionTimes == rhs.table.transitionTimes
                && lhs.table.offsetsAfter == rhs.table.offsetsAfter && lhs.table.initialOffset == rhs.table.initialOffset)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(table.transitionTimes.count)
    }
}

/// Why a time zone could not be used.
public enum TimeZoneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No zone of that name in the system's tzdata.
    case unknown(String)
    /// The file exists but is not a TZif file remindd can read.
    case malformed(String, reason: String)

    public var description: String {
        switch self {
        case .unknown(let name):
            return "unknown time zone \(quotedInput(name)): use a name from /usr/share/zoneinfo such as Europe/Berlin or America/New_York (list them with 'timedatectl list-timezones')"
        case .malformed(let name, let reason):
            return "time zone \(quotedInput(name)) could not be read: \(reason)"
        }
    }
}
