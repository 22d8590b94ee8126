import ArgumentParser
import Glibc
import ReminderCore
import TimeZoneDatabase

/// `remindctl preview`: the next firings of a rule, computed locally without a daemon.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Show the next firings of a rule (works without the daemon).",
        discussion: """
            Like 'systemd-analyze calendar --iterations=N': prints the next firings as local time with \
            offset, as UTC, and with the slot id. A time inside a DST gap fires shifted forward by the \
            gap (02:30 -> 03:30); a time that happens twice fires once, at the first occurrence; days \
            29-31 fire on the last day of shorter months.

            Examples:
              remindctl preview --daily --at 08:00,20:00
              remindctl preview --weekly mon,thu --at 18:00 --tz America/New_York
              remindctl preview --monthly 1,15,31 --at 10:00 --count 12
              remindctl preview --monthly-on last-sun --at 01:30 --tz Europe/London
              remindctl preview --every 2w --weekly sun --start 2024-10-20 --at 01:30
              remindctl preview --preset "Twice Monthly" --start 2026-12-20T08:00 --json
              remindctl preview --once 2026-12-24T18:00:30 --after 2026-12-01T00:00:00Z
              remindctl preview --rrule 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1' --start 2026-12-01T09:00
              remindctl preview --every 8h --start 2026-12-01T08:00
              remindctl preview --daily --at 08:00 --steps "40mg until 2026-12-01; 30mg until 2026-12-08; 20mg until 2026-12-15"

            --rrule takes an RFC 5545 recurrence rule, with --start as its DTSTART (the first instance, \
            whether or not it matches the rule, as the RFC says) and --tz as its TZID; --count and --after \
            as for the other rules.
            """
    )

    @OptionGroup var rule: RuleOptions

    @Option(help: ArgumentHelp("Time zone (IANA name). Default: the system zone.", valueName: "zone"), completion: .custom(Completions.zones))
    var tz: String?

    @Option(help: ArgumentHelp("List firings strictly after this instant (ISO 8601; without an offset, local to --tz). Default: now.", valueName: "instant"))
    var after: String?

    @Option(help: "How many firings to list.")
    var count = 10

    @Option(help: ArgumentHelp("A tapering course, as 'add --steps' takes it: each firing shows its day's dose, and the rule ends after the last step.", valueName: "steps"))
    var steps: String?

    @Option(help: ArgumentHelp("The unit of --steps' amounts that give none (tablet, mg ...).", valueName: "unit"))
    var unit: String?

    @Flag(help: "Print a JSON array of {slot, local, utc, scheduled} (with --steps: and dose).")
    var json = false

    func run() throws {
        guard count >= 1 else { throw CLIError("invalid --count \(count): give a number of firings of 1 or more, e.g. --count 10") }
        let environment = CommandContext.current.environment
        let database = TimeZoneDatabase.system(environment: environment)
        let course: DoseSteps?
        do throws(RuleSpecError) {
            course = try steps.map { text throws(RuleSpecError) in try DoseSteps(parsing: text, unit: unit) }
        } catch {
            throw CLIError("invalid --steps: \(error.message)")
        }
        let reminderRule: ReminderRule
        if let course {
            do throws(RuleSpecError) { reminderRule = try rule.spec.ending(with: course).makeRule() } catch { throw CLIError(error.message) }
        } else {
            reminderRule = try rule.makeRule()
        }
        RuleOptions.noteStart(of: reminderRule)
        let named: String?
        do throws(RuleSpecError) { named = try reminderRule.zoneName(given: tz) } catch { throw CLIError(error.message) }
        let zone = try loadZone(named ?? database.systemZoneName(environment: environment), from: database)
        let start = try parseAfter(in: zone)
        let firings = reminderRule.occurrences(after: start, count: count, in: zone).map { firing in
            Line(slot: firing.slotID(reminderID: "preview"), instant: firing.instant, offset: firing.offsetSeconds,
                 scheduled: LocalDateTime(date: firing.scheduledDate, time: firing.scheduledTime), dose: course?.dose(on: firing.scheduledDate))
        }
        write(firings, after: start)
    }

    /// One firing as preview prints it.
    private struct Line {
        let slot: String
        let instant: Instant
        let offset: Int
        /// The rule's local time (before a DST shift).
        let scheduled: LocalDateTime
        /// Its day's dose in a tapering course.
        let dose: Dose?
    }

    /// The firings as JSON (`{slot, local, utc, scheduled}`) or as lines: weekday, local time, UTC, slot.
    private func write(_ lines: [Line], after: Instant) {
        var output = OutputBuffer()
        if json {
            output.write("[")
            for (index, line) in lines.enumerated() {
                output.write(index == 0 ? "\n" : ",\n")
                output.write(#"  {"slot": "\#(line.slot)", "local": "\#(ISO8601.format(line.instant, offsetSeconds: line.offset, zulu: false))", "utc": "\#(line.instant)", "scheduled": "\#(line.scheduled)"\#(line.dose.map { #", "dose": "\#($0.description)""# } ?? "")}"#)
            }
            output.write(lines.isEmpty ? "]\n" : "\n]\n")
        } else if lines.isEmpty {
            output.write("No firings after \(after): the rule has ended.\n")
        } else {
            for line in lines {
                output.write(LocalDateTime(localSeconds: line.instant.secondsSinceEpoch + Int64(line.offset)).date.weekday.displayName + " ")
                output.write(line.instant, offsetSeconds: line.offset, zulu: false)
                output.write("  ")
                output.write(line.instant, offsetSeconds: 0)
                output.write("  " + line.slot + (line.dose.map { "  " + $0.description } ?? "") + "\n")
            }
        }
        output.flush()
    }

    private func loadZone(_ name: String, from database: TimeZoneDatabase) throws -> TimeZoneRules {
        do {
            return try database.rules(named: name)
        } catch {
            throw CLIError(error.description)
        }
    }

    private func parseAfter(in zone: TimeZoneRules) throws -> Instant {
        let now = CommandContext.current.now()
        guard let after else { return now }
        guard let instant = TimeText.instant(after, now: now, zone: zone) else {
            throw CLIError("invalid --after '\(after)': write \(TimeText.forms), e.g. 2026-03-08T07:00:00-05:00")
        }
        return instant
    }
}

/// Collects output and writes it in large chunks (100,000 lines of preview stay fast).
struct OutputBuffer {
    private var buffer: [UInt8] = []

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func write(_ instant: Instant, offsetSeconds: Int, zulu: Bool = true) {
        ISO8601.write(instant, offsetSeconds: offsetSeconds, zulu: zulu, into: &buffer)
    }

    mutating func flush() {
        CommandContext.current.write(String(decoding: buffer, as: UTF8.self))
        buffer.removeAll(keepingCapacity: true)
    }
}
