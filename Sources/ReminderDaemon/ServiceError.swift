import ReminderCore
import ReminderInterface
import ReminderStore
import VarlinkProtocol

/// A failure of a Varlink method, each mapped to one error of the ``Catalogue``.
enum ServiceError: Error {
    case notFound(String)
    case nameTaken(String)
    case invalidRule(String)
    /// A time or date refused; `unreadable`: the text typed, when it is no time at all (`date`: a date was asked).
    case invalidTime(parameter: String, message: String, unreadable: String? = nil, date: Bool = false)
    case unknownTimeZone(String, String)
    /// Nothing of the reminder is due (done), due or ahead (skip, snooze), or missed lately (done --late): its name,
    /// why, and for done its next occurrence (local time with offset).
    case nothingDue(String, String, next: String? = nil)
    /// A dose its reminder's limits do not allow: the reminder's name, from when the next is, and why.
    case doseNotAllowed(DoseRefusal, String)
    case logNotFound(Int64)
    case habit(String)
    case invalidInput(parameter: String, message: String)
    case store(String)
    /// A Watch client let this many entries pile up unread, and was dropped.
    case watchTooSlow(Int)

    /// Any error from a store call, a service call, or an encoder, as the one error a method reports.
    init(mapping error: any Error) {
        switch error {
        case let error as ServiceError: self = error
        case let error as StoreError: self.init(error)
        default: self = .store("\(error)")
        }
    }

    init(_ error: StoreError) {
        switch error {
        case .notFound(let key): self = .notFound(key)
        case .nameTaken(let name): self = .nameTaken(name)
        default: self = .store(error.description)
        }
    }

    /// The one line a user reads (the error's `message`, else its name and parameters).
    var message: String {
        let error = varlinkError(calledIn: Reminders.interface)
        if case .object(let fields) = error.parameters, case .string(let text)? = fields["message"] { return text }
        return "\(error.name) \(error.parameters)"
    }

    /// The error's parameters, as the catalogue declares them.
    var parameters: any VarlinkErrorParameters {
        switch self {
        case .notFound(let key): RemindErrors.ReminderNotFound(reminder: key)
        case .nameTaken(let name): RemindErrors.NameTaken(name: name)
        case .invalidRule(let message): RemindErrors.InvalidRule(message: message)
        case .invalidTime(let parameter, let message, let unreadable, let date):
            RemindErrors.InvalidTime(parameter: parameter, message: message, unreadable: unreadable, wanted: unreadable.map { _ in date ? "date" : "time" })
        case .unknownTimeZone(let zone, let message): RemindErrors.UnknownTimeZone(timeZone: zone, message: message)
        case .nothingDue(let reminder, let message, let next): RemindErrors.NothingDue(reminder: reminder, message: message, next: next)
        case .doseNotAllowed(let refusal, let message): refusal.parameters(message: message)
        case .logNotFound(let id):
            RemindErrors.LogNotFound(id: id, message: "no log with id \(id): see 'remindctl log list' (add --date YYYY-MM-DD for another day)")
        case .invalidInput(let parameter, let message): RemindErrors.InvalidInput(parameter: parameter, message: message)
        case .habit(let message): RemindErrors.HabitRefused(message: message)
        case .store(let message): RemindErrors.StoreFailure(message: message)
        case .watchTooSlow(let limit):
            RemindErrors.WatchTooSlow(message: "\(limit) entries waited unread: this Watch was dropped; read its replies as they come, and call Watch again")
        }
    }

    /// The error as a method of `interface` raises it.
    func varlinkError(calledIn interface: String) -> VarlinkError {
        Catalogue.error(parameters, calledIn: interface)
    }
}

/// Runs a store call, reporting its failure as the method's error.
func storing<T>(_ body: () throws(StoreError) -> T) throws(ServiceError) -> T {
    do { return try body() } catch { throw ServiceError(error) }
}
