import ArgumentParser
import ReminderCore
import ReminderInterface
import Translation
import VarlinkProtocol

/// One reminder as `key: value` lines (the schedule as remindd's rule language says it); `followed` is why
/// remindd follows its zone (``zoneReason(_:)``), for one without its own.
private func describe(_ reminder: ReminderValue, followed: String? = nil) -> [ShownLine] {
    let words = out.words
    let zone =
        reminder.timeZone != nil
        ? words(CommandMessages.itsOwnZone, reminder.effectiveTimeZone)
        : followed.map { words(CommandMessages.followsZoneBecause, reminder.effectiveTimeZone, $0) }
            ?? words(CommandMessages.followsZone, reminder.effectiveTimeZone)
    var lines = [
        ShownLine(CommandMessages.idLabel, String(reminder.id)), ShownLine(CommandMessages.nameLabel, reminder.name),
        ShownLine(CommandMessages.scheduleLabel, scheduleText(reminder)), ShownLine(CommandMessages.timeZoneLabel, zone),
        ShownLine(CommandMessages.enabledLabel, words(reminder.enabled ? CommandMessages.yes : CommandMessages.no)),
    ]
    if reminder.rule.asNeeded != true {  // no occurrences: no streak, no window
        lines.append(ShownLine(CommandMessages.streakLabel, words(CommandMessages.streakDays, count: reminder.streak, reminder.streak)))
        let window = reminder.windowSeconds.map { words(CommandMessages.windowAfter, WindowLength.text($0)) } ?? words(CommandMessages.windowUntilNext)
        lines.append(ShownLine(CommandMessages.windowLabel, window))
    }
    lines += DeliveryOptions.describe(reminder.delivery)
    if let next = reminder.next {
        let when = "\(out.time(next.local))  \(next.slot)"
        lines.append(ShownLine(CommandMessages.nextLabel, next.snoozed == true ? words(CommandMessages.snoozedMark, when) : when))
    }
    return lines
}

/// Refuses a window the daemon would refuse, before connecting.
func checkWindow(_ window: String?) throws {
    if let window, !window.isEmpty, WindowLength.seconds(window) == nil {
        throw CLIError("invalid --window '\(window)': write \(WindowLength.forms)")
    }
}

extension AddCommand {
    /// `--tz local`: the reminder follows remindd's zone (local time when travelling).
    static let local = "local"

