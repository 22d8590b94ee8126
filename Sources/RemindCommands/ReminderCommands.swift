import ArgumentParser
import ReminderCore
import ReminderInterface

/// Prints one reminder as `key: value` lines; `followed` is why remindd follows its zone (``zoneReason(_:)``),
/// for one without its own.
private func describe(_ reminder: ReminderValue, followed: String? = nil) {
    out.print("id:        \(reminder.id)")
    out.print("name:      \(reminder.name)")
    out.print("schedule:  \(reminder.summary)")
    let zoneWhy = reminder.timeZone == nil ? "follows remindd's zone\(followed.map { ", \($0)" } ?? "")" : "its own"
    out.print("time zone: \(reminder.effectiveTimeZone) (\(zoneWhy))")
    out.print("enabled:   \(reminder.enabled ? "yes" : "no")")
    if reminder.rule.asNeeded != true {  // no occurrences: no streak, no window
        out.print("streak:    \(reminder.streak) day\(reminder.streak == 1 ? "" : "s") with every slot logged")
        out.print("window:    \(reminder.windowSeconds.map { "\(WindowLength.text($0)) after each occurrence" } ?? "until the next occurrence, at most the day's end")")
    }
    if let seconds = reminder.repeatSeconds {
        out.print("repeat:    every \(WindowLength.text(seconds)) until taken or skipped\(reminder.repeatMax.map { ", at most \($0) times" } ?? "")")
    }
    if let command = reminder.command { out.print("exec:      \(ShellWords.join(command))") }
    if let command = reminder.escalateCommand {
        let when = reminder.escalateAfterSeconds.map { "when an occurrence is not taken \(WindowLength.text($0)) after its time, or missed" } ?? "when an occurrence is missed"
        out.print("escalate:  \(ShellWords.join(command)) (\(when))")
    }
    if reminder.urgency != "normal" { out.print("urgency:   \(reminder.urgency)") }
    if reminder.steps == nil, let dose = doseText(reminder.dose, reminder.unit) { out.print("dose:      \(dose)") }
    if let limits = limitsText(minIntervalSeconds: reminder.minIntervalSeconds, maxPerDay: reminder.maxPerDay) { out.print("limits:    \(limits)") }
    for (index, step) in (reminder.steps ?? []).enumerated() {
        let dose = doseText(step.dose, step.unit) ?? ""
        out.print("\(index == 0 ? "steps:    " : "          ") \(step.current ? "▸" : " ") \(dose) until \(step.through)\(step.current ? " (today)" : "")")
    }
    if let next = reminder.next { out.print("next:      \(out.time(next.local))  \(next.slot)" + (next.snoozed == true ? " (snoozed)" : "")) }
}

/// How a reminder reaches the person beyond the journal: the flags add and update share.
struct DeliveryOptions: ParsableArguments {
    @Option(name: .customLong("repeat"), help: ArgumentHelp(
        "Announce a due occurrence again every LENGTH (10m, 1h; 1s to 24h) until it is taken or skipped, or its window ends. \"\" (update): announce once.",
        valueName: "length")) var repeatInterval: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("At most this many repeats (1-100; 0 with update: until the window ends).", valueName: "n")) var repeatMax: Int?
    @Option(help: ArgumentHelp(
        "A command to run at each announcement, without a shell: an absolute path and arguments, quoted as in a shell. \"\" (update): none.",
        valueName: "command")) var exec: String?
    @Option(help: ArgumentHelp("normal or critical (the desktop notification stays until acted on).", valueName: "level"),
            completion: .list(["normal", "critical"])) var urgency: String?
    @Option(help: ArgumentHelp(
        "How much one dose is: 2 (with --unit), 0.5, 500mg. Said in every announcement; what a log records. \"\" (update): none.",
        valueName: "amount")) var dose: String?
    @Option(help: ArgumentHelp("The dose's unit: tablet, capsule, drop, puff, spray, patch, mg, mcg, g, ml, IU ...", valueName: "unit"),
            completion: .list(Dose.units.map(\.name))) var unit: String?
    @Option(name: .customLong("escalate-exec"), help: ArgumentHelp(
        "A command to run, without a shell, when an occurrence is missed (tell a caregiver), quoted as in a shell. \"\" (update): none.",
        valueName: "command")) var escalateExec: String?
    @Option(help: ArgumentHelp(
        "Run --escalate-exec this long (10m, 1h) after an occurrence's time when it is not yet taken or skipped, not when it is missed. \"\" (update): when missed.",
        valueName: "length")) var escalateAfter: String?
    @Option(help: ArgumentHelp(
        "A tapering course: each step's dose and last day, e.g. \"40mg until 2026-12-01; 30mg until 2026-12-08\"; the reminder ends after the last. \"\" (update): none.",
        valueName: "steps")) var steps: String?
    @Option(help: ArgumentHelp(
        "The least time between two doses (6h; 1m to 7d): a log sooner is refused unless --force. \"\" (update): none.",
        valueName: "length")) var minInterval: String?
    @Option(help: ArgumentHelp(
        "The most doses in any 24 hours (1-100; a rolling day, not the calendar day): one more is refused unless --force. 0 (update): none.",
        valueName: "n")) var maxPerDay: Int?
    @Option(help: ArgumentHelp(
        "Say when the stock ('remindctl stock') covers fewer than this many days (1-365; default 7; 0 with update: the default).",
        valueName: "days")) var refillDays: Int?

    var isEmpty: Bool { repeatInterval == nil && repeatMax == nil && exec == nil && urgency == nil && dose == nil && unit == nil && refillDays == nil
        && escalateExec == nil && escalateAfter == nil && minInterval == nil && maxPerDay == nil && steps == nil }

    /// The command's words, or nil when --exec was not given ([] for --exec "").
    func command() throws -> [String]? { try Self.words(exec, option: "--exec") }

    /// The escalation command's words, or nil when --escalate-exec was not given ([] for "").
    func escalateCommand() throws -> [String]? { try Self.words(escalateExec, option: "--escalate-exec") }

    private static func words(_ text: String?, option: String) throws -> [String]? {
        guard let text else { return nil }
        do { return try ShellWords.split(text) } catch { throw CLIError("invalid \(option): \(error)") }
    }

    /// Refuses what the daemon would refuse, before connecting (the program's path is checked by the daemon,
    /// which runs it).
    func validate(adding: Bool) throws {
        if let text = repeatInterval, !(text.isEmpty && !adding), RepeatPlan.interval(text) == nil {
            throw CLIError("invalid --repeat \(quotedInput(text)): write \(RepeatPlan.forms)")
        }
        if let max = repeatMax, !RepeatPlan.maximums.contains(max), !(max == 0 && !adding) {
            throw CLIError("invalid --repeat-max \(max): give 1 to 100 repeats")
        }
        if let urgency, !["normal", "critical"].contains(urgency) {
            throw CLIError("invalid --urgency '\(urgency)': write normal or critical")
        }
        if let steps {
            // The steps name their doses (--unit: for amounts without one).
            guard dose == nil else { throw CLIError("--dose and --steps both give the dose: give --steps alone (each step names its dose)") }
            if !(steps.isEmpty && !adding) {
                do { _ = try DoseSteps(parsing: steps, unit: unit) } catch { throw CLIError("invalid --steps: \(error.message)") }
            }
        } else if let dose, !dose.isEmpty || adding {
            // A unit alone (update) changes the unit of the dose the daemon has.
            do { _ = try Dose(amount: dose, unit: unit) } catch { throw CLIError(error.message) }
        } else if adding, let unit {
            throw CLIError("--unit \(unit) without a dose: give --dose too, e.g. --dose 2 --unit \(unit)")
        }
        if let refillDays, !Delivery.refillDayRange.contains(refillDays), !(refillDays == 0 && !adding) {
            throw CLIError("invalid --refill-days \(refillDays): give 1 to 365 days of stock")
        }
        _ = try command()
        _ = try escalateCommand()
        if let text = escalateAfter, !(text.isEmpty && !adding), WindowLength.seconds(text) == nil {
            throw CLIError("invalid --escalate-after \(quotedInput(text)): write \(WindowLength.forms)")
        }
        if let text = minInterval, !(text.isEmpty && !adding), WindowLength.seconds(text, in: DoseLimits.minIntervalRange) == nil {
            throw CLIError("invalid --min-interval \(quotedInput(text)): write a length of 1m to 7d such as 4h, 6h or 1d")
        }
        if let maxPerDay, !DoseLimits.maxPerDayRange.contains(maxPerDay), !(maxPerDay == 0 && !adding) {
            throw CLIError("invalid --max-per-day \(maxPerDay): give 1 to 100 doses")
        }
        if adding, let text = escalateAfter, escalateExec == nil {
            throw CLIError("--escalate-after \(text) needs a command to run: add --escalate-exec /path/to/tell-carer")
        }
    }
}

