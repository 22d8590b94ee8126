import ArgumentParser
import FoundationEssentials
import ReminderCore
import Translation

// Each part of a reminder (``ReminderPart``) as add and update take it: its options, the change they make, and
// the lines `show` prints of it. The checks are the part's own (``Delivery/check(_:adding:)``), run before
// connecting.

/// How a reminder reaches the person beyond the journal: each part's options, as add and update share them.
struct DeliveryOptions: ParsableArguments {
    @OptionGroup var repeating: RepeatOptions
    @OptionGroup var hook: HookOptions
    @OptionGroup var notification: NotificationOptions
    @OptionGroup var medication: MedicationOptions
    @OptionGroup var escalation: EscalationOptions
    @OptionGroup var person: PersonOptions

    /// No option given.
    var isEmpty: Bool {
        repeating.change == .init() && hook.exec == nil && notification.change == .init() && medication.change == .init()
            && escalation.exec == nil && escalation.after == nil && person.person == nil
    }

    /// What the options change (commands split into their words).
    func change() throws -> Delivery.Change {
        Delivery.Change(
            repeating: repeating.change, hook: try hook.change(), notification: notification.change, medication: medication.change,
            escalation: try escalation.change(), person: person.change)
    }

    /// Refuses what the daemon would refuse, before connecting (the programs' paths are checked by the daemon,
    /// which runs them).
    func validate(adding: Bool) throws {
        do { try Delivery.check(try change(), adding: adding) } catch let error as PartError { throw CLIError(error.message) }
    }

    /// The lines `show` prints of each part.
    static func describe(_ delivery: Delivery.Shown) -> [ShownLine] {
        RepeatOptions.describe(delivery.repeating) + HookOptions.describe(delivery.hook) + EscalationOptions.describe(delivery.escalation)
            + NotificationOptions.describe(delivery.notification) + MedicationOptions.describe(delivery.medication)
            + describe(delivery.pause) + PersonOptions.describe(delivery.person)
    }

    /// The pauses running and ahead (``PauseSettings``; set by `remindctl pause`, not by an option).
    private static func describe(_ part: PauseSettings.Shown) -> [ShownLine] {
        let now = CommandContext.current.now()
        return (part.pauses ?? []).filter { (Output.instant($0.until) ?? now) > now }.map { pause in
            let span = out.words(CommandMessages.fromUntil, out.time(pause.from), out.time(pause.until))
            return ShownLine(CommandMessages.paused, pause.reason.map { out.words(CommandMessages.withReason, span, $0) } ?? span)
        }
    }

    /// A command's words, or nil when the option was not given ([] for "").
    fileprivate static func words(_ text: String?, option: String) throws -> [String]? {
        guard let text else { return nil }
        do { return try ShellWords.split(text) } catch { throw CLIError("invalid \(option): \(error)") }
    }
}

/// `--repeat`, `--repeat-max` (``RepeatSettings``).
struct RepeatOptions: ParsableArguments {
    @Option(name: .customLong("repeat"), help: ArgumentHelp(
        "Announce a due occurrence again every LENGTH (10m, 1h; 1s to 24h) until it is taken or skipped, or its window ends. \"\" (update): announce once.",
        valueName: "length")) var interval: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("At most this many repeats (1-100; 0 with update: until the window ends).", valueName: "n"))
    var repeatMax: Int?

    var change: RepeatSettings.Change { .init(repeat: interval, repeatMax: repeatMax) }

    static func describe(_ part: RepeatSettings) -> [ShownLine] {
        guard let plan = part.plan else { return [] }
        let every = WindowLength.text(plan.intervalSeconds)
        let text = plan.maximum.map { out.words(CommandMessages.repeatEveryAtMost, every, $0) } ?? out.words(CommandMessages.repeatEvery, every)
        return [ShownLine(CommandMessages.repeatLabel, text)]
    }
}

/// `--exec` (``HookSettings``).
struct HookOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A command to run at each announcement, without a shell: an absolute path and arguments, quoted as in a shell. \"\" (update): none.",
        valueName: "command")) var exec: String?

    func change() throws -> HookSettings.Change { .init(command: try DeliveryOptions.words(exec, option: "--exec")) }

    static func describe(_ part: HookSettings) -> [ShownLine] {
        part.command.map { [ShownLine(CommandMessages.execLabel, ShellWords.join($0))] } ?? []
    }
}