    /// Refuses what the rule and the parts get wrong together (``ReminderDefinition``), as the daemon will,
    /// before connecting: a course against `--until`, `--before` against the occurrences, `--escalate-after`
    /// against `--window`, a rule that would never fire.
    func checkDefinition(_ spec: RuleSpec, zone: TimeZoneRules) throws {
        do {
            let delivery = try Delivery().applying(try self.delivery.change(), adding: true)
            let course = try ReminderDefinition.course(spec, delivery)
            let rule = try course.makeRule()
            try ReminderDefinition(spec: course, delivery: delivery, windowSeconds: window.flatMap(WindowLength.seconds))
                .check(rule: rule, zone: zone, now: CommandContext.current.now())
        } catch let problem as ReminderDefinition.Problem {
            switch problem {
            case .input(let error): throw CLIError(error.message)
            case .rule(let message): throw CLIError(message)
            }
        } catch let error as RuleSpecError {
            throw CLIError(error.message)
        } catch let error as PartError {
            throw CLIError(error.message)
        }
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
    @Option(help: ArgumentHelp(
        "Its own time zone (IANA name: keeps it wherever you are), or local: follows remindd's zone (local time when travelling). Default: local, unless your zone is not remindd's.",
        valueName: "zone"), completion: .custom(Completions.zones))
    var tz: String?
    @Option(help: ArgumentHelp(
        "How long after each occurrence a log still counts (2h, 90m; up to 24h); then it is missed. Default: until the next occurrence, at most the day's end.",
        valueName: "length")) var window: String?
    @OptionGroup var delivery: DeliveryOptions
    @Flag(help: "Add it disabled.") var disabled = false
    @Flag(help: "Print the added reminder as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        // `--tz local`: follows remindd's zone, said so, whatever the caller's zone.
        let local = tz == Self.local
        let tz = local ? nil : self.tz
        // A one-shot given as a length from now goes as that (the daemon makes it a date-time by its clock, as it
        // checks it), in the reminder's zone: its --tz, or the caller's, given (the daemon's own may be another).
        let wire = try rule.wireSpec()
        let zone = try RuleOptions.zone(named: tz)
        let made = try rule.spec(now: CommandContext.current.now(), zone: zone)
        let spec = made.spec
        // As the daemon will, before connecting; a calendar expression's zone is the reminder's.
        let named: String?
        do throws(RuleSpecError) {
            let made = try spec.makeRule()
            named = try made.zoneName(given: tz)
            RuleOptions.noteStart(of: made)
        } catch { throw CLIError(error.message) }
        try checkWindow(window)
        try delivery.validate(adding: true)
        try checkDefinition(spec, zone: try made.fixedZone ?? named.map(RuleOptions.zone(named:)) ?? zone)
        var timeZone = wire.givesOnceFromNow ? (tz ?? zone.identifier) : named
        var zoneNote: String?
        if timeZone == nil, !local {
            // Times typed are read in the user's zone: where remindd follows another, the reminder keeps the user's.
            let followed = try connection.call(Reminders.Status.self).timeZone
            if !zone.keepsSameTime(as: try RuleOptions.zone(named: followed)) {
                timeZone = zone.identifier
                zoneNote = out.words(StatusMessages.zoneNote, zone.identifier, followed)
            }
        }
        let parameters = Reminders.Add.Parameters(
            name: name, rule: wire, timeZone: timeZone, enabled: disabled ? false : nil, window: window, delivery: try delivery.change())
        let reply = try connection.call(Reminders.Add.self, parameters)
        if json { return try out.json(reply.reminder) }
        let added = reply.reminder
        let name = added.delivery.person.named(nameWithDose(added.name, added.delivery.medication.dose, added.delivery.medication.unit))
        out.print(out.words(StatusMessages.added, added.id, name, scheduleText(added)))
        if let next = added.next { out.print(out.words(StatusMessages.nextAt, out.time(next.local))) }
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
    @Option(help: ArgumentHelp("A new time zone of its own, or local (or \"\") to follow remindd's zone.", valueName: "zone"), completion: .custom(Completions.zones))
    var tz: String?
    @Option(help: ArgumentHelp("A new window (2h, 90m; up to 24h); \"\" for the default.", valueName: "length")) var window: String?
    @Flag(help: "Let --at give fewer times than the reminder has (the others are dropped).") var replaceTimes = false
    @OptionGroup var delivery: DeliveryOptions
    @Flag(help: "Print the reminder as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let changesRule = try rule.wireSpec() != RuleSpec()
        guard changesRule || name != nil || tz != nil || window != nil || !delivery.isEmpty else {
            throw CLIError("nothing to change: give --name, --tz, --window, --repeat, --exec, --urgency or rule flags such as --at 08:00")
        }
        try checkWindow(window)
        try delivery.validate(adding: false)
        var zoneNote: String?
        let reply = try connection.withConnection { daemon in
            var spec: RuleSpec?
            // `--tz local` is "": follow remindd's zone.
            var timeZone = tz == AddCommand.local ? "" : tz
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
                var readIn = try RuleOptions.zone(named: timeZone ?? current.effectiveTimeZone)
                if tz == nil, current.timeZone == nil, rule.at != nil || rule.start != nil, !user.keepsSameTime(as: readIn) {
                    (readIn, timeZone) = (user, user.identifier)
                    zoneNote = "Its times are in \(user.identifier), your zone (remindd follows \(current.effectiveTimeZone)); --tz names another."
                } else if rule.at != nil, !user.keepsSameTime(as: readIn) {
                    zoneNote = "Its times are read in \(readIn.identifier), the reminder's zone (yours is \(user.identifier))."
                }
                // A one-shot given from now goes as that: the daemon makes it a date-time by its clock.
                let updated = current.rule.updated(by: try rule.wireSpec())
                do throws(RuleSpecError) {
                    RuleOptions.noteStart(of: try updated.resolvingOnceFromNow(now: CommandContext.current.now(), in: readIn).spec.makeRule())
                } catch { throw CLIError(error.message) }
                spec = updated
            }
            return try daemon.call(Reminders.Update.self, Reminders.Update.Parameters(
                reminder: reminder, name: name, rule: spec, timeZone: timeZone, window: window, delivery: try delivery.change()))
        }
        if json { return try out.json(reply.reminder) }
        out.print(describe(reply.reminder))
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
        if json { return try out.json(JSONValue.array(try connection.allReminders(as: JSONValue.self))) }
        let reminders = try connection.allReminders()
        if reminders.isEmpty {
            out.print(out.words(CommandMessages.noReminders))
            return
        }
        out.table(
            out.headings(CommandMessages.id, CommandMessages.name, CommandMessages.schedule, CommandMessages.zone, CommandMessages.streak, CommandMessages.next),
            reminders.map { r -> [String] in
                let name = nameWithDose(r.name, r.delivery.medication.dose, r.delivery.medication.unit) + (r.delivery.calendar.map { " [\($0)]" } ?? "")
                let shown = { (next: FiringValue) in next.snoozed == true ? out.words(CommandMessages.snoozedMark, out.time(next.local)) : out.time(next.local) }
                let next = r.enabled ? (r.next.map(shown) ?? "-") : out.words(CommandMessages.disabled)
                return [String(r.id), name, scheduleText(r), r.effectiveTimeZone, String(r.streak), next]
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
        let reply = try connection.call(Reminders.Get.self, .init(reminder: reminder))
        if json { return try out.json(ReminderWithLadder(reminder: reply.reminder, ladder: reply.ladder)) }
        var lines = describe(reply.reminder, followed: reply.reminder.timeZone == nil ? zoneReason(try connection.call(Reminders.Status.self)) : nil)
        if reply.reminder.rule.asNeeded != true { lines.append(ShownLine(CommandMessages.ladderLabel, out.words(CommandMessages.ladderHeading))) }
        out.print(lines)
        if reply.reminder.rule.asNeeded != true {
            for step in reply.ladder { out.print("  " + Self.line(step)) }
        }
    }

    /// `+10m      repeated every 10m, up to 3 times: critical, alarm-clock-elapsed, said aloud`.
    static func line(_ step: AnnouncementLadder.Step) -> String {
        let words = out.words
        let when =
            step.afterSeconds.map { $0 == 0 ? words(CommandMessages.atItsTime) : ($0 < 0 ? "-" : "+") + WindowLength.text(abs($0)) }
            ?? words(CommandMessages.atTheNextOne)
        let every = WindowLength.text(step.everySeconds ?? 0)
        let what =
            switch step.what {
            case "before": words(CommandMessages.aNotice)
            case "announced": words(CommandMessages.announced)
            case "repeated":
                step.times.map { words(CommandMessages.repeatedUpTo, count: $0, every, $0) } ?? words(CommandMessages.repeatedUntilTaken, every)
            case "missed": words(step.afterSeconds == nil ? CommandMessages.missedOrDayEnd : CommandMessages.missedIfNothingLogged)
            case "escalated": words(CommandMessages.escalatedIfNotTaken)
            default: step.what
            }
        var said = [
            step.urgency.map { words(CommandMessages.urgencyLevel, $0) }, step.sound.map { words(CommandMessages.soundNamed, $0) },
            step.spoken ? words(CommandMessages.saidAloud) : nil,
        ].compactMap { $0 }
        if step.what == "missed" { said = [words(CommandMessages.aMissedNote)] }
        said += step.commands.map { words(CommandMessages.runs, $0) }
        return when.padded(toDisplayWidth: max(when.displayWidth + 1, 14)) + what + (said.isEmpty ? "" : ": " + said.joined(separator: ", "))
    }
}

/// `show --json`: the reminder's fields and its ladder.
private struct ReminderWithLadder: Encodable {
    let reminder: ReminderValue
    let ladder: [AnnouncementLadder.Step]

    private enum Key: String, CodingKey { case ladder }

    func encode(to encoder: any Encoder) throws {
        try reminder.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(ladder, forKey: .ladder)
    }
}
