import ArgumentParser
import ReminderCore

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

    @Option(help: ArgumentHelp("Every N days or weeks from --start: 3d, 2w.", valueName: "interval"))
    var every: String?

    @Option(help: ArgumentHelp("A preset: \(Preset.allCases.map(\.rawValue).joined(separator: ", ")). Times come from --start.", valueName: "name"))
    var preset: String?

    @Option(help: ArgumentHelp("Once, at a local date-time, e.g. 2026-12-24T18:00:30.", valueName: "date-time"))
    var once: String?

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
            every: every, preset: preset, once: once, at: at, start: start, until: until, skip: skip)
    }

    /// The validated rule, or a one-line error.
    func makeRule() throws -> ReminderRule {
        do {
            return try spec.makeRule()
        } catch {
            throw CLIError(error.message)
        }
    }
}