/// `--urgency`, `--snooze`, `--sound`, `--quiet-hours`, `--before`, `--speak` (``NotificationSettings``).
struct NotificationOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "normal, critical (the desktop notification stays until acted on) or auto (the default: critical for a reminder with a dose).",
        valueName: "level"),
            completion: .list(NotificationSettings.Urgency.allCases.map(\.rawValue) + ["auto"])) var urgency: String?
    @Option(help: ArgumentHelp(
        "How long the notification's Snooze button puts it off (5m, 1h; whole minutes, 1m to 24h; default 10m). \"\" (update): the default.",
        valueName: "length")) var snooze: String?
    @Option(help: ArgumentHelp(
        "The sound each announcement plays: a sound theme's name (alarm-clock-elapsed, bell), a sound file (.oga, .ogg, .wav, .flac) or none. Default: dose-sound for a dose, reminder-sound for the rest (config.toml). \"\" (update): the default.",
        valueName: "sound"), completion: .file(extensions: ["oga", "ogg", "wav", "flac"])) var sound: String?
    @Option(help: ArgumentHelp(
        "During config.toml's quiet-hours: ignore them (announced as at any time) or respect them (no sound, low urgency). Default: respect for a reminder without a dose, ignore for a dose. \"\" (update): the default.",
        valueName: "choice"), completion: .list(NotificationSettings.QuietHoursChoice.allCases.map(\.rawValue))) var quietHours: String?
    @Option(help: ArgumentHelp(
        "A notice that long before each occurrence (\"Metformin in 15m\"; low urgency, not an occurrence): 15m, or up to 4 such as 15m,1h (whole minutes, 1m to 7d, shorter than the time from the occurrence before). \"\" (update): none.",
        valueName: "lengths")) var before: String?
    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "Say each announcement aloud through speech-dispatcher (\"Time for Metformin, 500 milligrams\"), or not; without either, as config.toml's speak says (none by default)."))
    var speak: Bool?

    /// The change, a relative sound file made absolute from the current folder (the daemon's is another).
    var change: NotificationSettings.Change {
        .init(
            urgency: urgency, snooze: snooze, sound: sound.map { Self.absolute($0, in: FileManager.default.currentDirectoryPath) }, quietHours: quietHours,
            before: before, speak: speak)
    }

    /// `text` as an absolute path when it is a relative one (`./alarm.oga`, `sounds/alarm.oga`, `~/alarm.oga`).
    static func absolute(_ text: String, in folder: String) -> String {
        if text.hasPrefix("~/") { return homeDirectory() + text.dropFirst() }
        guard !text.hasPrefix("/"), text.contains("/") || Sound.fileSuffixes.contains(where: { text.hasSuffix("." + $0) }) else { return text }
        return URL(fileURLWithPath: text, relativeTo: URL(fileURLWithPath: folder, isDirectory: true)).standardizedFileURL.path
    }

    static func describe(_ part: NotificationSettings.Shown) -> [ShownLine] {
        let words = out.words
        var lines: [ShownLine] = []
        if part.urgency != "normal" { lines.append(ShownLine(CommandMessages.urgencyLabel, part.urgency)) }
        if part.snoozeMinutes != NotificationSettings.defaultSnoozeMinutes {
            lines.append(ShownLine(CommandMessages.snoozeLabel, words(CommandMessages.snoozeFromButton, WindowLength.text(Int64(part.snoozeMinutes) * 60))))
        }
        if let sound = part.sound { lines.append(ShownLine(CommandMessages.soundLabel, sound)) }
        if let quiet = part.quietHours {
            lines.append(ShownLine(CommandMessages.quietLabel, words(quiet == "ignore" ? CommandMessages.ringsThroughQuiet : CommandMessages.quietDuringQuiet)))
        }
        if let speak = part.speak { lines.append(ShownLine(CommandMessages.speakLabel, words(speak ? CommandMessages.saidAloud : CommandMessages.neverSaidAloud))) }
        if let before = part.beforeMinutes, let lengths = before.map({ WindowLength.text(Int64($0) * 60) }).reduce(nil, { (said: String?, length) in
            said.map { words(CommandMessages.and, $0, length) } ?? length
        }) {
            lines.append(ShownLine(CommandMessages.beforeLabel, words(CommandMessages.noticeBefore, lengths)))
        }
        return lines
    }
}

