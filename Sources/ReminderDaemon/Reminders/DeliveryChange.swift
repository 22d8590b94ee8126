import ReminderCore
import ReminderInterface

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
}
