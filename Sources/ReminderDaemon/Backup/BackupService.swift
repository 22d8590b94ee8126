import Foundation
import ReminderCore
import ReminderInterface
import ReminderStore
import VarlinkProtocol

/// Backup and restore: the store's tables out as one document, and back in (then everything is planned and
/// counted again from them).
struct BackupService: Sendable {
    let context: DaemonContext
    let scheduling: SchedulingService
    let habits: HabitService

    /// The backup document, built as a JSON value directly (no text round trip: 10 years are 2 million values).
    func export() throws(ServiceError) -> JSONValue {
        let now = context.clock.now()
        let backup = try storing { () throws(StoreError) in try context.store.backups.backup(exportedAt: now.description) }
        let tables = backup.tables.mapValues { rows in JSONValue.array(rows.map { .object($0.mapValues(Self.json)) }) }
        return .object([
            "format": .string(backup.format), "version": .number(Double(backup.version)), "schema": .string(backup.schema),
            "exportedAt": .string(backup.exportedAt), "tables": .object(tables),
        ])
    }

    private static func json(_ value: StoreValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let number): .number(Double(number))
        case .real(let number): .number(number)
        case .text(let text): .string(text)
        case .blob(let bytes): .object(["base64": .string(bytes.base64EncodedString())])
        }
    }

    func restore(path: String, merge: Bool) async throws(ServiceError) -> [TableCount] {
        guard path.hasPrefix("/") else { throw .invalidInput(parameter: "path", message: "give the backup's absolute path, not '\(path)'") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidInput(parameter: "path", message: "cannot read \(path): no such file, or not readable by remindd")
        }
        let backup: StoreBackup
        do {
            backup = try JSONDecoder().decode(StoreBackup.self, from: data)
        } catch {
            throw .invalidInput(parameter: "path", message: "\(path) is not a remindd backup, or is damaged (\(Self.reason(error))): nothing was changed")
        }
        let builtIn: Set<String> = [ReminderService.restCheckInName]
        if !merge, try storing({ () throws(StoreError) in try context.store.backups.holdsUserData(builtIn: builtIn) }) {
            throw .invalidInput(parameter: "merge", message: "the store already holds reminders or logs: import into an empty store, or add --merge to add what is not there yet")
        }
        let report: RestoreReport
        do {
            report = try context.store.backups.restore(backup, merge: merge)
        } catch let refused as BackupRefused {
            throw .invalidInput(parameter: "path", message: "\(path): \(refused.description); nothing was changed")
        } catch {
            throw ServiceError(mapping: error)
        }
        do { try await scheduling.load() } catch { throw ServiceError(error) }
        await habits.changed(now: context.clock.now(), activity: .unknown)
        return report.added.keys.sorted().map { TableCount(table: $0, added: report.added[$0] ?? 0, skipped: report.skipped[$0] ?? 0) }
    }

    /// What a decoder found wrong, in a few words.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "no '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is not what it should be"
        case DecodingError.dataCorrupted(let context): context.debugDescription
        default: "\(error)"
        }
    }
}

/// The methods of `io.remindd.Backup`, answered by ``BackupService``.
extension BackupService {
    func register(in router: inout MethodRouter) {
        router.on(Backup.Export.self) { _ in .init(backup: try export()) }
        router.on(Backup.Import.self) { p in .init(tables: try await restore(path: p.path, merge: p.merge ?? false)) }
        router.on(Backup.ImportLoop.self) { p in try await importLoop(path: p.path) }
    }
}
