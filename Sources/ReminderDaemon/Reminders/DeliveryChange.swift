import HabitCore
import ReminderCore
import ReminderInterface
import ReminderScheduling
import ReminderStore

/// How a reminder's announcements reach the person, as Add and Update take it, checked before anything is written.
extension ReminderService {
    /// How a reminder's announcements reach the person, as Add and Update take it (absent fields: unchanged).
    struct DeliveryChange: Decodable, Sendable {
        /// `10m`, `1h`; "" for no repeats.
        var `repeat`: String?
        /// 1-100; 0 for no maximum.
        var repeatMax: Int?
        /// Program and arguments; [] for none.
        var command: [String]?
        /// normal or critical.
        var urgency: String?
        /// `2`, `500mg`, `2 tablets` (with `unit` when it has none); "" for no dose.
        var dose: String? = nil
        var unit: String? = nil
        /// 1-365; 0 for the default.
        var refillDays: Int? = nil
        /// Program and arguments run when an occurrence is missed; [] for none.
        var escalateCommand: [String]? = nil
        /// `30m`: run the escalation command that long after an occurrence's time when it is not yet taken; ""
        /// for when it is missed.
        var escalateAfter: String? = nil
        /// `6h`: the least time between two doses; "" for none.
        var minInterval: String? = nil
        /// The most doses in 24 hours; 0 for none.
        var maxPerDay: Int? = nil
        /// A tapering course, `40mg until 2026-12-01; 30mg until 2026-12-08`; "" for none.
        var steps: String? = nil

        /// `delivery` with the change applied, or the error of the first bad field.
        func applied(to delivery: Delivery) throws(ServiceError) -> Delivery {
            var changed = delivery
            if let text = self.repeat {
                if text.isEmpty {
                    changed.repeatPlan = nil
                } else {
                    guard let seconds = RepeatPlan.interval(text) else {
                        throw .invalidInput(parameter: "repeat", message: "invalid repeat interval \(quotedInput(text)): write \(RepeatPlan.forms)")
                    }
                    changed.repeatPlan = RepeatPlan(intervalSeconds: seconds, maximum: delivery.repeatPlan?.maximum)
                }
            }
            if let repeatMax {
                guard repeatMax == 0 || RepeatPlan.maximums.contains(repeatMax) else {
                    throw .invalidInput(parameter: "repeatMax", message: "invalid repeat maximum \(repeatMax): give 1 to 100 repeats (0: until the window ends)")
                }
                guard changed.repeatPlan != nil else {
                    throw .invalidInput(parameter: "repeatMax", message: "a repeat maximum needs a repeat interval: add --repeat 10m")
                }
                changed.repeatPlan?.maximum = repeatMax == 0 ? nil : repeatMax
            }
            if let command {
                if let problem = command.isEmpty ? nil : HookCommand.problem(command) { throw .invalidInput(parameter: "command", message: problem) }
                changed.command = command.isEmpty ? nil : command
            }
            if let urgency {
                guard ["normal", "critical"].contains(urgency) else {
                    throw .invalidInput(parameter: "urgency", message: "invalid urgency '\(urgency)': write normal or critical")
                }
                changed.critical = urgency == "critical"
            }
            if delivery.steps != nil, dose != nil || unit != nil, steps == nil {
                throw .invalidInput(
                    parameter: "dose", message: "this reminder tapers (--steps): give its doses with --steps, or end the course with --steps \"\" first")
            }
            if let steps, !steps.isEmpty {
                guard dose == nil else { throw .invalidInput(parameter: "steps", message: "--dose and --steps both give the dose: give --steps alone (each step names its dose)") }
                do {
                    let course = try DoseSteps(parsing: steps, unit: unit ?? changed.dose?.unit)
                    (changed.steps, changed.dose) = (course, course.steps[0].dose)
                } catch {
                    throw .invalidInput(parameter: "steps", message: "invalid --steps: \(error.message)")
                }
                return try applyRest(to: changed)
            }
            if steps?.isEmpty == true { changed.steps = nil }
            if let dose, dose.isEmpty {
                guard unit == nil || unit == "" else { throw .invalidInput(parameter: "unit", message: "a unit without a dose: give --dose too, e.g. --dose 2 --unit \(unit!)") }
                changed.dose = nil
            } else if dose != nil || unit != nil {
                // A unit alone changes the unit of the dose there is.
                guard let amount = dose ?? changed.dose?.amountText else {
                    throw .invalidInput(parameter: "unit", message: "a unit without a dose: give --dose too, e.g. --dose 2 --unit \(unit ?? "tablet")")
                }
                do { changed.dose = try Dose(amount: amount, unit: unit ?? (dose == nil ? changed.dose?.unit : nil)) } catch {
                    throw .invalidInput(parameter: dose == nil ? "unit" : "dose", message: error.message)
                }
            }
            return try applyRest(to: changed)
        }

        /// The settings after the dose: escalation, limits and refills.
        private func applyRest(to delivery: Delivery) throws(ServiceError) -> Delivery {
            var changed = delivery
            if let escalateCommand {
                if let problem = escalateCommand.isEmpty ? nil : HookCommand.problem(escalateCommand) {
                    throw .invalidInput(parameter: "escalateCommand", message: problem)
                }
                changed.escalateCommand = escalateCommand.isEmpty ? nil : escalateCommand
                if escalateCommand.isEmpty, escalateAfter == nil { changed.escalateAfterSeconds = nil }  // meaningless alone
            }
            if let escalateAfter {
                if escalateAfter.isEmpty {
                    changed.escalateAfterSeconds = nil
                } else {
                    guard let seconds = WindowLength.seconds(escalateAfter) else {
                        throw .invalidInput(parameter: "escalateAfter", message: "invalid escalation delay '\(escalateAfter)': write \(WindowLength.forms)")
                    }
                    guard changed.escalateCommand != nil else {
                        throw .invalidInput(
                            parameter: "escalateAfter", message: "--escalate-after \(escalateAfter) needs a command to run: add --escalate-exec /path/to/tell-carer")
                    }
                    changed.escalateAfterSeconds = seconds
                }
            }
            if let minInterval {
                if minInterval.isEmpty {
                    changed.limits.minIntervalSeconds = nil
                } else {
                    guard let seconds = WindowLength.seconds(minInterval, in: DoseLimits.minIntervalRange) else {
                        throw .invalidInput(
                            parameter: "minInterval", message: "invalid minimum interval '\(minInterval)': write a length of 1m to 7d such as 4h, 6h or 1d")
                    }
                    changed.limits.minIntervalSeconds = seconds
                }
            }
            if let maxPerDay {
                guard maxPerDay == 0 || DoseLimits.maxPerDayRange.contains(maxPerDay) else {
                    throw .invalidInput(parameter: "maxPerDay", message: "invalid most doses a day \(maxPerDay): give 1 to 100 (0 with update: no maximum)")
                }
                changed.limits.maxPerDay = maxPerDay == 0 ? nil : maxPerDay
            }
            if let refillDays {
                guard refillDays == 0 || Delivery.refillDayRange.contains(refillDays) else {
                    throw .invalidInput(parameter: "refillDays", message: "invalid refill days \(refillDays): give 1 to 365 days of stock (0: the default, 7)")
                }
                changed.refillDays = refillDays == 0 ? nil : refillDays
            }
            return changed
        }
    }
}
