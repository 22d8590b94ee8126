/// A medication's settings on its reminder: the dose each announcement asks for, a tapering course, how often a
/// dose may be taken, the medicines it is kept apart from, and when the stock is low (`--dose`, `--unit`, `--steps`,
/// `--min-interval`, `--max-per-day`, `--apart-from`, `--refill-days`).
public struct MedicationSettings: ReminderPart {
    /// How much one dose is: said in every announcement, the amount a log records. In a tapering course, the
    /// first step's (``dose(on:)`` gives each day's).
    public var dose: Dose?
    /// A tapering course: the dose of each day; the reminder ends after its last day.
    public var steps: DoseSteps?
    /// What one of the dose's units holds (`--strength 20mg`: a 20 mg tablet), for a dose counted in tablets,
    /// capsules, puffs ...: said with the dose ("1 tablet of 20 mg"); a stock may be given in it (600mg: 30 tablets).
    public var strength: Dose?
    /// How often a dose may be logged (a medication taken as needed): a log that breaks them is refused unless
    /// forced.
    public var limits = DoseLimits()
    /// The medicines kept apart from it (`--apart-from Iron 4h`), each of which holds the same gap back.
    public var apart: [DoseGap] = []
    /// Give the low-stock notice when the stock covers fewer than this many days (nil: ``defaultRefillDays``).
    public var refillDays: Int?
    /// How many days before the stock runs out more must be ordered (a pharmacy's delay; nil: the refill days).
    public var orderDays: Int?

    /// The days of stock below which the low-stock notice is given, unless a reminder says otherwise.
    public static let defaultRefillDays = 7
    /// What `refillDays` may be.
    public static let refillDayRange = 1...365

    public init() {}

    public init(dose: Dose?) { self.dose = dose }

    /// The dose of an occurrence on a local date: its step's in a tapering course, else ``dose``.
    public func dose(on date: LocalDate) -> Dose? {
        steps?.dose(on: date) ?? dose
    }

    /// What `Add` and `Update` take: `dose` (`2`, `500mg`, `2 tablets`; "" for none) with `unit` when it names
    /// none, `steps` (a course; "" for none), `minInterval` (`6h`; "" for none), `maxPerDay` (0 for none),
    /// `refillDays` (0 for the default), `apartFrom` (each a reminder and a gap, `4h`; "" removes that one's).
    public struct Change: Codable, Hashable, Sendable {
        public var dose: String?
        public var unit: String?
        public var refillDays: Int?
        public var minInterval: String?
        public var maxPerDay: Int?
        public var steps: String?
        public var apartFrom: [ApartFrom]?
        public var orderDays: Int?
        public var strength: String?

        public init(
            dose: String? = nil, unit: String? = nil, refillDays: Int? = nil, minInterval: String? = nil, maxPerDay: Int? = nil, steps: String? = nil,
            apartFrom: [ApartFrom]? = nil, orderDays: Int? = nil, strength: String? = nil
        ) {
            (self.dose, self.unit, self.refillDays, self.minInterval, self.maxPerDay, self.steps) = (dose, unit, refillDays, minInterval, maxPerDay, steps)
            (self.apartFrom, self.orderDays, self.strength) = (apartFrom, orderDays, strength)
        }
    }

    /// One `--apart-from NAME LENGTH`: the other reminder and the gap ("" or "0": no gap from it).
    public struct ApartFrom: Codable, Hashable, Sendable {
        public var reminder: String
        public var gap: String

        public init(reminder: String, gap: String) { (self.reminder, self.gap) = (reminder, gap) }

        /// The gap's seconds, nil for "no gap".
        func seconds() throws(PartError) -> Int64? {
            guard !["", "0"].contains(gap) else { return nil }
            guard let seconds = WindowLength.seconds(gap, in: DoseGap.range) else {
                throw PartError("apartFrom", "invalid --apart-from \(quotedInput(reminder)) \(quotedInput(gap)): write a gap of 1m to 24h such as 2h or 4h (0 with update: none)")
            }
            return seconds
        }
    }

