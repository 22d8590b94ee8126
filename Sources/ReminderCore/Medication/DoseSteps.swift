/// A tapering course (prednisone: 40 mg for a week, then 30, 20, 10): each step's dose until a date, in one
/// unit. The dose of an occurrence is the step its local date falls in; the course ends after the last step.
public struct DoseSteps: Sendable, Hashable {
    /// One step: `dose` on every day up to `through` (inclusive, the reminder's local date).
    public struct Step: Sendable, Hashable {
        public var dose: Dose
        public var through: LocalDate

        public init(dose: Dose, through: LocalDate) {
            (self.dose, self.through) = (dose, through)
        }
    }

    /// At least one; dates strictly increasing, one unit.
    public let steps: [Step]

    /// The most steps a course may have.
    public static let maximumSteps = 52
    /// How the steps are written, for messages.
    public static let forms = "\"40mg until 2026-12-01; 30mg until 2026-12-08; 20mg until 2026-12-15\""

    /// Checked steps, or nil with `problem` when they are not a course.
    public init(checking steps: [Step]) throws(RuleSpecError) {
        if let problem = Self.problem(steps) { throw RuleSpecError(problem) }
        self.steps = steps
    }

    /// Steps as `--steps` gives them: `40mg until 2026-12-01; 30mg until 2026-12-08` (`unit`: for amounts
    /// without their own, as `--unit`).
    public init(parsing text: String, unit: String?) throws(RuleSpecError) {
        var steps: [Step] = []
        for part in text.split(separator: ";") {
            let words = part.split(separator: " ", omittingEmptySubsequences: true)
            guard let until = words.firstIndex(of: "until"), until > 0, until == words.count - 2 else {
                throw RuleSpecError("invalid step \(quotedInput(String(part).withoutSurroundingSpaces)): write each step as a dose and its last day, e.g. \(Self.forms)")
            }
            let dose = try Dose(amount: words[..<until].joined(separator: " "), unit: unit)
            guard let date = ISO8601.parseDate(String(words[until + 1])) else {
                throw RuleSpecError("invalid date '\(words[until + 1])' in --steps: write YYYY-MM-DD, e.g. \(Self.forms)")
            }
            steps.append(Step(dose: dose, through: date))
        }
        try self.init(checking: steps)
    }

    /// What is wrong with the steps (nil: nothing).
    public static func problem(_ steps: [Step]) -> String? {
        guard let first = steps.first else { return "no steps: write \(forms)" }
        guard steps.count <= maximumSteps else { return "\(steps.count) steps: at most \(maximumSteps)" }
        if let other = steps.first(where: { $0.dose.unit != first.dose.unit }) {
            return "the steps name two units (\(first.dose.unit), \(other.dose.unit)): give every step in one unit"
        }
        for (earlier, later) in zip(steps, steps.dropFirst()) where later.through <= earlier.through {
            return "the step until \(later.through) does not come after the step until \(earlier.through): list the steps in date order"
        }
        return steps.lazy.compactMap(\.dose.problem).first
    }

    /// The dose on a local date: its step's; the first step's before the course, the last step's after it.
    public func dose(on date: LocalDate) -> Dose {
        (steps.first { date <= $0.through } ?? steps[steps.count - 1]).dose
    }

    /// The index of the step a date falls in, nil after the last.
    public func stepIndex(on date: LocalDate) -> Int? {
        steps.firstIndex { date <= $0.through }
    }

    /// The last day of the course.
    public var lastDay: LocalDate { steps[steps.count - 1].through }

    /// `40 mg until 2026-12-01; 30 mg until 2026-12-08`: as `--steps` takes them.
    public var text: String {
        steps.map { "\($0.dose.amountText) \($0.dose.unit) until \($0.through)" }.joined(separator: "; ")
    }
}
