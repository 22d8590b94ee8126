import ReminderInterface
import Translation
import VarlinkProtocol

/// remindd's refusals in the words remindctl says them (`NothingDue`, `DoseNotAllowed`, an unreadable time, a
/// log that does not exist ...: from the error's facts, in `words`' language), for another front end
/// (remindd-web): the same texts as the terminal's, less its offer of `--force`.
public enum DaemonRefusals {
    /// What to tell the user of `error`, from a call of the method named `method` (`Done`, `Skip`).
    public static func said(_ error: any Error, calling method: String, words: any MessageCatalog) -> String {
        CommandContext.speaking(words) {
            guard let error = error as? VarlinkError else { return "\(error)" }
            if error.name == ConnectionOptions.nothingDue, let said = ConnectionOptions.nothingDue(error, calling: method) { return said }
            // Facts that do not decode (a daemon of another version) leave the daemon's own message.
            if error.name == ConnectionOptions.doseNotAllowed, let refusal = try? error.parameters.decode(RemindErrors.DoseNotAllowed.self),
               let said = ConnectionOptions.words(for: refusal, offeringForce: false) {
                return said
            }
            return ConnectionOptions.describe(error)
        }
    }
}

extension CommandContext {
    /// Runs `body` with the commands' context speaking `words` (and `environment`, when given): what remindctl's
    /// drawing and wording read.
    static func speaking<Result>(_ words: any MessageCatalog, environment: [String: String]? = nil, _ body: () throws -> Result) rethrows -> Result {
        var context = CommandContext.current
        context.words = words
        if let environment { context.environment = environment }
        return try CommandContext.$current.withValue(context, operation: body)
    }
}