/// `--dose`, `--unit`, `--steps`, `--min-interval`, `--max-per-day`, `--apart-from`, `--refill-days`, `--order-days` (``MedicationSettings``).
struct MedicationOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "How much one dose is: 2 (with --unit), 0.5, 500mg. Said in every announcement; what a log records. \"\" (update): none.",
        valueName: "amount")) var dose: String?
    @Option(help: ArgumentHelp("The dose's unit: tablet, capsule, drop, puff, spray, patch, mg, mcg, g, ml, IU ...", valueName: "unit"),
            completion: .list(Dose.units.map(\.name))) var unit: String?
    @Option(help: ArgumentHelp(
        "What one tablet, capsule or puff holds: 20mg (said with the dose: 1 tablet of 20 mg; a stock may be given in it). \"\" (update): none.",
        valueName: "amount")) var strength: String?
    @Option(help: ArgumentHelp(
        "A tapering course: each step's dose and last day, e.g. \"40mg until 2026-12-01; 30mg until 2026-12-08\"; the reminder ends after the last. \"\" (update): none.",
        valueName: "steps")) var steps: String?
    @Option(help: ArgumentHelp(
        "The least time between two doses (6h; 1m to 7d): a log sooner is refused unless --force. \"\" (update): none.",
        valueName: "length")) var minInterval: String?
    @Option(help: ArgumentHelp(
        "The most doses in any 24 hours (1-100; a rolling day, not the calendar day): one more is refused unless --force. 0 (update): none.",
        valueName: "n")) var maxPerDay: Int?
    @Option(name: .customLong("apart-from"), parsing: .upToNextOption, help: ArgumentHelp(
        "Keep it apart from another medicine, both ways: --apart-from Iron 4h (1m to 24h; again for another; 0 with update: no gap). A dose closer is refused unless --force; when both are due, the later is announced at the gap's end.",
        valueName: "name> <gap")) var apartFrom: [String] = []
    @Option(help: ArgumentHelp(
        "Say when the stock ('remindctl stock') covers fewer than this many days (1-365; default 7; 0 with update: the default).",
        valueName: "days")) var refillDays: Int?
    @Option(help: ArgumentHelp(
        "Say to order more this many days before the stock runs out (1-365; default the refill days; 0 with update: that).",
        valueName: "days")) var orderDays: Int?

    var change: MedicationSettings.Change {
        let pairs = stride(from: 0, to: apartFrom.count - 1, by: 2).map { MedicationSettings.ApartFrom(reminder: apartFrom[$0], gap: apartFrom[$0 + 1]) }
        return .init(
            dose: typedAmount(dose), unit: typedAmount(unit), refillDays: refillDays, minInterval: minInterval, maxPerDay: maxPerDay, steps: steps,
            apartFrom: pairs.isEmpty ? nil : pairs, orderDays: orderDays, strength: strength)
    }

    func validate() throws {
        guard apartFrom.count % 2 == 0 else { throw CLIError(out.words(CommandMessages.apartFromPairs)) }
    }

    static func describe(_ part: MedicationSettings.Shown) -> [ShownLine] {
        var lines: [ShownLine] = []
        if part.steps == nil, let dose = doseText(part.dose, part.unit) {
            let strength = doseText(part.strength, part.strengthUnit)
            lines.append(ShownLine(CommandMessages.doseLabel, strength.map { out.words(CommandMessages.doseOfStrength, dose, $0) } ?? dose))
        }
        if let limits = limitsText(minIntervalSeconds: part.minIntervalSeconds, maxPerDay: part.maxPerDay) {
            lines.append(ShownLine(CommandMessages.limitsLabel, limits))
        }
        for (index, gap) in (part.apart ?? []).enumerated() {
            lines.append(ShownLine(index == 0 ? CommandMessages.apartLabel : nil, out.words(CommandMessages.apartFromGap, gap.reminder, WindowLength.text(gap.seconds))))
        }
        for (index, step) in (part.steps ?? []).enumerated() {
            let until = out.words(CommandMessages.stepUntil, doseText(step.dose, step.unit) ?? "", step.through)
            let text = (step.current ? "▸ " : "  ") + (step.current ? out.words(CommandMessages.today, until) : until)
            lines.append(ShownLine(index == 0 ? CommandMessages.stepsLabel : nil, text))
        }
        return lines
    }
}

/// `--for` (``PersonSettings``).
struct PersonOptions: ParsableArguments {
    @Option(name: .customLong("for"), help: ArgumentHelp(
        "Whom it is for (default: you): --for Anna. today, next, history, the report and the notification name them; report --for Anna is theirs alone. \"\" (update): you.",
        valueName: "name")) var person: String?

    var change: PersonSettings.Change { .init(person: person) }

    static func describe(_ part: PersonSettings) -> [ShownLine] {
        part.person.map { [ShownLine(CommandMessages.forLabel, $0)] } ?? []
    }
}

/// `--escalate-exec`, `--escalate-after` (``EscalationSettings``).
struct EscalationOptions: ParsableArguments {
    @Option(name: .customLong("escalate-exec"), help: ArgumentHelp(
        "A command to run, without a shell, when an occurrence is missed (tell a caregiver), quoted as in a shell. \"\" (update): none.",
        valueName: "command")) var exec: String?
    @Option(name: .customLong("escalate-after"), help: ArgumentHelp(
        "Run --escalate-exec this long (10m, 1h) after an occurrence's time when it is not yet taken or skipped, not when it is missed. \"\" (update): when missed.",
        valueName: "length")) var after: String?

    func change() throws -> EscalationSettings.Change {
        .init(escalateCommand: try DeliveryOptions.words(exec, option: "--escalate-exec"), escalateAfter: after)
    }

    static func describe(_ part: EscalationSettings) -> [ShownLine] {
        guard let command = part.command.map(ShellWords.join) else { return [] }
        let text =
            part.afterSeconds.map { out.words(CommandMessages.escalateWhenLate, command, WindowLength.text($0)) }
            ?? out.words(CommandMessages.escalateWhenMissed, command)
        return [ShownLine(CommandMessages.escalateLabel, text)]
    }
}
