import ArgumentParser
import FoundationEssentials
import Glibc
import ReminderCore
import ReminderInterface
import TimeZoneDatabase
import VarlinkProtocol

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write everything out: a lossless backup (JSON), reminders as iCalendar, or a table as CSV.",
        discussion: """
            The backup holds every reminder, log, firing, rest day, workout, food entry and setting, with a format \
            version; 'remindctl import' restores it. CSV is for spreadsheets: a header row, ISO 8601 local times with \
            their offsets, RFC 4180 quoting. --what intake: logged intakes (with the amount taken, in the unit of the reminder's dose); occurrences: handled firings and decided \
            occurrences (fired, late, suppressed, skipped, missed); workouts; food; days: calories eaten, burned and net \
            per day. iCalendar (RFC 5545) is for calendar programs: each enabled reminder (or --reminder) as events             with their recurrence, skipped days, time zone and an alarm at the firing time.

            Examples:
              remindctl export > remindd-backup.json
              remindctl export --format ics > reminders.ics
              remindctl export --format ics --reminder "Vitamin D" > vitamin-d.ics
              remindctl export --format csv --what intake > intake.csv
              remindctl export --format csv --what days > days.csv
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case json, ics, csv }
    enum Table: String, ExpressibleByArgument, CaseIterable { case intake, occurrences, workouts, food, days }

    @Option(help: "json (a backup), ics (iCalendar) or csv.") var format: Format = .json
    @Option(help: ArgumentHelp("With --format csv: intake, occurrences, workouts, food or days.", valueName: "table")) var what: Table?
    @Option(help: ArgumentHelp("With --format ics: only this reminder (id or name).", valueName: "reminder"), completion: .custom(Completions.reminders))
    var reminder: String?
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if format == .csv && what == nil { throw ValidationError("--format csv needs --what: intake, occurrences, workouts, food or days") }
        if format != .csv && what != nil { throw ValidationError("--what goes with --format csv (the JSON backup holds everything)") }
        if format != .ics && reminder != nil { throw ValidationError("--reminder goes with --format ics (the JSON backup holds everything)") }
    }

    func run() throws {
        if format == .ics { return out.print(try calendar(), terminator: "") }
        guard let what else { return try writeBackup() }
        out.print(CSVExport(tables: try Self.tables(connection), context: .current).rows(what).map(CSVExport.line).joined(), terminator: "")
    }
}

extension ExportCommand {
    /// Asks for the backup and hands each part to `header` and `page` as it comes (the daemon sends a page of
    /// rows at a time). Rows stay untyped: they are written out as they came.
    static func streamBackup(
        _ connection: ConnectionOptions, header: (Backup.Header) throws -> Void, page: (_ table: String, _ rows: [JSONValue]) throws -> Void
    ) throws {
        var started = false
        try connection.withConnection { client in
            try client.stream(Backup.Export.self, NoFields()) { reply in
                if let value = reply.header {
                    started = true
                    try header(value)
                } else if let table = reply.table {
                    guard started else { throw CLIError("remindd sent rows before the backup's header: update remindctl and remindd together") }
                    try page(table, reply.rows ?? [])
                }
                return true
            }
        }
        guard started else { throw CLIError("remindd sent an export without a backup") }
    }

    /// Each table's rows (objects of column values), all of them: for the CSV and iCalendar exports, which
    /// join rows of several tables.
    static func tables(_ connection: ConnectionOptions) throws -> [String: [[String: JSONValue]]] {
        var tables: [String: [[String: JSONValue]]] = [:]
        try streamBackup(connection, header: { _ in }) { table, rows in
            tables[table, default: []] += rows.compactMap { if case .object(let row) = $0 { row } else { nil } }
        }
        return tables
    }

    /// Writes the backup document as its pages come, one row per line: the header's fields first (so that an
    /// import decides from them before reading any row), then each table's rows.
    func writeBackup() throws {
        var table: String?
        try Self.streamBackup(connection, header: { header in
            let fields: [(String, JSONValue)] = [
                ("format", .string(header.format)), ("version", .number(Double(header.version))), ("schema", .string(header.schema)),
                ("exportedAt", .string(header.exportedAt)),
            ]
            out.print("{\n" + fields.map { "  \(Self.json(.string($0.0))) : \(Self.json($0.1)),\n" }.joined() + "  \"tables\" : {", terminator: "")
        }) { name, rows in
            var text = ""
            if name != table {
                text += (table == nil ? "\n" : "\n    ],\n") + "    \(Self.json(.string(name))) : ["
                table = name
            } else if !rows.isEmpty {
                text += ","
            }
            text += rows.map { "\n      " + Self.json($0) }.joined(separator: ",")
            out.print(text, terminator: "")
        }
        out.print((table == nil ? "" : "\n    ]") + "\n  }\n}")
    }

    private static func json(_ value: JSONValue) -> String { String(decoding: JSONWriter.write(value), as: UTF8.self) }
}

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Restore a backup written by 'remindctl export', or import Loop Habit Tracker's data.",
        discussion: """
            Into a store with nothing of yours in it, the backup is restored exactly, in one transaction. A store \
            that holds reminders or logs is refused unless --merge, which adds only what is not there yet \
            (reminders by name, everything else by its values) and says what it added. A damaged file, or one \
            from a newer remindd, is refused and nothing changes.

            With --format ics: an iCalendar file, as Thunderbird, Evolution, khal, todoman, Google or Outlook \
            write them. Each alarm (VALARM) of each event and to-do becomes a reminder at the alarm's instants: \
            triggers before or after the start or the end, absolute ones, REPEAT, the event's RRULE, RDATE, \
            EXDATE, and the RECURRENCE-ID overrides that move or cancel one instance. With --all, an event \
            without an alarm becomes one at its start. What was left out (cancelled, no date, every alarm past) \
            or changed is listed with its line. A file that cannot be read is refused with its line, and \
            nothing is imported. The same file imported again is refused unless --update: then each reminder \
            that came from the same event and alarm (its UID) is changed in place, keeping its logs, and those \
            whose alarm is no longer in the file are removed.

            With --from loop: the folder of Loop Habit Tracker's CSV export (unzipped), or its SQLite backup \
            (.db). Each habit becomes a reminder (on its reminder's days and time; without one, disabled), each \
            day done a log at noon, each day skipped with nothing done a rest day; what has no equivalent is \
            listed. A habit named like an existing reminder is refused, and nothing is imported.

            remindctl reads the file itself and sends it to the daemon in parts: any file you can read works, \
            standard input too (-).

            Examples:
              remindctl import remindd-backup.json
              remindctl import old-laptop.json --merge
              ssh old-laptop remindctl export | remindctl import - --merge
              remindctl import --from loop "Loop Habits Backup 2026-11-22.db"
              remindctl import --from loop ./loop-csv
              remindctl import --format ics ~/Downloads/calendar.ics
              remindctl import --format ics --all work.ics
              remindctl import --format ics --update ~/Downloads/calendar.ics
            """)

    enum Source: String, ExpressibleByArgument, CaseIterable { case remindd, loop }

    @Argument(help: "The backup file, - for standard input (or Loop's folder or .db).", completion: .file()) var file: String
    enum Format: String, ExpressibleByArgument, CaseIterable { case json, ics }

    @Option(help: "remindd (a backup, the default) or loop (Loop Habit Tracker).") var from: Source = .remindd
    @Option(help: "json (a remindd backup, the default) or ics (an iCalendar file).") var format: Format = .json
    @Flag(help: "With --format ics: also events and to-dos without an alarm, reminded at their start.") var all = false
    @Flag(help: "With --format ics: change what came from the same events before, in place.") var update = false
    @Flag(help: "Add to a store that already holds data, skipping what is already there.") var merge = false
    @Flag(help: "Print what was imported as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    /// How the daemon's messages name the file: as it was given.
    private var label: String { file == "-" ? "standard input" : file }

    func validate() throws {
        if from == .loop && merge { throw ValidationError("--merge goes with a remindd backup; a Loop import always adds") }
        if format == .ics && (from == .loop || merge) { throw ValidationError("--format ics reads a calendar file: give it without --from loop and --merge") }
        if all && format != .ics { throw ValidationError("--all goes with --format ics") }
        if update && format != .ics { throw ValidationError("--update goes with --format ics (a backup is added to with --merge)") }
    }

    func run() throws {
        if format == .ics { return try importCalendar() }
        if from == .loop {
            let reply = try connection.withConnection { daemon in
                try daemon.call(Backup.ImportLoop.self, .init(upload: try FileUpload.send(file, folders: true, over: daemon), label: label), timeout: Self.replyTimeout)
            }
            if json { return try out.json(reply) }
            out.print("Imported from Loop Habit Tracker: \(plural(reply.reminders, "reminder")), \(plural(reply.logs, "log")), \(plural(reply.restDays, "rest day")).")
            for note in reply.notes { out.print("  " + note) }
            return
        }
        let tables = try connection.withConnection { daemon in
            try daemon.call(
                Backup.Import.self, .init(upload: try FileUpload.send(file, folders: false, over: daemon), label: label, merge: merge ? true : nil),
                timeout: Self.replyTimeout
            ).tables
        }
        if json { return try out.json(tables) }
        let added = tables.filter { $0.added > 0 }
        out.print(added.isEmpty ? "Nothing added: everything in \(file) was already there." : "Imported \(file):")
        out.table(["TABLE", "ADDED", "SKIPPED"], tables.filter { $0.added + $0.skipped > 0 }.map { [$0.table, String($0.added), String($0.skipped)] })
    }
}


extension ImportCommand {
    /// How long the reply may take, in seconds: a large file's move waits up to 30 s for a moment when no dose
    /// is due, and a file of 106,504 events takes about 15 s besides (the default of 30 s would give up on it).
    static let replyTimeout = 300

    /// `--format ics`: the reminders added, then what was left out or changed.
    private func importCalendar() throws {
        let reply = try connection.withConnection { daemon in
            try daemon.call(Backup.ImportCalendar.self, .init(
                upload: try FileUpload.send(file, folders: false, over: daemon), label: label, all: all ? true : nil, update: update ? true : nil),
                timeout: Self.replyTimeout)
        }
        if json { return try out.json(reply) }
        let changed = reply.reminders.filter { $0.updated == true }.count
        out.print(reply.reminders.isEmpty ? "Nothing imported from \(label)."
            : changed == 0 ? "Imported \(plural(reply.reminders.count, "reminder")) from \(label):"
            : "Imported from \(label): \(reply.reminders.count - changed) added, \(changed) updated:")
        out.table(["ID", "NAME", "SCHEDULE", "NEXT"] + (update ? ["WAS"] : []), reply.reminders.map {
            [String($0.id), $0.name, $0.summary, $0.next.map { out.time($0) } ?? "-"] + (update ? [$0.updated == true ? "updated" : "added"] : [])
        })
        if let removed = reply.removed, !removed.isEmpty {
            out.print("Removed (their alarm is no longer in the file): " + removed.joined(separator: ", "))
        }
        if !reply.leftOut.isEmpty {
            out.print("Not imported:")
            for line in reply.leftOut { out.print("  " + line) }
        }
        for note in reply.notes { out.print("Note: " + note) }
    }
}

/// A backup's tables as CSV rows: local times with offsets in each row's zone, one header row.
struct CSVExport {
    let tables: [String: [[String: JSONValue]]]
    let context: CommandContext
    private let zones = TimeZoneDatabase.system(environment: CommandContext.current.environment)

    init(tables: [String: [[String: JSONValue]]], context: CommandContext) {
        (self.tables, self.context) = (tables, context)
    }

    func rows(_ what: ExportCommand.Table) -> [[String]] {
        switch what {
        case .intake:
            return [["id", "reminder", "time", "utc", "late-for", "amount", "unit"]] + (tables["intake"] ?? []).map { row in
                // The amount (thousandths stored) in the unit of the reminder's dose.
                let amount: String
                if case .number(let thousandths)? = row["amount"] { amount = Dose.text(thousandths: Int64(thousandths)) } else { amount = "" }
                return [text(row["id"]), reminderName(row["reminderId"]), local(row["at"], zone: row["timeZone"]), utc(row["at"]),
                        local(row["forScheduledAt"], zone: reminderZone(row["reminderId"])), amount, amount.isEmpty ? "" : reminderUnit(row["reminderId"])]
            }
        case .occurrences:
            let fired = (tables["firing"] ?? []).map { row in
                (row, [text(row["reminderName"]), text(row["slot"]), local(row["scheduledAt"], zone: reminderZone(row["reminderId"])), text(row["kind"]),
                       local(row["handledAt"], zone: reminderZone(row["reminderId"])), text(row["detail"])])
            }
            let decided = (tables["outcome"] ?? []).map { row in
                (row, [text(row["reminderName"]), text(row["slot"]), local(row["scheduledAt"], zone: reminderZone(row["reminderId"])), text(row["state"]),
                       local(row["decidedAt"], zone: reminderZone(row["reminderId"])), text(row["reason"])])
            }
            // A late take ("Taken late" on the Missed notification, `done --late`) is the occurrence's state from then.
            let takenLate = (tables["intake"] ?? []).filter { if case .number = $0["forScheduledAt"] { true } else { false } }.map { row in
                (["scheduledAt": row["forScheduledAt"] ?? .null], [
                    reminderName(row["reminderId"]), "", local(row["forScheduledAt"], zone: reminderZone(row["reminderId"])), "taken-late",
                    local(row["at"], zone: reminderZone(row["reminderId"])), "log \(text(row["id"]))",
                ])
            }
            // By occurrence, then by when each thing happened to it (a missed one before its late take).
            let sorted = (fired + decided + takenLate).sorted { (number($0.0["scheduledAt"]), $0.1[4]) < (number($1.0["scheduledAt"]), $1.1[4]) }.map(\.1)
            return [["reminder", "slot", "scheduled", "state", "decided", "detail"]] + sorted
        case .workouts:
            return [["id", "exercise", "minutes", "intensity", "met", "kcal", "time"]] + (tables["workout"] ?? []).map { row in
                [text(row["id"]), text(row["exercise"]), text(row["minutes"]), text(row["intensity"]), text(row["met"]), text(row["kcal"]),
                 local(row["at"], zone: row["timeZone"])]
            }
        case .food:
            return [["id", "name", "kcal", "time"]] + (tables["food"] ?? []).map { row in
                [text(row["id"]), text(row["name"]), text(row["kcal"]), local(row["at"], zone: row["timeZone"])]
            }
        case .days:
            var days: [String: (eaten: Int64, burned: Int64)] = [:]
            for row in tables["food"] ?? [] { days[date(row["at"], zone: row["timeZone"]), default: (0, 0)].eaten += number(row["kcal"]) }
            for row in tables["workout"] ?? [] { days[date(row["at"], zone: row["timeZone"]), default: (0, 0)].burned += number(row["kcal"]) }
            return [["date", "consumed", "burned", "net"]] + days.keys.sorted().map { day in
                let (eaten, burned) = days[day]!
                return [day, String(eaten), String(burned), String(eaten - burned)]
            }
        }
    }

    /// One CSV record (RFC 4180): fields with a comma, quote or line break in quotes, quotes doubled; CRLF.
    static func line(_ fields: [String]) -> String {
        fields.map { field in
            field.contains(where: { ",\"\r\n".contains($0) }) ? "\"" + field.replacing("\"", with: "\"\"") + "\"" : field
        }.joined(separator: ",") + "\r\n"
    }

    private func text(_ value: JSONValue?) -> String {
        switch value {
        case .string(let text)?: text
        case .number(let number)?: number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag)?: flag ? "1" : "0"
        default: ""
        }
    }

    private func number(_ value: JSONValue?) -> Int64 {
        if case .number(let number)? = value { return Int64(number) }
        return 0
    }

    private func rules(_ zone: JSONValue?) -> TimeZoneRules {
        if case .string(let name)? = zone, let rules = try? zones.rules(named: name) { return rules }
        return context.zone
    }

    private func local(_ seconds: JSONValue?, zone: JSONValue?) -> String {
        guard case .number = seconds else { return "" }
        let instant = Instant(secondsSinceEpoch: number(seconds))
        return ISO8601.format(instant, offsetSeconds: rules(zone).offset(at: instant), zulu: false)
    }

    private func utc(_ seconds: JSONValue?) -> String { Instant(secondsSinceEpoch: number(seconds)).description }

    private func date(_ seconds: JSONValue?, zone: JSONValue?) -> String {
        rules(zone).localDateTime(at: Instant(secondsSinceEpoch: number(seconds))).date.description
    }

    private func reminder(_ id: JSONValue?) -> [String: JSONValue]? {
        (tables["reminder"] ?? []).first { $0["id"] == id }
    }

    private func reminderName(_ id: JSONValue?) -> String { text(reminder(id)?["name"]) }

    /// The unit of a reminder's dose (its `delivery` column's JSON), or "" (also for a delivery that is not
    /// JSON: the backup's own check refuses such a row on import; the export shows what it can).
    private func reminderUnit(_ id: JSONValue?) -> String {
        guard case .string(let json)? = reminder(id)?["delivery"],
              case .object(let delivery)? = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)) else { return "" }
        return text(delivery["doseUnit"])
    }

    /// A reminder's own zone, or nil (it follows the system zone, or is gone): then the user's zone.
    private func reminderZone(_ id: JSONValue?) -> JSONValue? { reminder(id)?["timeZone"] }
}

extension ExportCommand {
    /// The enabled reminders (or one) as an iCalendar file, with the occurrences skipped ahead as EXDATEs.
    func calendar() throws -> String {
        let context = CommandContext.current
        let zones = TimeZoneDatabase.system(environment: context.environment)
        let systemZone = try connection.call(Reminders.Status.self).systemTimeZone
        var reminders = try connection.allReminders().filter(\.enabled)
        if let reminder {
            reminders = reminders.filter { $0.name.lowercased() == reminder.lowercased() || String($0.id) == reminder }
            guard !reminders.isEmpty else { throw CLIError("no enabled reminder '\(reminder)': see 'remindctl list'") }
        }
        let tables = try Self.tables(connection)
        var skipped: [Int64: [Instant]] = [:]
        for row in tables["outcome"] ?? [] where row["state"] == .string("skipped") {
            if case .number(let id)? = row["reminderId"], case .number(let at)? = row["scheduledAt"] {
                skipped[Int64(id), default: []].append(Instant(secondsSinceEpoch: Int64(at)))
            }
        }
        let events = try reminders.map { value in
            let zoneName = value.timeZone ?? systemZone
            var spec = value.rule
            var description = doseText(value.delivery.medication.dose, value.delivery.medication.unit).map { "Take \($0)" }
            // Counted from the last dose: its next firing as the daemon has it (the rule's own grid is not when it
            // fires), said so; the one after comes once this one is logged.
            if spec.fromLastDose == true, let next = value.next {
                spec = RuleSpec(once: String(next.local.prefix(19)))
                description = [description, "\(value.summary); the next is planned from when this one is taken"].compactMap { $0 }.joined(separator: ". ")
            }
            let rule: ReminderRule
            do { rule = try spec.makeRule() } catch { throw CLIError("\(value.name): \(error)") }
            let zone: TimeZoneRules
            do { zone = try zones.rules(named: zoneName) } catch { throw CLIError("\(value.name): \(error)") }
            return ICalendar.Reminder(
                id: value.id, name: value.name, rule: rule, zoneName: zoneName, zone: zone, skipped: skipped[value.id] ?? [], description: description)
        }
        return ICalendar.calendar(events, now: context.now())
    }
}