/// Refuses a window the daemon would refuse, before connecting.
func checkWindow(_ window: String?) throws {
    if let window, !window.isEmpty, WindowLength.seconds(window) == nil {
        throw CLIError("invalid --window '\(window)': write \(WindowLength.forms)")
    }
}

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a reminder.",
        discussion: """
            Takes the same rule flags as 'remindctl preview'. Without --tz the reminder follows the system zone.

            Examples:
              remindctl add "Vitamin D" --weekly sun --at 09:00
              remindctl add "Meds" --preset "Twice a Day" --start 08:00
              remindctl add "Rent" --monthly 1 --at 10:00 --tz Europe/Berlin
              remindctl add "Call mum" --once 2026-12-24T18:00
              remindctl add Rent --rrule 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1' --start 2026-12-31T09:00
              remindctl add Tea --in 20m
              remindctl add Amoxicillin --every 8h --start 2026-12-01T08:00
              remindctl add Pills --daily --at 08:00 --repeat 10m --repeat-max 3 --window 2h
              remindctl add Pills --daily --at 08:00 --exec '/usr/bin/notify-send Pills'
              remindctl add Metformin --daily --at 08:00,20:00 --dose 2 --unit tablet
              remindctl add "Vitamin D" --daily --at 09:00 --dose 1000IU
              remindctl add Insulin --daily --at 08:00 --window 1h --escalate-exec /home/me/bin/tell-carer
              remindctl add Insulin --daily --at 08:00 --window 2h --escalate-exec /home/me/bin/tell-carer --escalate-after 30m
              remindctl add Ibuprofen --as-needed --dose 400 --unit mg --min-interval 6h --max-per-day 3
              remindctl add Amoxicillin --every 8h --from-last-dose --start 2026-12-01T08:00 --dose 1 --unit capsule
              remindctl add Prednisone --daily --at 08:00 --steps "40mg until 2026-12-01; 30mg until 2026-12-08; 20mg until 2026-12-15"
            """
    )

    @Argument(help: "The reminder's name, e.g. \"Vitamin D\".") var name: String
    @OptionGroup var rule: RuleOptions
    @Option(help: ArgumentHelp("Time zone (IANA name); default: follow the system zone.", valueName: "zone"), completion: .custom(Completions.zones))
    var tz: String?
    @Option(help: ArgumentHelp(
        "How long after each occurrence a log still counts (2h, 90m; up to 24h); then it is missed. Default: until the next occurrence, at most the day's end.",
        valueName: "length")) var window: String?
    @OptionGroup var delivery: DeliveryOptions
    @Flag(help: "Add it disabled.") var disabled = false
    @Flag(help: "Print the added reminder as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        // A one-shot given as a length from now is made a date-time in the reminder's zone: its --tz, or the
        // caller's, given to the daemon (whose own zone may be another).
        let relative = try rule.relativeSeconds() != nil
        let zone = try RuleOptions.zone(named: tz)
        let spec = try rule.spec(now: CommandContext.current.now(), zone: zone)
        // As the daemon will, before connecting; a calendar expression's zone is the reminder's.
        let named: String?
        do throws(RuleSpecError) {
            let made = try spec.makeRule()
            named = try made.zoneName(given: tz)
            RuleOptions.noteStart(of: made)
        } catch { throw CLIError(error.message) }
        try checkWindow(window)
        try delivery.validate(adding: true)
        var timeZone = relative ? (tz ?? zone.identifier) : named
        var zoneNote: String?
        if timeZone == nil {
            // Times typed are read in the user's zone: where remindd follows another, the reminder keeps the user's.
            let followed = try connection.call(Reminders.Status.self).timeZone
            if !zone.keepsSameTime(as: try RuleOptions.zone(named: followed)) {
                timeZone = zone.identifier
                zoneNote = "Its times are in \(zone.identifier), your zone (remindd follows \(followed)); --tz names another."
            }
        }
        let parameters = Reminders.Add.Parameters(
            name: name, rule: spec, timeZone: timeZone, enabled: disabled ? false : nil, window: window,
            repeat: delivery.repeatInterval, repeatMax: delivery.repeatMax, command: try delivery.command(), urgency: delivery.urgency,
            dose: delivery.dose, unit: delivery.unit, refillDays: delivery.refillDays,
            escalateCommand: try delivery.escalateCommand(), escalateAfter: delivery.escalateAfter,
            minInterval: delivery.minInterval, maxPerDay: delivery.maxPerDay, steps: delivery.steps)
        let reply = try connection.call(Reminders.Add.self, parameters)
        if json { return try out.json(reply.reminder) }
        out.print("Added reminder \(reply.reminder.id): \(nameWithDose(reply.reminder.name, reply.reminder.dose, reply.reminder.unit)), \(reply.reminder.summary)")
        if let next = reply.reminder.next { out.print("Next: \(out.time(next.local))") }
        if let zoneNote { out.print(zoneNote) }
    }
}

struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change a reminder's name, rule or time zone.",
        discussion: """
            Rule flags change that part of the rule and keep the rest: --at the times, --weekly (or --daily, \
            --monthly ...) the days, --start, --until and --skip each their own. --tz "" makes the reminder follow \
            the system zone again. Times are read as 'add' reads them: in your zone, or the reminder's own (said \
            when it is not yours). --at that gives fewer times than the reminder has needs --replace-times: a \
            twice-daily dose does not become once daily by a slip.

            Examples:
              remindctl update Pills --at 10:00,20:00
              remindctl update Pills --at 10:00 --replace-times
              remindctl update "Vitamin D" --weekly sun,wed --at 09:00
              remindctl update 3 --name "Vitamin D3"
              remindctl update Rent --rrule 'FREQ=MONTHLY;BYMONTHDAY=-1' --start 2026-12-31T09:00
              remindctl update Pills --repeat 15m --urgency critical
              remindctl update Pills --repeat "" --exec ""
            """
    )

    @Argument(help: "The reminder's id or name.", completion: .custom(Completions.reminders)) var reminder: String
    @Option(help: "A new name.") var name: String?
    @OptionGroup var rule: RuleOptions
    @Option(help: ArgumentHelp("A new time zone; \"\" to follow the system zone.", valueName: "zone"), completion: .custom(Completions.zones))
    var tz: String?
    @Option(help: ArgumentHelp("A new window (2h, 90m; up to 24h); \"\" for the default.", valueName: "length")) var window: String?
    @Flag(help: "Let --at give fewer times than the reminder has (the others are dropped).") var replaceTimes = false
    @OptionGroup var delivery: DeliveryOptions
    @Flag(help: "Print the reminder as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let changesRule = rule.spec != RuleSpec()
        guard changesRule || name != nil || tz != nil || window != nil || !delivery.isEmpty else {
            throw CLIError("nothing to change: give --name, --tz, --window, --repeat, --exec, --urgency or rule flags such as --at 08:00")
        }
        try checkWindow(window)
        try delivery.validate(adding: false)
        var zoneNote: String?
        let reply = try connection.withConnection { daemon in
            var spec: RuleSpec?
            var timeZone = tz
            if changesRule {
                let current = try daemon.call(Reminders.Get.self, .init(reminder: reminder)).reminder
                let times = { (text: String?) in text?.split(separator: ",").count ?? 0 }
                if let at = rule.at, !replaceTimes, times(at) < times(current.rule.at) {
                    throw CLIError("""
                        \(current.name) is at \(current.rule.at ?? ""); --at \(at) would drop \(times(current.rule.at) - times(at)) of its times: \
                        give them all (--at \(at),...), or add --replace-times to drop them
                        """)
                }
                // Times typed are read as add reads them: in the user's zone where the reminder follows remindd's
                // and that is another (the reminder then keeps the user's, as add gives it), else in its own.
                let user = CommandContext.current.zone
                var readIn = try RuleOptions.zone(named: tz ?? current.effectiveTimeZone)
                if tz == nil, current.timeZone == nil, rule.at != nil || rule.start != nil, !user.keepsSameTime(as: readIn) {
                    (readIn, timeZone) = (user, user.identifier)
                    zoneNote = "Its times are in \(user.identifier), your zone (remindd follows \(current.effectiveTimeZone)); --tz names another."
                } else if rule.at != nil, !user.keepsSameTime(as: readIn) {
                    zoneNote = "Its times are read in \(readIn.identifier), the reminder's zone (yours is \(user.identifier))."
                }
                let change = try rule.spec(now: CommandContext.current.now(), zone: readIn)
                let updated = current.rule.updated(by: change)
                do throws(RuleSpecError) { RuleOptions.noteStart(of: try updated.makeRule()) } catch { throw CLIError(error.message) }
                spec = updated
            }
            return try daemon.call(Reminders.Update.self, Reminders.Update.Parameters(
                reminder: reminder, name: name, rule: spec, timeZone: timeZone, window: window,
                repeat: delivery.repeatInterval, repeatMax: delivery.repeatMax, command: try delivery.command(), urgency: delivery.urgency,
                dose: delivery.dose, unit: delivery.unit, refillDays: delivery.refillDays,
                escalateCommand: try delivery.escalateCommand(), escalateAfter: delivery.escalateAfter,
            minInterval: delivery.minInterval, maxPerDay: delivery.maxPerDay, steps: delivery.steps))
        }
        if json { return try out.json(reply.reminder) }
        describe(reply.reminder)
        if let zoneNote { out.print(zoneNote) }
    }
}

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a reminder (its firing history stays).",
        discussion: """
            On a terminal it asks first (--yes does not).

            Examples:
              remindctl delete "Vitamin D" --yes
              remindctl delete 3 --yes --json
            """,
        aliases: ["rm"])

    @Argument(help: "The reminder's id or name.", completion: .custom(Completions.reminders)) var reminder: String
    @Flag(help: "Do not ask for confirmation.") var yes = false
    @Flag(help: "Print the deleted reminder as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        guard confirmDeletion("the reminder \(reminder)", yes: yes) else { return out.print("Nothing deleted.") }
        let deleted = try connection.call(Reminders.Remove.self, .init(reminder: reminder)).reminder
        if json { return try out.json(deleted) }
        out.print("Deleted reminder \(deleted.id): \(deleted.name)")
    }
}

