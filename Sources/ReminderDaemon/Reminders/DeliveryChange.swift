import ReminderCore
import ReminderInterface
import ReminderStore

/// A reminder's parts as Add and Update change them: each part checks and applies its own fields (``Delivery``);
/// the daemon adds what needs the machine: that each command's program can run, that a sound file is one.
extension ReminderService {
    /// `delivery` with `change` applied, or the error of the first bad field.
    static func applying(_ change: Delivery.Change, to delivery: Delivery, adding: Bool) throws(ServiceError) -> Delivery {
        let changed: Delivery
        do { changed = try delivery.applying(change, adding: adding) } catch { throw .invalidInput(parameter: error.parameter, message: error.message) }
        for (parameter, words) in change.commands {
            if let problem = HookCommand.problem(words) { throw .invalidInput(parameter: parameter, message: problem) }
        }
        if case .file(let path) = changed.notification.sound, change.notification.sound != nil, let problem = SoundPlayer.problem(withFile: path) {
            throw .invalidInput(parameter: "sound", message: "invalid --sound: \(problem)")
        }
        return changed
    }

    /// `delivery` with each medicine a change keeps it apart from (`--apart-from`) named as stored: one that
    /// does not exist, the reminder itself (`id`), or a calendar's alarm is refused.
    func namingPartners(of delivery: Delivery, _ change: Delivery.Change, id: Int64?) throws(ServiceError) -> Delivery {
        var named = delivery
        for apart in change.medication.apartFrom ?? [] {
            guard let gap = DoseGaps(delivery.medication.apart).gap(from: apart.reminder) else { continue }
            guard let partner = try storing({ () throws(StoreError) in try stores.reminders.named(gap.reminder) }) else {
                throw .invalidInput(parameter: "apartFrom", message: "--apart-from \(quotedInput(gap.reminder)): no reminder has that name; add it first, or check the name with remindctl list")
            }
            guard partner.id != id, partner.delivery.calendar == nil else {
                throw .invalidInput(parameter: "apartFrom", message: "--apart-from \(quotedInput(partner.name)): give another medicine (not this reminder itself, nor a calendar's alarm)")
            }
            named.medication.apart = DoseGaps.reciprocal(named.medication.apart, of: partner.name, formerly: gap.reminder, seconds: gap.seconds)
        }
        return named
    }
}
