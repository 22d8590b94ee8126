/// How a reminder's occurrences reach the person beyond the journal: repeats until acknowledged, a command
/// run at each announcement, the urgency of its desktop notification, and the dose each announcement asks for.
/// The default: none of them.
public struct Delivery: Sendable, Hashable, Codable {
    /// Announce a due occurrence again until it is taken or skipped (nil: announce once).
    public var repeatPlan: RepeatPlan?
    /// A command run (without a shell) at each announcement: the program and its arguments.
    public var command: [String]?
    /// Ask for critical urgency in desktop notifications (they stay until acted on).
    public var critical: Bool
    /// The name of the read-only calendar whose alarm this is (nil: the user's own reminder). A calendar's
    /// alarm is dismissed or snoozed, never "taken", and is never recorded missed.
    public var calendar: String?
    /// How much one dose is (a medication's reminder): said in every announcement, the amount a log records.
    /// In a tapering course, the first step's (``dose(on:)`` gives each day's).
    public var dose: Dose?
    /// A tapering course: the dose of each day (`--steps`); the reminder ends after its last day.
    public var steps: DoseSteps?
    /// A command run (without a shell) when an occurrence is missed: a caregiver told.
    public var escalateCommand: [String]?
    /// Run ``escalateCommand`` this long after an occurrence's time when it is still not taken or skipped,
    /// instead of when it is missed (nil: when missed). Once per occurrence either way.
    public var escalateAfterSeconds: Int64?
    /// Give the low-stock notice when the stock covers fewer than this many days (nil: ``defaultRefillDays``).
    public var refillDays: Int?
    /// How often a dose may be logged (a medication taken as needed): a log that breaks them is refused
    /// unless forced.
    public var limits = DoseLimits()

    /// The days of stock below which the low-stock notice is given, unless a reminder says otherwise.
    public static let defaultRefillDays = 7
    /// What `refillDays` may be.
    public static let refillDayRange = 1...365

    public init(repeatPlan: RepeatPlan? = nil, command: [String]? = nil, critical: Bool = false, calendar: String? = nil, dose: Dose? = nil) {
        self.repeatPlan = repeatPlan
        self.command = command
        self.critical = critical
        self.calendar = calendar
        self.dose = dose
    }

    /// The dose of an occurrence on a local date: its step's in a tapering course, else ``dose``.
    public func dose(on date: LocalDate) -> Dose? {
        steps?.dose(on: date) ?? dose
    }

    /// Nothing beyond the journal.
    public var isDefault: Bool { self == Delivery() }