struct EnableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable", abstract: "Enable a reminder (slots missed while disabled do not fire).",
        discussion: "Example:\n  remindctl enable \"Vitamin D\"")

    @Argument(help: "The reminder's id or name.", completion: .custom(Completions.reminders)) var reminder: String
    @Flag(help: "Print the reminder as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let reply = try connection.call(Reminders.Enable.self, .init(reminder: reminder))
        if json { return try out.json(reply.reminder) }
        out.print("Enabled \(reply.reminder.name)\(reply.reminder.next.map { "; next: \(out.time($0.local))" } ?? "")")
    }
}

struct DisableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Disable a reminder without removing it.",
        discussion: "Example:\n  remindctl disable \"Vitamin D\"")

    @Argument(help: "The reminder's id or name.", completion: .custom(Completions.reminders)) var reminder: String
    @Flag(help: "Print the reminder as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let reply = try connection.call(Reminders.Disable.self, .init(reminder: reminder))
        if json { return try out.json(reply.reminder) }
        out.print("Disabled \(reply.reminder.name)")
    }
}

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List reminders with their next firing.",
        discussion: "Examples:\n  remindctl list\n  remindctl list --json | jq '.[].name'", aliases: ["ls"])

    @Flag(help: "Print a JSON array of reminders.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let reminders = try connection.allReminders()
        if json { return try out.json(reminders) }
        if reminders.isEmpty {
            out.print("No reminders. Add one with: remindctl add \"Vitamin D\" --weekly sun --at 09:00")
            return
        }
        out.table(
            ["ID", "NAME", "SCHEDULE", "ZONE", "STREAK", "NEXT"],
            reminders.map { r in
                [String(r.id), nameWithDose(r.name, r.dose, r.unit) + (r.calendar.map { " [\($0)]" } ?? ""), r.summary, r.effectiveTimeZone, String(r.streak), r.enabled ? (r.next.map { out.time($0.local) + ($0.snoozed == true ? " (snoozed)" : "") } ?? "-") : "disabled"]
            })
    }
}

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one reminder.",
        discussion: "Example:\n  remindctl show \"Vitamin D\" --json", aliases: ["get"])

    @Argument(help: "The reminder's id or name.", completion: .custom(Completions.reminders)) var reminder: String
    @Flag(help: "Print the reminder as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let value = try connection.call(Reminders.Get.self, .init(reminder: reminder)).reminder
        if json { return try out.json(value) }
        describe(value, followed: value.timeZone == nil ? zoneReason(try connection.call(Reminders.Status.self)) : nil)
    }
}
