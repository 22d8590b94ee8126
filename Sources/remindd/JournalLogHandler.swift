import Logging
import ReminderDaemon

/// The service group's own messages (a service that failed, a slow stop) in the journal, warnings and worse.
struct JournalLogHandler: LogHandler {
    let announcer: JournalAnnouncer
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .warning

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let severity: DaemonMessage.Severity = switch event.level {
        case .trace, .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error, .critical: .error
        }
        let details = metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        announcer.announce(.daemon(DaemonMessage(severity, details.isEmpty ? "\(event.message)" : "\(event.message) (\(details.joined(separator: ", ")))")))
    }
}