    /// As a reply shows it: the dose as a number with its unit, the refill days in effect (with a dose), the
    /// limits, and the course's steps with today's marked.
    public struct Shown: Codable, Hashable, Sendable {
        public var dose: Double?
        public var unit: String?
        public var refillDays: Int?
        /// With a dose: the order days in effect.
        public var orderDays: Int?
        public var minIntervalSeconds: Int64?
        public var maxPerDay: Int?
        public var steps: [DoseStepValue]?
        /// The medicines it is kept apart from, and how long.
        public var apart: [DoseGap]?
        /// What one unit of the dose holds (`20` `mg` a tablet).
        public var strength: Double?
        public var strengthUnit: String?
    }

    public static func check(_ change: Change, adding: Bool) throws(PartError) {
        if let steps = change.steps {
            guard change.dose == nil else { throw PartError("steps", "--dose and --steps both give the dose: give --steps alone (each step names its dose)") }
            // On update, amounts without a unit take the current dose's: the daemon reads them.
            if !steps.isEmpty, adding || change.unit != nil {
                do { _ = try DoseSteps(parsing: steps, unit: change.unit) } catch { throw PartError("steps", "invalid --steps: \(error.message)") }
            }
        } else if let dose = change.dose, !dose.isEmpty {
            do { _ = try Dose(amount: dose, unit: change.unit) } catch { throw PartError("dose", error.message) }
        } else if let unit = change.unit, !unit.isEmpty, change.dose?.isEmpty == true || adding {
            throw Self.unitAlone(unit)
        }
        if let text = change.minInterval, !text.isEmpty, WindowLength.seconds(text, in: DoseLimits.minIntervalRange) == nil {
            throw PartError("minInterval", "invalid --min-interval \(quotedInput(text)): write a length of 1m to 7d such as 4h, 6h or 1d")
        }
        if let maximum = change.maxPerDay, maximum != 0, !DoseLimits.maxPerDayRange.contains(maximum) {
            throw PartError("maxPerDay", "invalid --max-per-day \(maximum): give 1 to 100 doses (0 with update: no maximum)")
        }
        if let days = change.refillDays, days != 0, !refillDayRange.contains(days) {
            throw PartError("refillDays", "invalid --refill-days \(days): give 1 to 365 days of stock (0 with update: the default, 7)")
        }
        if let days = change.orderDays, days != 0, !refillDayRange.contains(days) {
            throw PartError("orderDays", "invalid --order-days \(days): give 1 to 365 days before the stock runs out (0 with update: the refill days)")
        }
        if let text = change.strength, !text.isEmpty { _ = try Self.strength(text) }
        for apart in change.apartFrom ?? [] {
            guard !apart.reminder.trimmingSpaces.isEmpty else { throw PartError("apartFrom", "--apart-from needs the other medicine's name, e.g. --apart-from Iron 4h") }
            _ = try apart.seconds()
        }
    }

    private static func unitAlone(_ unit: String) -> PartError {
        PartError("unit", "a unit without a dose: give --dose too, e.g. --dose 2 --unit \(unit)")
    }