    /// What is wrong with settings that did not come through `Add` or `Update` (a restored or hand-edited
    /// row), with the same limits; nil when nothing is.
    public var problem: String? {
        if let plan = repeatPlan {
            guard WindowLength.range.contains(plan.intervalSeconds) else { return "repeat interval \(plan.intervalSeconds) s is not \(RepeatPlan.forms)" }
            if let maximum = plan.maximum, !RepeatPlan.maximums.contains(maximum) { return "repeat maximum \(maximum) is not 1 to 100" }
        }
        if let command, command.isEmpty || command.contains(where: { $0.isEmpty || $0.contains("\0") }) {
            return "the command is empty or has an empty or NUL-holding word"
        }
        if let calendar, calendar.isEmpty || calendar.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "the calendar's name is empty or holds control characters"
        }
        if let escalateCommand, escalateCommand.isEmpty || escalateCommand.contains(where: { $0.isEmpty || $0.contains("\0") }) {
            return "the escalation command is empty or has an empty or NUL-holding word"
        }
        if let escalateAfterSeconds {
            guard escalateCommand != nil else { return "an escalation delay without an escalation command" }
            guard WindowLength.range.contains(escalateAfterSeconds) else { return "escalation delay \(escalateAfterSeconds) s is not 1 s to 24 h" }
        }
        if let refillDays, !Self.refillDayRange.contains(refillDays) { return "refill days \(refillDays) is not 1 to 365" }
        if let seconds = limits.minIntervalSeconds, !DoseLimits.minIntervalRange.contains(seconds) { return "minimum interval \(seconds) s is not 1 minute to 7 days" }
        if let maximum = limits.maxPerDay, !DoseLimits.maxPerDayRange.contains(maximum) { return "most doses a day \(maximum) is not 1 to 100" }
        return dose?.problem
    }

    private enum CodingKeys: String, CodingKey { case repeatSeconds, repeatMax, command, critical, calendar, doseThousandths, doseUnit, refillDays, escalateCommand, escalateAfterSeconds
        case minIntervalSeconds, maxPerDay, steps
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let seconds = try container.decodeIfPresent(Int64.self, forKey: .repeatSeconds) {
            repeatPlan = RepeatPlan(intervalSeconds: seconds, maximum: try container.decodeIfPresent(Int.self, forKey: .repeatMax))
        }
        command = try container.decodeIfPresent([String].self, forKey: .command)
        critical = try container.decodeIfPresent(Bool.self, forKey: .critical) ?? false
        calendar = try container.decodeIfPresent(String.self, forKey: .calendar)
        switch (try container.decodeIfPresent(Int64.self, forKey: .doseThousandths), try container.decodeIfPresent(String.self, forKey: .doseUnit)) {
        case (let thousandths?, let unit?): dose = Dose(thousandths: thousandths, unit: unit)
        case (nil, nil): dose = nil
        default: throw DecodingError.dataCorruptedError(forKey: .doseUnit, in: container, debugDescription: "a dose needs its amount and its unit")
        }
        refillDays = try container.decodeIfPresent(Int.self, forKey: .refillDays)
        escalateCommand = try container.decodeIfPresent([String].self, forKey: .escalateCommand)
        escalateAfterSeconds = try container.decodeIfPresent(Int64.self, forKey: .escalateAfterSeconds)
        limits = DoseLimits(
            minIntervalSeconds: try container.decodeIfPresent(Int64.self, forKey: .minIntervalSeconds),
            maxPerDay: try container.decodeIfPresent(Int.self, forKey: .maxPerDay))
        if let text = try container.decodeIfPresent(String.self, forKey: .steps) {
            do { steps = try DoseSteps(parsing: text, unit: nil) } catch {
                throw DecodingError.dataCorruptedError(forKey: .steps, in: container, debugDescription: error.message)
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(repeatPlan?.intervalSeconds, forKey: .repeatSeconds)
        try container.encodeIfPresent(repeatPlan?.maximum, forKey: .repeatMax)
        try container.encodeIfPresent(command, forKey: .command)
        if critical { try container.encode(critical, forKey: .critical) }
        try container.encodeIfPresent(calendar, forKey: .calendar)
        try container.encodeIfPresent(dose?.thousandths, forKey: .doseThousandths)
        try container.encodeIfPresent(dose?.unit, forKey: .doseUnit)
        try container.encodeIfPresent(refillDays, forKey: .refillDays)
        try container.encodeIfPresent(escalateCommand, forKey: .escalateCommand)
        try container.encodeIfPresent(escalateAfterSeconds, forKey: .escalateAfterSeconds)
        try container.encodeIfPresent(limits.minIntervalSeconds, forKey: .minIntervalSeconds)
        try container.encodeIfPresent(limits.maxPerDay, forKey: .maxPerDay)
        try container.encodeIfPresent(steps?.text, forKey: .steps)
    }
}

/// Re-announcing a due occurrence: every `intervalSeconds` after the last announcement, at most `maximum`
/// times (nil: until its window ends), and never once it is taken or skipped.
public struct RepeatPlan: Sendable, Hashable {
    /// The most repeats one occurrence can ask for.
    public static let maximums: ClosedRange<Int> = 1...100
    /// What an interval may be, for error messages.
    public static let forms = "a length of 1s to 24h such as 10m, 1h or 1h30m"

    public var intervalSeconds: Int64
    public var maximum: Int?

    public init(intervalSeconds: Int64, maximum: Int? = nil) {
        self.intervalSeconds = intervalSeconds
        self.maximum = maximum
    }

    /// The interval `text` stands for (`10m`, `1h30m`), or nil when it is not 1 second to 24 hours (the
    /// lengths a window takes).
    public static func interval(_ text: String) -> Int64? {
        WindowLength.seconds(text)
    }

    /// When to announce an occurrence again: an interval after its last announcement, unless `sent` repeats
    /// reached the maximum or its window ends first (a repeat at the window's end would announce a missed
    /// occurrence).
    public func next(after lastAnnounced: Instant, sent: Int, windowEnd: Instant) -> Instant? {
        if let maximum, sent >= maximum { return nil }
        let next = lastAnnounced.adding(seconds: intervalSeconds)
        return next < windowEnd ? next : nil
    }
}
