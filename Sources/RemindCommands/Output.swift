import FoundationEssentials
import Glibc
import ReminderCore
import ReminderInterface
import VarlinkProtocol
import Translation

/// remindctl's one output layer: lines, JSON, tables aligned by display width, colour, plurals, and times
/// in the user's zone. Every command writes through it.
struct Output {
    let context: CommandContext

    /// Colours on a terminal, unless NO_COLOR is set (https://no-color.org) or TERM is dumb.
    var colour: Bool {
        context.stdoutIsTerminal && (context.environment["NO_COLOR"] ?? "").isEmpty && context.environment["TERM"] != "dumb"
    }

    /// The language of the output (the context's).
    var words: any MessageCatalog { context.words }

    func print(_ text: String = "", terminator: String = "\n") {
        context.write(text + terminator)
    }

    /// `--json`: pretty, keys sorted, one document.
    func json(_ value: some Encodable) throws {
        if let document = value as? JSONValue {  // a whole backup: one pass
            return print(String(decoding: JSONWriter.write(document, pretty: true), as: UTF8.self))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// One JSON object on one line (a stream of them: `watch --json`).
    func jsonLine(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Rows as columns under a header, aligned by display width (wide and combining characters count as they
    /// show); no trailing spaces. The header is bold in colour.
    func table(_ header: [String], _ rows: [[String]]) {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].displayWidth }.max() ?? 0 }
        for (index, row) in ([header] + rows).enumerated() {
            let cells = row.enumerated().map { column, cell in column == row.count - 1 ? cell : cell.padded(toDisplayWidth: widths[column]) }
            var line = cells.joined(separator: "  ")
            while line.utf8.last == UInt8(ascii: " ") { line.removeLast() }
            print(index == 0 ? paint(line, .bold) : line)
        }
    }

    /// A terminal style.
    enum Style: String {
        case bold = "1", green = "32", red = "31", blue = "34", greenBold = "32;1", dim = "2"
    }

    func paint(_ text: String, _ style: Style) -> String {
        colour ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// `Sun 2026-11-22 09:00 +01:00`: an instant in the user's zone (the weekday as LC_TIME names it).
    func time(_ instant: Instant) -> String {
        time(instant, offsetSeconds: context.zone.offset(at: instant))
    }

    /// An instant read from what the user typed, shown as they wrote it: at the offset the text gave, else in
    /// the user's zone.
    func time(_ instant: Instant, typed text: String) -> String {
        time(instant, offsetSeconds: ISO8601.parseInstant(text)?.offsetSeconds ?? context.zone.offset(at: instant))
    }

    private func time(_ instant: Instant, offsetSeconds offset: Int) -> String {
        let local = LocalDateTime(localSeconds: instant.secondsSinceEpoch + Int64(offset))
        return "\(weekday(local.date)) \(local.date) \(local.time) \(ISO8601.formatOffset(offset))"
    }

    /// `Sun`, `So`, `dim.`: a date's weekday, short, in the output's language.
    func weekday(_ date: LocalDate) -> String {
        words.name(of: date.weekday, abbreviated: true)
    }

    /// `Friday 27 November 2026`, `Freitag, 27. November 2026`: a day as a heading.
    func dayTitle(_ date: LocalDate) -> String {
        words(
            CommandMessages.dayTitle, words.name(of: date.weekday, abbreviated: false), date.day, words.name(ofMonth: date.month, abbreviated: false),
            date.year)
    }

    /// An occurrence's state in words: `taken late` for `taken-late`.
    func state(_ state: String) -> String {
        let said: [String: Message] = [
            "upcoming": CommandMessages.upcoming, "due": CommandMessages.due, "taken": CommandMessages.taken, "taken-late": CommandMessages.takenLate,
            "skipped": CommandMessages.skipped, "missed": CommandMessages.missed, "suppressed": CommandMessages.suppressed,
            "paused": CommandMessages.paused,
        ]
        return said[state].map { words($0) } ?? state
    }

    /// Column headings in the output's language.
    func headings(_ messages: Message...) -> [String] {
        messages.map { words($0) }
    }

    /// An ISO 8601 instant (`...Z` or with an offset) in the user's zone; the text as it is when it does not parse.
    func time(_ iso: String) -> String {
        guard let instant = Self.instant(iso) else { return iso }
        return time(instant)
    }

    /// `08:00` in the user's zone of an ISO 8601 time, and the time in its own zone when that differs
    /// (`08:00 (07:00 +00:00)`).
    func clockTime(_ iso: String) -> String {
        clock(iso) + ownZoneNote(local: iso, zoneName: nil)
    }

    /// ``clockTime(_:)`` in a list of `date`, or `yesterday 23:50 ...` when the time is on another date on the
    /// user's clock (today's list holds yesterday's doses still due).
    func clockTime(_ iso: String, on date: LocalDate) -> String {
        guard let instant = Self.instant(iso), context.zone.localDayNumber(at: instant) != date.dayNumber else { return clockTime(iso) }
        return near(iso) + ownZoneNote(local: iso, zoneName: nil)
    }

    /// `15:10` today, `tomorrow 08:00`, else `Wed 2026-12-02 08:00`: a nearby ISO 8601 time on the user's clock.
    func near(_ iso: String) -> String {
        guard let instant = Self.instant(iso) else { return iso }
        let local = context.zone.localDateTime(at: instant)
        switch local.date.dayNumber - context.zone.localDayNumber(at: context.now()) {
        case 0: return "\(local.time)"
        case 1: return words(CommandMessages.tomorrowAt, local.time)
        case -1: return words(CommandMessages.yesterdayAt, local.time)
        default: return "\(weekday(local.date)) \(local.date) \(local.time)"
        }
    }

    /// `08:00`: an ISO 8601 time (`...Z` or with an offset) on the user's clock.
    func clock(_ iso: String) -> String {
        guard let instant = Self.instant(iso) else { return iso }
        return "\(context.zone.localDateTime(at: instant).time)"
    }

    /// ` (09:00 in Asia/Tokyo)` when the reminder's local time (`local`, ISO 8601 with its offset) shows a
    /// different offset from the user's zone at that instant; "" when they agree.
    func ownZoneNote(local: String, zoneName: String?) -> String {
        guard let parsed = ISO8601.parseInstant(local), let offset = parsed.offsetSeconds, let instant = Self.instant(local),
            offset != context.zone.offset(at: instant)
        else { return "" }
        return " (\(parsed.local.time) \(zoneName.map { "in \($0)" } ?? ISO8601.formatOffset(offset)))"
    }

    /// `in 2h 14min`, `in 45s`, `in 3d 4h`; `now`; `5min ago` (as `systemctl list-timers` counts).
    func left(until instant: Instant) -> String {
        let seconds = instant.secondsSinceEpoch - context.now().secondsSinceEpoch
        if seconds == 0 { return words(CommandMessages.now) }
        let magnitude = abs(seconds)
        let parts: [(Int64, String)] = [(magnitude / 86400, "d"), (magnitude / 3600 % 24, "h"), (magnitude / 60 % 60, "min"), (magnitude % 60, "s")]
        // The largest unit and the next one, where not zero (a loop: the generic joined was 27,000 instructions).
        var shown = ""
        if let first = parts.firstIndex(where: { $0.0 != 0 }) {
            for (amount, unit) in parts[first..<min(first + 2, parts.count)] where amount > 0 {
                shown += (shown.isEmpty ? "" : " ") + String(amount) + unit
            }
        }
        return seconds > 0 ? words(CommandMessages.inTime, shown) : words(CommandMessages.timeAgo, shown)
    }

    static func instant(_ iso: String) -> Instant? { ISO8601.parseAbsolute(iso) }
}

/// `1 day`, `3 days`; `1 entry`, `2 entries` with the plural given.
func plural(_ count: Int, _ singular: String, _ pluralForm: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : pluralForm ?? singular + "s")"
}

/// The output of the command running now.
var out: Output { Output(context: .current) }

extension Output {
    /// A line on stderr, at once (`remindctl: ...`): what is said beside the output, not in it.
    static func warn(_ text: String) {
        let line = Array("remindctl: \(text)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

/// Why remindd follows the zone it follows, in words: "config.toml's time-zone; the system's is UTC" or
/// "the system's".
func zoneReason(_ status: StatusValue) -> String {
    guard status.timeZoneSource == "config" else { return out.words(CommandMessages.systemsZone) }
    if status.systemTimeZone == status.timeZone { return out.words(CommandMessages.configZone) }
    return out.words(CommandMessages.configZoneNotSystems, status.systemTimeZone)
}

/// A line of `show`: its label (none: a line that goes on the one above) and what it says.
struct ShownLine {
    let label: Message?
    let text: String

    init(_ label: Message?, _ text: String) {
        (self.label, self.text) = (label, text)
    }
}

extension Output {
    /// `label: text` lines, the texts aligned after the widest label in the output's language.
    func print(_ lines: [ShownLine]) {
        let labels = lines.map { line in line.label.map { words($0) + ":" } ?? "" }
        let width = labels.map(\.displayWidth).max() ?? 0
        for (label, line) in zip(labels, lines) { print(label.padded(toDisplayWidth: width + 1) + line.text) }
    }
}

/// `Metformin (2 tablets)`: a reminder's name with the dose it asks for, if any.
func nameWithDose(_ name: String, _ amount: Double?, _ unit: String?) -> String {
    doseText(amount, unit).map { "\(name) (\($0))" } ?? name
}

/// A reminder's schedule in the user's language (`täglich 20:16`): its rule said by the catalog, with what the
/// daemon's summary adds after it (a course's end); the daemon's own summary for a rule it cannot read here.
func scheduleText(_ reminder: ReminderValue) -> String {
    // A rule this remindctl cannot make (a newer daemon's) keeps the daemon's words.
    guard let rule = try? reminder.rule.makeRule(), reminder.summary.hasPrefix(rule.summary) else { return reminder.summary }
    return out.words.schedule(rule) + reminder.summary.dropFirst(rule.summary.count)
}

/// An amount as typed in the user's language, with its unit as remindd stores it: `2 Tabletten` is `2 tablet`,
/// `Tablette` is `tablet`; anything else is passed on as typed (the daemon says what is wrong with it).
func typedAmount(_ text: String?) -> String? {
    guard let text else { return nil }
    let trimmed = text.withoutSurroundingSpaces
    let number = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    let unit = String(trimmed.dropFirst(number.count)).withoutSurroundingSpaces
    guard !unit.isEmpty, Dose.unitName(unit) == nil, let name = out.words.unitName(unit) else { return text }
    return number.isEmpty ? name : "\(number) \(name)"
}

/// `2 tablets`, `500 mg` (`2 Tabletten` in German), from a reply's dose and unit; nil without a dose.
func doseText(_ amount: Double?, _ unit: String?) -> String? {
    guard let amount, let unit else { return nil }
    return out.words.dose(Dose(thousandths: Int64((amount * 1000).rounded()), unit: unit))
}

/// `at least 6h apart, at most 3 in 24 hours`, or nil without limits.
func limitsText(minIntervalSeconds: Int64?, maxPerDay: Int?) -> String? {
    let parts = [
        minIntervalSeconds.map { out.words(CommandMessages.atLeastApart, WindowLength.text($0)) }, maxPerDay.map { out.words(CommandMessages.atMostInADay, $0) },
    ].compactMap { $0 }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
}

/// `Ibuprofen 400 mg  allowed now, 3 of 3 left in 24 hours` or `... allowed from 15:10, 2 of 3 left`: a medication
/// taken as needed, for `today` and `next`.
func asNeededLine(_ value: AsNeededValue, nameWidth: Int) -> String {
    let name = [value.shownName, doseText(value.dose, value.unit)].compactMap { $0 }.joined(separator: " ")
    let when = value.allowedNow ? out.words(CommandMessages.allowedNow) : out.words(CommandMessages.allowedFrom, out.near(value.allowedFromUtc))
    return name.padded(toDisplayWidth: nameWidth) + "  " + (value.leftInADay.map { out.words(CommandMessages.moreInADay, when, $0) } ?? when)
}