    public func applying(_ change: Change, adding: Bool) throws(PartError) -> Self {
        try Self.check(change, adding: adding)
        var changed = self
        if steps != nil, change.dose != nil || change.unit != nil, change.steps == nil {
            throw PartError("dose", "this reminder tapers (--steps): give its doses with --steps, or end the course with --steps \"\" first")
        }
        if let text = change.steps, !text.isEmpty {
            do {
                let course = try DoseSteps(parsing: text, unit: change.unit ?? dose?.unit)
                (changed.steps, changed.dose) = (course, course.steps[0].dose)
            } catch {
                throw PartError("steps", "invalid --steps: \(error.message)")
            }
        } else {
            if change.steps?.isEmpty == true { changed.steps = nil }
            if change.dose?.isEmpty == true {
                changed.dose = nil
            } else if change.dose != nil || change.unit != nil {
                // A unit alone changes the unit of the dose there is.
                guard let amount = change.dose ?? dose?.amountText else { throw Self.unitAlone(change.unit ?? "tablet") }
                do { changed.dose = try Dose(amount: amount, unit: change.unit ?? (change.dose == nil ? dose?.unit : nil)) } catch {
                    throw PartError(change.dose == nil ? "unit" : "dose", error.message)
                }
            }
        }
        if let text = change.minInterval { changed.limits.minIntervalSeconds = WindowLength.seconds(text, in: DoseLimits.minIntervalRange) }
        if let maximum = change.maxPerDay { changed.limits.maxPerDay = maximum == 0 ? nil : maximum }
        if let days = change.refillDays { changed.refillDays = days == 0 ? nil : days }
        if let days = change.orderDays { changed.orderDays = days == 0 ? nil : days }
        if let text = change.strength { changed.strength = text.isEmpty ? nil : try Self.strength(text) }
        if changed.strength != nil, changed.dose == nil {
            throw PartError("strength", "--strength needs a dose it is the strength of: give --dose 1 --unit tablet too")
        }
        if let strength = changed.strength, let unit = changed.dose?.unit, !Dose.isCounted(unit) {
            throw PartError("strength", """
                --strength is what one tablet, capsule or puff holds: give the dose in those (--dose 1 --unit tablet --strength \(strength.amountText)\(strength.unit)), \
                or --strength "" for none
                """)
        }
        for apart in change.apartFrom ?? [] {
            changed.apart = DoseGaps.reciprocal(changed.apart, of: apart.reminder.trimmingSpaces, formerly: apart.reminder.trimmingSpaces, seconds: try apart.seconds())
        }
        guard changed.apart.count <= DoseGap.maximumCount else {
            throw PartError("apartFrom", "a medicine is kept apart from at most \(DoseGap.maximumCount) others: remove one first (--apart-from NAME 0)")
        }
        return changed
    }

    public var problem: String? {
        if let refillDays, !Self.refillDayRange.contains(refillDays) { return "refill days \(refillDays) is not 1 to 365" }
        if let orderDays, !Self.refillDayRange.contains(orderDays) { return "order days \(orderDays) is not 1 to 365" }
        if let seconds = limits.minIntervalSeconds, !DoseLimits.minIntervalRange.contains(seconds) { return "minimum interval \(seconds) s is not 1 minute to 7 days" }
        if let maximum = limits.maxPerDay, !DoseLimits.maxPerDayRange.contains(maximum) { return "most doses a day \(maximum) is not 1 to 100" }
        if apart.count > DoseGap.maximumCount { return "kept apart from \(apart.count) medicines, more than \(DoseGap.maximumCount)" }
        if let gap = apart.first(where: { !DoseGap.range.contains($0.seconds) || $0.reminder.isEmpty }) {
            return "the gap from '\(gap.reminder)' of \(gap.seconds) s is not 1 minute to 24 hours from a named medicine"
        }
        if let problem = strength?.problem { return "strength: \(problem)" }
        return dose?.problem
    }

    public func shown(on date: LocalDate?) -> Shown {
        let current = date.flatMap { steps?.stepIndex(on: $0) }
        return Shown(
            dose: dose.map { Double($0.thousandths) / 1000 }, unit: dose?.unit, refillDays: dose.map { _ in refillDays ?? Self.defaultRefillDays },
            orderDays: dose.map { _ in orderDaysInEffect },
            minIntervalSeconds: limits.minIntervalSeconds, maxPerDay: limits.maxPerDay,
            steps: steps?.steps.enumerated().map { index, step in
                DoseStepValue(dose: Double(step.dose.thousandths) / 1000, unit: step.dose.unit, through: step.through.description, current: index == current)
            }, apart: apart.isEmpty ? nil : apart, strength: strength.map { Double($0.thousandths) / 1000 }, strengthUnit: strength?.unit)
    }

