import VarlinkProtocol

/// `io.remindd.Backup`: everything the store holds, out as one document and back in.
public enum Backup {
    public static let interface = "io.remindd.Backup"
}

/// A method of `io.remindd.Backup`.
public protocol BackupMethod: VarlinkMethod {}
extension BackupMethod {
    public static var interface: String { Backup.interface }
}

/// Rows a restore added and skipped in one table.
public struct TableCount: Codable, Sendable, Hashable {
    public var table: String
    public var added: Int
    public var skipped: Int
    public init(table: String, added: Int, skipped: Int) { (self.table, self.added, self.skipped) = (table, added, skipped) }
}

extension Backup {
    /// What a backup says about itself before its rows.
    public struct Header: Codable, Sendable, Hashable {
        public var format: String
        public var version: Int
        public var schema: String
        public var exportedAt: String
        public init(format: String, version: Int, schema: String, exportedAt: String) {
            (self.format, self.version, self.schema, self.exportedAt) = (format, version, schema, exportedAt)
        }
    }

    /// Every table of the store, row by row, as a stream (a `more` call): the header first, then pages of one
    /// table's rows (every table at least once), the last reply without `continues`. `remindctl export` writes
    /// them out as one document as they come; the daemon holds one page at a time.
    public enum Export: BackupMethod {
        public typealias Parameters = NoFields
        public struct Reply: Codable, Sendable, Hashable, JSONValueConvertible {
            public var header: Header?
            public var table: String?
            public var rows: [JSONValue]?
            public init(header: Header? = nil, table: String? = nil, rows: [JSONValue]? = nil) {
                (self.header, self.table, self.rows) = (header, table, rows)
            }
            public var jsonValue: JSONValue {
                var fields: [String: JSONValue] = [:]
                if let header {
                    fields["header"] = .object([
                        "format": .string(header.format), "version": .number(Double(header.version)), "schema": .string(header.schema),
                        "exportedAt": .string(header.exportedAt),
                    ])
                }
                if let table { fields["table"] = .string(table) }
                if let rows { fields["rows"] = .array(rows) }
                return .object(fields)
            }
        }
    }

    /// Sends a file (or one file of a folder) to the daemon in parts, for ``Import`` or ``ImportLoop`` to read:
    /// the service's sandbox hides the caller's `/tmp`, and one Varlink message holds at most 1 MiB.
    public enum Upload: BackupMethod {
        /// The most data one call carries (decoded): its base64 stays well inside a message.
        public static let partSize = 512 * 1024
        /// The most an upload holds.
        public static let maximumSize = 1 << 30

        public struct Parameters: Codable, Sendable, Hashable {
            /// The upload to add to; nil starts a new one.
            public var upload: String?
            /// The file's name in the upload: one or two plain components (`Habits.csv`, `001 Walk/Checkmarks.csv`).
            public var name: String
            /// The next part of the file, base64.
            public var data: String
            public init(upload: String?, name: String, data: String) { (self.upload, self.name, self.data) = (upload, name, data) }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var upload: String
            /// Bytes the upload holds so far.
            public var size: Int
            public init(upload: String, size: Int) { (self.upload, self.size) = (upload, size) }
        }
    }

    /// Restores a backup in one transaction: an upload (see ``Upload``), or a file the daemon reads itself.
    public enum Import: BackupMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var path: String?
            public var upload: String?
            /// How messages name the uploaded file (the path the user gave); default: its name in the upload.
            public var label: String?
            public var merge: Bool?
            public init(path: String? = nil, upload: String? = nil, label: String? = nil, merge: Bool? = nil) {
                (self.path, self.upload, self.label, self.merge) = (path, upload, label, merge)
            }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var tables: [TableCount]
            public init(tables: [TableCount]) { self.tables = tables }
        }
    }

    /// Imports an iCalendar file (RFC 5545): a reminder for each alarm of each event and to-do (with `all`,
    /// one at the start of those without), in one transaction; what was left out or changed, line by line.
    public enum ImportCalendar: BackupMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var path: String?
            public var upload: String?
            /// As ``Import``'s.
            public var label: String?
            public var all: Bool?
            /// Replace what came from the same events (UIDs) when imported before, rather than refuse.
            public var update: Bool?
            public init(path: String? = nil, upload: String? = nil, label: String? = nil, all: Bool? = nil, update: Bool? = nil) {
                (self.path, self.upload, self.label, self.all, self.update) = (path, upload, label, all, update)
            }
        }
        /// A reminder added (or, with `update`, changed): its schedule in words, its zone, and its next firing
        /// (local ISO 8601).
        public struct CalendarReminder: Codable, Sendable, Hashable {
            public var id: Int64
            public var name: String
            public var summary: String
            public var timeZone: String
            public var next: String?
            /// True when it was there before (imported from the same event and alarm) and was changed in place.
            public var updated: Bool?
            public init(id: Int64, name: String, summary: String, timeZone: String, next: String?, updated: Bool? = nil) {
                (self.id, self.name, self.summary, self.timeZone, self.next, self.updated) = (id, name, summary, timeZone, next, updated)
            }
        }
        public struct Reply: Codable, Sendable, Hashable {
            /// The reminders added, each with its next firing.
            public var reminders: [CalendarReminder]
            /// What was imported with a change ("its ACTION:EMAIL alarm becomes a desktop reminder").
            public var notes: [String]
            /// What was not imported, and why.
            public var leftOut: [String]
            /// With `update`: the reminders imported before from the file's events that it no longer plans, removed.
            public var removed: [String]?
            public init(reminders: [CalendarReminder], notes: [String], leftOut: [String], removed: [String]? = nil) {
                (self.reminders, self.notes, self.leftOut, self.removed) = (reminders, notes, leftOut, removed)
            }
        }
    }

    /// Imports Loop Habit Tracker's data: its CSV export (a folder) or its SQLite backup (a file).
    public enum ImportLoop: BackupMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var path: String?
            public var upload: String?
            /// As ``Import``'s.
            public var label: String?
            public init(path: String? = nil, upload: String? = nil, label: String? = nil) { (self.path, self.upload, self.label) = (path, upload, label) }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var reminders: Int
            public var logs: Int
            public var restDays: Int
            /// What could not be imported, or was imported with less than it had.
            public var notes: [String]
            public init(reminders: Int, logs: Int, restDays: Int, notes: [String]) {
                (self.reminders, self.logs, self.restDays, self.notes) = (reminders, logs, restDays, notes)
            }
        }
    }
}
