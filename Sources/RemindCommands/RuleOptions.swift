import ArgumentParser
import ReminderCore
import TimeZoneDatabase

/// The rule flags shared by `preview` and `add`; they map one to one onto ``RuleSpec``.
struct RuleOptions: ParsableArguments {
    @Flag(help: "Every day (with --at).")
    var daily = false

    @Option(help: ArgumentHelp("Weekdays, e.g. mon,thu (with --at; with --every Nw, the weekdays of those weeks).", valueName: "days"))
    var weekly: String?

    @Option(help: ArgumentHelp("Days of month 1-31 and/or 'last', e.g. 1,15,31 (29-31 clamp to short months' last day).", valueName: "days"))
    var monthly: String?

    @Option(name: .customLong("monthly-on"), help: ArgumentHelp("The nth weekday of each month: 2nd-sun, last-fri.", valueName: "nth-day"))
    var monthlyOn: String?

    @Option(help: ArgumentHelp("Month and day each year, e.g. 12-24 (02-29 fires on 28 Feb in common years).", valueName: "MM-DD"))
    var yearly: String?

    @Option(help: ArgumentHelp("Every N days or weeks from --start (3d, 2w), or hours and minutes from --start's time (8h, 30m, 2h30m).", valueName: "interval"))
    var every: String?

    @Option(help: ArgumentHelp("A preset: \(Preset.allCases.map(\.rawValue).joined(separator: ", ")). Times come from --start.", valueName: "name"),
            completion: .custom(Completions.presets))
    var preset: String?

    @Option(help: ArgumentHelp("Once, at a local date-time, e.g. 2026-12-24T18:00:30, or this long from now: +1h30m.", valueName: "date-time"))
    var once: String?

    @Option(name: .customLong("in"), help: ArgumentHelp("Once, this long from now: 20m, 1h30m, 2d (as --once +20m).", valueName: "length"))
    var inLength: String?

    @Option(help: ArgumentHelp("An RFC 5545 recurrence rule, e.g. 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', from --start (its DTSTART).", valueName: "rule"))
    var rrule: String?

    @Option(name: .customLong("on-calendar"), help: ArgumentHelp("A systemd calendar expression, e.g. 'Mon..Fri *-*-* 09:00' or '*-*~01 18:00' (see systemd.time(7)).", valueName: "expression"))
    var onCalendar: String?

    @Flag(name: .customLong("as-needed"), help: "No schedule: a medication taken when needed, never announced; limit it with --min-interval and --max-per-day.")
    var asNeeded = false

    @Flag(name: .customLong("from-last-dose"), help: "With --every 8h: each occurrence comes that long after the last dose logged (a late dose moves the next one).")
    var fromLastDose = false

    @Option(help: ArgumentHelp("Times of day, e.g. 08:00,20:00.", valueName: "times"))
    var at: String?

    @Option(help: ArgumentHelp("First day or date-time (for daily presets also just a time).", valueName: "date"))
    var start: String?

    @Option(help: ArgumentHelp("Last day (inclusive).", valueName: "date"))
    var until: String?

    @Option(help: ArgumentHelp("Dates on which not to fire, e.g. 2026-12-25,2027-01-01.", valueName: "dates"))
    var skip: String?

    var spec: RuleSpec {
        RuleSpec(
            daily: daily ? true : nil, weekly: weekly, monthly: monthly, monthlyOn: monthlyOn, yearly: yearly,
            every: every, preset: preset, once: once, at: at, start: start, until: until, skip: skip, rrule: rrule,
            onCalendar: onCalendar, asNeeded: asNeeded ? true : nil, fromLastDose: fromLastDose ? true : nil)
    }

    /// ``spec`` with a one-shot given as a length from now (`--in 20m`, `--once +20m`) as the wire carries it
    /// (`once: "+20m"`): the daemon makes it a date-time by its own clock, as it checks it.
    func wireSpec() throws -> RuleSpec {
        var result = spec
        switch (inLength, once) {
        case (let length?, nil): result.once = "+" + length
        case (_?, _?): throw CLIError("--in and --once say the same thing: give one of them")
        default: break
        }
        do { _ = try result.onceFromNowSeconds() } catch { throw CLIError(error.message) }
        return result
    }

    /// The rules of a zone by name, or the caller's zone (`TZ`, else the system's) when nil.
    static func zone(named name: String?) throws -> TimeZoneRules {
        guard let name, !name.isEmpty else { return CommandContext.current.zone }
        do {
            return try TimeZoneDatabase.system(environment: CommandContext.current.environment).rules(named: name)
        } catch {
            throw CLIError("unknown time zone \(quotedInput(name)): give an IANA name such as Europe/Berlin (see 'timedatectl list-timezones')")
        }
    }

    /// ``wireSpec()`` with a one-shot given from now made a local date-time in `zone` at `now`: what remindctl
    /// checks before connecting.
    /// - Parameter zone: the zone the reminder follows (its `--tz`, or the caller's, which is then given).
    func spec(now: Instant, zone: TimeZoneRules) throws -> RuleSpec.OnceFromNow {
        do { return try wireSpec().resolvingOnceFromNow(now: now, in: zone) } catch let error as RuleSpecError { throw CLIError(error.message) }
    }

    /// Says on standard error when an RFC 5545 rule's `--start` is no instance of the rule: RFC 5545 makes it the
    /// first firing all the same ("the last weekday of the month" from the 1st fires on the 1st).
    static func noteStart(of rule: ReminderRule) {
        guard case .recurrence(let set) = rule.days, let recurrence = set.rule, !recurrence.selects(start: set.start) else { return }
        let wallClock = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        func shown(_ local: LocalDateTime) -> String { local.time.second == 0 ? String(local.description.dropLast(3)) : local.description }
        let first = set.instances(after: wallClock.resolve(set.start), count: 1, in: wallClock).first.map { ", e.g. its first after it, \(shown($0.local))" } ?? ""
        Output.warn("note: --start \(shown(set.start)) is no instance of the rule, and RFC 5545 makes it the first firing all the same; give a --start the rule names\(first)")
    }

    /// The validated rule, or a one-line error (a one-shot given as a length is checked as that far from now).
    func makeRule() throws -> ReminderRule {
        do {
            return try spec(now: CommandContext.current.now(), zone: TimeZoneRules(identifier: "UTC", fixedOffset: 0)).spec.makeRule()
        } catch let error as RuleSpecError {
            throw CLIError(error.message)
        }
    }
}