    // The limits are TEXT with their comma escaped when written (RFC 5545 3.3.11): a server's parser kept only
    // the part before a bare comma (`21600,3` came back as `21600`).
    public var syncedProperties: [SyncedProperty] {
        var properties: [SyncedProperty] = []
        if let dose { properties.append(SyncedProperty("DOSE", "\(dose.amountText) \(dose.unit)")) }
        if !limits.isEmpty {
            properties.append(SyncedProperty("LIMITS", "\(limits.minIntervalSeconds.map(String.init) ?? ""),\(limits.maxPerDay.map(String.init) ?? "")"))
        }
        if let refillDays { properties.append(SyncedProperty("REFILL-DAYS", String(refillDays))) }
        if let orderDays { properties.append(SyncedProperty("ORDER-DAYS", String(orderDays))) }
        if let steps { properties.append(SyncedProperty("STEPS", steps.text)) }
        if let strength { properties.append(SyncedProperty("STRENGTH", "\(strength.amountText) \(strength.unit)")) }
        if !apart.isEmpty { properties.append(SyncedProperty("APART", Self.apartText(apart))) }
        return properties
    }

    /// A strength as `--strength` gives it: an amount with a unit that is not counted (`20mg`, `100mcg`, `5ml`).
    static func strength(_ text: String) throws(PartError) -> Dose {
        let strength: Dose
        do { strength = try Dose(amount: text, unit: nil) } catch { throw PartError("strength", "invalid --strength: \(error.message)") }
        guard !Dose.isCounted(strength.unit) else {
            throw PartError("strength", "invalid --strength \(quotedInput(text)): give what one unit holds, such as 20mg, 100mcg or 5ml")
        }
        return strength
    }

    /// The days before the stock runs out by which to order more.
    public var orderDaysInEffect: Int { orderDays ?? refillDays ?? Self.defaultRefillDays }

    /// Everything travels: the dose, the limits, the course, the strength, the gaps, and the refill and order days
    /// (the low-stock notice comes on every device at the same number of days; a stock itself is counted on each).
    public func merging(synced: Self) -> Self { synced }

    public init(synced property: (String) -> String?) throws(PartError) {
        if let text = property("DOSE") {
            do { dose = try Dose(amount: text, unit: nil) } catch { throw PartError("DOSE", "X-REMINDD-DOSE: \(error.message)") }
        }
        if let text = property("LIMITS") {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let interval = parts.first.flatMap { $0.isEmpty ? nil : Int64($0) }, maximum = parts.count == 2 && !parts[1].isEmpty ? Int(parts[1]) : nil
            guard parts.count == 2, parts[0].isEmpty || interval.map(DoseLimits.minIntervalRange.contains) == true,
                parts[1].isEmpty || maximum.map(DoseLimits.maxPerDayRange.contains) == true
            else { throw PartError("LIMITS", "X-REMINDD-LIMITS is not seconds apart and a daily maximum, e.g. 21600,3") }
            limits = DoseLimits(minIntervalSeconds: interval, maxPerDay: maximum)
        }
        if let text = property("STEPS") {
            do { steps = try DoseSteps(parsing: text, unit: nil) } catch { throw PartError("STEPS", "X-REMINDD-STEPS: \(error.message)") }
        }
        if let text = property("APART") { apart = try Self.apart(parsing: text) }
        for (name, keyPath) in [("REFILL-DAYS", \Self.refillDays), ("ORDER-DAYS", \Self.orderDays)] {
            guard let text = property(name) else { continue }
            guard let days = Int(text), Self.refillDayRange.contains(days) else { throw PartError(name, "X-REMINDD-\(name) is not 1 to 365 days") }
            self[keyPath: keyPath] = days
        }
        if let text = property("STRENGTH") { strength = try Self.strength(text) }
    }

    /// The gaps as a synced item holds them: "14400 Iron;3600 Vitamin D", a name's `%` and `;` written `%25` and `%3B`.
    static func apartText(_ gaps: [DoseGap]) -> String {
        gaps.map { "\($0.seconds) " + $0.reminder.replacing("%", with: "%25").replacing(";", with: "%3B") }.joined(separator: ";")
    }

