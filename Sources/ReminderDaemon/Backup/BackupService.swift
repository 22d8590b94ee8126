import Foundation
import ReminderCore
import ReminderInterface
import ReminderStore
import VarlinkProtocol

/// Backup and restore: the store's tables out as one document, and back in (then everything is planned and
/// counted again from them).
struct BackupService: Sendable {
    let context: DaemonContext
    /// The stores it holds: backups and imports.
    let stores: Stores
    let uploads: Uploads
    /// Matches a restored backup's plain logs that take missed occurrences late.
    let lateLogs: PendingLateLogMatching

    /// Sends the backup as a stream: the header, then each page of rows as it is read (one page in memory,
    /// whatever the store's size; the client's reading paces the reads). The last page ends the call.
    func export(reply: MethodReplies<Backup.Export>) async throws {
        let now = context.clock.now()
        var pages = try storing { () throws(StoreError) in try stores.backups.pages() }
        let header = Backup.Header(format: BackupFormat.name, version: Int(BackupFormat.currentVersion), schema: pages.schema, exportedAt: now.description)
        try await reply(.init(header: header), true)
        var page = try storing { () throws(StoreError) in try pages.next() }
        while let current = page {
            page = try storing { () throws(StoreError) in try pages.next() }
            try await reply(.init(table: current.table, rows: current.rows.map { .object($0.mapValues(Self.json)) }), page == nil ? nil : true)
            await yieldToQueuedWork()  // the page was read and sent: let the other calls and firings in
        }
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

    /// Restores the backup file at `path`. A store that holds data is refused (without `merge`) before the file
    /// is opened; a newer format or an unknown table before any row is read; the rows are read one at a time.
    func restore(path: String, merge: Bool) async throws(ServiceError) -> [TableCount] {
        guard path.hasPrefix("/") else { throw .invalidInput(parameter: "path", message: "give the backup's absolute path, not '\(path)'") }
        let builtIn: Set<String> = [ReminderService.restCheckInName]
        if !merge, try storing({ () throws(StoreError) in try stores.backups.holdsUserData(builtIn: builtIn) }) {
            throw .invalidInput(parameter: "merge", message: "the store already holds reminders or logs: import into an empty store, or add --merge to add what is not there yet")
        }
        let report: RestoreReport
        let backups = stores.backups
        do {
            let staged = try await offTheEventLoops { try backups.stageRestore(path: path, merge: merge) }
            // The move holds the writer: not while a dose is about to be recorded.
            await context.lulls.lull(lasting: FiringLulls.seconds(toWrite: staged.rows))
            report = try await offTheEventLoops { try backups.restoreStaged(staged, builtIn: builtIn) }
        } catch let refused as BackupRefused {
            let subject = refused.description.hasPrefix("not a remindd backup") ? "\(path) is \(refused.description)" : "\(path): \(refused.description)"
            throw .invalidInput(parameter: "path", message: "\(subject); nothing was changed")
        } catch {
            throw ServiceError(mapping: error)
        }
        let lateLogs = self.lateLogs
        await offTheEventLoops { lateLogs.run() }
        await context.feed.deliver()
        return report.added.keys.sorted().map { TableCount(table: $0, added: report.added[$0] ?? 0, skipped: report.skipped[$0] ?? 0) }
    }
}

/// The methods of `io.remindd.Backup`, answered by ``BackupService``.
extension BackupService {
    func register(in router: inout MethodRouter) {
        router.stream(Backup.Export.self) { call, _, reply in
            guard call.more == true else { throw VarlinkError.expectedMore() }
            try await export(reply: reply)
        }
        router.on(Backup.Upload.self) { p in try uploads.append(p, now: context.clock.now()) }
        router.on(Backup.Import.self) { p in
            .init(tables: try await fromPathOrUpload(path: p.path, upload: p.upload, label: p.label) { path throws(ServiceError) in
                try await restore(path: path, merge: p.merge ?? false)
            })
        }
        router.on(Backup.ImportCalendar.self, largeReply: true) { p in
            try await fromPathOrUpload(path: p.path, upload: p.upload, label: p.label) { path throws(ServiceError) in
                try await importCalendar(path: path, label: p.label ?? path, all: p.all ?? false, update: p.update ?? false)
            }
        }
        router.on(Backup.ImportLoop.self) { p in
            try await fromPathOrUpload(path: p.path, upload: p.upload, label: p.label) { path throws(ServiceError) in try await importLoop(path: path) }
        }
    }


    /// Runs an import of the file at `path`, or of the upload (then removed), in its turn (``ImportTurns``).
    private func fromPathOrUpload<T>(
        path: String?, upload: String?, label: String?, _ body: (String) async throws(ServiceError) -> T
    ) async throws(ServiceError) -> T {
        try await context.importTurns.inTurn { () async throws(ServiceError) -> T in
            try await fromPathOrUploadNow(path: path, upload: upload, label: label, body)
        }
    }

    private func fromPathOrUploadNow<T>(
        path: String?, upload: String?, label: String?, _ body: (String) async throws(ServiceError) -> T
    ) async throws(ServiceError) -> T {
        switch (path, upload) {
        case (let path?, nil): return try await body(path)
        case (nil, let upload?):
            let (path, shown) = try uploads.take(upload)
            defer { uploads.remove(upload) }
            do {
                return try await body(path)
            } catch .invalidInput(let parameter, let message) {
                // The messages name the file where the daemon read it; the user knows it by the name it was sent as.
                throw .invalidInput(parameter: parameter == "path" ? "upload" : parameter, message: message.replacingOccurrences(of: path, with: label ?? shown))
            }
        default:
            throw .invalidInput(parameter: "upload", message: "give an upload (see Upload) or a path, one of the two")
        }
    }
}

extension BackupService {
    /// The stores BackupService holds, and no other: backups and imports.
    struct Stores: Sendable {
        let backups: BackupStore
    }
}
