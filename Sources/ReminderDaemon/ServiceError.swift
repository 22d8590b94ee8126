import ReminderInterface
import ReminderStore
import VarlinkProtocol

/// A failure of a Varlink method, each mapped to one error of `io.remindd.Reminders`.
enum ServiceError: Error {
    case notFound(String)
    case nameTaken(String)
    case invalidRule(String)
    case invalidTime(parameter: String, message: String)
    case unknownTimeZone(String, String)
    /// Nothing of the reminder is due (done), or due or ahead (skip, snooze): its name and why.
    case nothingDue(String, String)
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
        let error = varlinkError
        if case .object(let fields) = error.parameters, case .string(let text)? = fields["message"] { return text }
        return "\(error.name) \(error.parameters)"
    }

    var varlinkError: VarlinkError {
        let interface = RemindersAPI.interface + "."
        switch self {
        case .notFound(let key):
            return VarlinkError(name: interface + "ReminderNotFound", parameters: ["reminder": .string(key)])
        case .nameTaken(let name):
            return VarlinkError(name: interface + "NameTaken", parameters: ["name": .string(name)])
        case .invalidRule(let message):
            return VarlinkError(name: interface + "InvalidRule", parameters: ["message": .string(message)])
        case .invalidTime(let parameter, let message):
            return VarlinkError(name: interface + "InvalidTime", parameters: ["parameter": .string(parameter), "message": .string(message)])
        case .unknownTimeZone(let zone, let message):
            return VarlinkError(name: interface + "UnknownTimeZone", parameters: ["timeZone": .string(zone), "message": .string(message)])
        case .nothingDue(let reminder, let message):
            return VarlinkError(name: interface + "NothingDue", parameters: ["reminder": .string(reminder), "message": .string(message)])
        case .logNotFound(let id):
            return VarlinkError(name: interface + "LogNotFound", parameters: [
                "id": .number(Double(id)), "message": .string("no log with id \(id): see 'remindctl log list' (add --date YYYY-MM-DD for another day)")])
        case .invalidInput(let parameter, let message):
            return VarlinkError(name: interface + "InvalidInput", parameters: ["parameter": .string(parameter), "message": .string(message)])
        case .habit(let message):
            return VarlinkError(name: interface + "HabitRefused", parameters: ["message": .string(message)])
        case .store(let message):
            return VarlinkError(name: interface + "StoreFailure", parameters: ["message": .string(message)])
        case .watchTooSlow(let limit):
            return VarlinkError(name: interface + "WatchTooSlow", parameters: [
                "message": .string("\(limit) entries waited unread: this Watch was dropped; read its replies as they come, and call Watch again")])
        }
    }
}

/// Runs a store call, reporting its failure as the method's error.
func storing<T>(_ body: () throws(StoreError) -> T) throws(ServiceError) -> T {
    do { return try body() } catch { throw ServiceError(error) }
}