    static func apart(parsing text: String) throws(PartError) -> [DoseGap] {
        let problem = PartError("APART", "X-REMINDD-APART is not gaps of 60 to 86400 seconds from named medicines, e.g. 14400 Iron")
        let entries = text.split(separator: ";")
        guard entries.count <= DoseGap.maximumCount else { throw problem }
        return try entries.map { entry throws(PartError) in
            guard let space = entry.firstIndex(of: " "), let seconds = Int64(entry[..<space]), DoseGap.range.contains(seconds) else { throw problem }
            let name = String(entry[entry.index(after: space)...]).replacing("%3B", with: ";").replacing("%25", with: "%")
            guard !name.isEmpty else { throw problem }
            return DoseGap(reminder: name, seconds: seconds)
        }
    }

    private enum CodingKeys: String, CodingKey { case doseThousandths, doseUnit, refillDays, orderDays, minIntervalSeconds, maxPerDay, steps, apart, strengthThousandths, strengthUnit }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch (try container.decodeIfPresent(Int64.self, forKey: .doseThousandths), try container.decodeIfPresent(String.self, forKey: .doseUnit)) {
        case (let thousandths?, let unit?): dose = Dose(thousandths: thousandths, unit: unit)
        case (nil, nil): dose = nil
        default: throw DecodingError.dataCorruptedError(forKey: .doseUnit, in: container, debugDescription: "a dose needs its amount and its unit")
        }
        refillDays = try container.decodeIfPresent(Int.self, forKey: .refillDays)
        orderDays = try container.decodeIfPresent(Int.self, forKey: .orderDays)
        limits = DoseLimits(
            minIntervalSeconds: try container.decodeIfPresent(Int64.self, forKey: .minIntervalSeconds),
            maxPerDay: try container.decodeIfPresent(Int.self, forKey: .maxPerDay))
        if let text = try container.decodeIfPresent(String.self, forKey: .steps) {
            do { steps = try DoseSteps(parsing: text, unit: nil) } catch {
                throw DecodingError.dataCorruptedError(forKey: .steps, in: container, debugDescription: error.message)
            }
        }
        apart = try container.decodeIfPresent([DoseGap].self, forKey: .apart) ?? []
        switch (try container.decodeIfPresent(Int64.self, forKey: .strengthThousandths), try container.decodeIfPresent(String.self, forKey: .strengthUnit)) {
        case (let thousandths?, let unit?): strength = Dose(thousandths: thousandths, unit: unit)
        case (nil, nil): strength = nil
        default: throw DecodingError.dataCorruptedError(forKey: .strengthUnit, in: container, debugDescription: "a strength needs its amount and its unit")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(dose?.thousandths, forKey: .doseThousandths)
        try container.encodeIfPresent(dose?.unit, forKey: .doseUnit)
        try container.encodeIfPresent(refillDays, forKey: .refillDays)
        try container.encodeIfPresent(orderDays, forKey: .orderDays)
        try container.encodeIfPresent(limits.minIntervalSeconds, forKey: .minIntervalSeconds)
        try container.encodeIfPresent(limits.maxPerDay, forKey: .maxPerDay)
        try container.encodeIfPresent(steps?.text, forKey: .steps)
        if !apart.isEmpty { try container.encode(apart, forKey: .apart) }
        try container.encodeIfPresent(strength?.thousandths, forKey: .strengthThousandths)
        try container.encodeIfPresent(strength?.unit, forKey: .strengthUnit)
    }
}

/// `DoseStep` of remindd's interfaces: one step of a tapering course as a reply shows it.
public struct DoseStepValue: Codable, Sendable, Hashable {
    public var dose: Double
    public var unit: String
    /// Its last day (YYYY-MM-DD, the reminder's zone).
    public var through: String
    /// Today falls in it.
    public var current: Bool

    public init(dose: Double, unit: String, through: String, current: Bool) {
        (self.dose, self.unit, self.through, self.current) = (dose, unit, through, current)
    }
}
