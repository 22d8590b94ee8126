import Foundation
import ReminderCore
import ReminderStore
import SystemdSupport

/// The alarms of the read-only calendars in `config.toml`'s `calendars` (khal's folders, a subscribed feed kept
/// by vdirsyncer): every VALARM of their events and tasks fires like a reminder, dismissed or snoozed rather
/// than taken (pimutils/khal#148). A calendar is never written.
///
/// A scan lists a folder, reads the items whose etag (mtime, inode, size) it has not seen, plans each with
/// ``CalendarImport`` (as `remindctl import --format ics`), and replaces that item's alarms in the store in one
/// transaction; an item gone from the folder takes its alarms with it. An item that cannot be used (not
/// iCalendar, too large, a link, a rule that fires more than once a minute) is reported once per version and
/// has no alarms; the others work. Scans run one at a time.
actor CalendarService {
    private let context: DaemonContext
    private let scheduling: SchedulingService
    /// `~/` in the configured folders.
    private let home: String
    /// What was read of each folder: the etag of each item file.
    private var known: [String: [String: String]] = [:]
    /// Problems already reported (an item's path and version, or a folder's error): each is said once.
    private var reported: Set<String> = []
    /// Folders being scanned (a scan lets other work run between items), and those changed again meanwhile.
    private var scanning: Set<String> = []
    private var changedWhileScanning: Set<String> = []
    /// Every zone name of the zone files, once read.
    private var zoneNames: [String]?
    /// Items planned between chances for other work (a firing, a call) to run.
    static let scanChunk = 200

    /// The most events and tasks one item may hold (a recurring event with its overrides is a few dozen).
    static let maximumComponents = 1000
    /// The most alarms one item may set.
    static let maximumAlarms = 100
    /// The least time between two firings of one alarm.
    static let minimumSpacingSeconds: Int64 = 60
    /// Above this many alarms changed at once, the whole schedule is loaded again rather than each re-planned.
    static let reloadThreshold = 200

    init(context: DaemonContext, scheduling: SchedulingService, home: String) {
        (self.context, self.scheduling, self.home) = (context, scheduling, home)
    }

    /// The configured folders, as absolute paths.
    nonisolated var folders: [String] { context.configuration.calendarFolders(home: home) }

    /// Scans every configured folder, and removes the alarms of folders no longer configured.
    func scanAll() async {
        let folders = self.folders
        let began = ContinuousClock.now
        var changed: [Int64] = []
        do {
            let dropped = try context.store.calendarAlarms.folders().subtracting(folders)
            for folder in dropped {
                known[folder] = nil
                changed += try context.store.calendarAlarms.remove(origins: try context.store.calendarAlarms.origins(in: folder))
            }
        } catch {
            context.say(.error, "Could not remove the alarms of calendars no longer in the config: \(error)")
        }
        for folder in folders { changed += await scanned(folder) }
        await replan(changed)
        guard !folders.isEmpty else { return }
        let items = folders.map { known[$0]?.count ?? 0 }.reduce(0, +)
        let elapsed = (ContinuousClock.now - began) / .milliseconds(1)
        context.say(.info, "Calendars read: \(items) \(items == 1 ? "item" : "items") in \(folders.count) \(folders.count == 1 ? "folder" : "folders"), \(Set(changed).count) alarms added, changed or removed (\(Int(elapsed)) ms)")
    }

    /// Scans one folder (the watcher saw a change in it): only the entries `names`, when given and the folder was
    /// read before; else all of it.
    func scan(_ folder: String, names: Set<String>? = nil) async {
        guard folders.contains(folder) else { return }
        await replan(await scanned(folder, names: names))
    }

    /// Reads what changed in `folder` and stores its alarms, again if it changed meanwhile; a folder being
    /// scanned already is scanned (whole) once more after. - Returns: the reminder ids to re-plan.
    private func scanned(_ folder: String, names: Set<String>? = nil) async -> [Int64] {
        guard scanning.insert(folder).inserted else {
            changedWhileScanning.insert(folder)
            return []
        }
        var changed = await scannedOnce(folder, names: names)
        while changedWhileScanning.remove(folder) != nil { changed += await scannedOnce(folder, names: nil) }
        scanning.remove(folder)
        return changed
    }

    private func scannedOnce(_ folder: String, names: Set<String>?) async -> [Int64] {
        let vdir = VdirFolder(path: folder)
        var listing: (entries: [VdirFolder.Entry], refused: [VdirFolder.Refused]) = ([], [])
        // The entries named, looked at one by one (one file changed in a calendar of 20,000 is one stat).
        let partial = names.flatMap { names in known[folder].map { _ in names } }
        do {
            if let partial {
                for name in partial.sorted() {
                    switch vdir.look(at: name) {
                    case .item(let entry): listing.entries.append(entry)
                    case .refused(let refusal): listing.refused.append(refusal)
                    case .none: continue
                    }
                }
            } else {
                listing = try vdir.list()
            }
        } catch {
            // Its alarms stay: a folder on a disk not mounted yet is not a calendar emptied.
            reportOnce("folder \(folder) \(error.code)", .warning, "Calendar folder \(folder) cannot be read (\(error)); its alarms stay as they were until it can")
            return []
        }
        reported.remove("folder \(folder) \(ENOENT)")
        let calendar = vdir.displayName
        let before = known[folder] ?? [:]
        // What is known of the entries not named stays as it was.
        var seen = partial.map { partial in before.filter { !partial.contains($0.key) } } ?? [:]
        var unstored: Set<String> = []
        var changed: [Int64] = []
        let now = context.clock.now()
        let zones: CalendarImport.Zones
        do { zones = try self.zones() } catch {
            context.say(.error, "Calendar '\(calendar)' is not read: \(error)")
            return []
        }
        for refused in listing.refused {
            reportOnce("\(folder)/\(refused.name) \(refused.reason)", .warning,
                "Calendar '\(calendar)': item \(VdirFolder.printable(refused.name)) is not read: \(refused.reason)")
        }
        // The alarms of a chunk of items in one transaction: a calendar read at start is a few writes, not one per
        // item, and a firing's own write waits for one chunk at most.
        func store(_ planned: inout [(origin: String, alarms: [CalendarAlarmsStore.Alarm])]) {
            defer { planned = [] }
            guard !planned.isEmpty else { return }
            do {
                changed += try context.store.calendarAlarms.replace(planned, now: now).ids
            } catch {
                for (origin, _) in planned {
                    let name = String(origin.dropFirst(folder.count + 1))
                    (seen[name], unstored) = (nil, unstored.union([name]))  // read again at the next scan; not gone
                }
                context.say(.error, "Calendar '\(calendar)': the alarms of \(planned.count) items could not be stored: \(error)")
            }
        }
        var planned: [(origin: String, alarms: [CalendarAlarmsStore.Alarm])] = []
        for entry in listing.entries {
            seen[entry.name] = entry.etag
            guard before[entry.name] != entry.etag else { continue }
            let origin = folder + "/" + entry.name
            var alarms: [CalendarAlarmsStore.Alarm] = []
            do throws(CalendarItemRefused) {
                let text: String
                do { text = try vdir.read(entry) } catch { throw CalendarItemRefused(message: error.description) }
                alarms = try plan(text, entry: entry, calendar: calendar, now: now, zones: zones)
            } catch {
                reportOnce("\(origin) \(entry.etag)", .warning, "Calendar '\(calendar)': item \(entry.name) has no alarms here: \(error.message)")
            }
            planned.append((origin, alarms))
            if planned.count == Self.scanChunk {
                store(&planned)
                await yieldToQueuedWork()
            }
        }
        store(&planned)
        do {
            // Known since the last scan: what is no longer listed. Else (the first scan): what the store has.
            let gone = known[folder] != nil
                ? Set(before.keys.filter { seen[$0] == nil && !unstored.contains($0) }.map { folder + "/" + $0 })
                : try context.store.calendarAlarms.origins(in: folder).subtracting((Array(seen.keys) + unstored).map { folder + "/" + $0 })
            changed += try context.store.calendarAlarms.remove(origins: gone)
        } catch {
            context.say(.error, "Calendar '\(calendar)': the alarms of removed items could not be removed: \(error)")
        }
        known[folder] = seen
        return changed
    }

    /// The alarms of one item, or why it has none.
    private func plan(_ text: String, entry: VdirFolder.Entry, calendar: String, now: Instant, zones: CalendarImport.Zones) throws(CalendarItemRefused) -> [CalendarAlarmsStore.Alarm] {
        guard Self.components(in: text) <= Self.maximumComponents else {
            throw CalendarItemRefused(message: "it holds more than \(Self.maximumComponents) events or tasks (an item is one event with its overrides)")
        }
        let plan: CalendarImport
        do { plan = try CalendarImport(text, file: entry.name, all: false, now: now, zones: zones) } catch { throw CalendarItemRefused(message: error.description) }
        guard plan.reminders.count <= Self.maximumAlarms else {
            throw CalendarItemRefused(message: "it sets \(plan.reminders.count) alarms, more than the \(Self.maximumAlarms) an item may")
        }
        var alarms: [CalendarAlarmsStore.Alarm] = []
        for planned in plan.reminders {
            let rule: ReminderRule
            do { rule = try planned.rule.makeRule() } catch { throw CalendarItemRefused(message: error.message) }
            let zone: TimeZoneRules
            do { zone = try context.zone(named: planned.timeZone) } catch { throw CalendarItemRefused(message: error.message) }
            let firings = rule.occurrences(after: now, count: 3, in: zone).map(\.instant.secondsSinceEpoch)
            if zip(firings, firings.dropFirst()).contains(where: { $1 - $0 < Self.minimumSpacingSeconds }) {
                throw CalendarItemRefused(message: "line \(planned.line): its alarm would fire more often than once a minute")
            }
            alarms.append(CalendarAlarmsStore.Alarm(
                name: planned.name, rule: planned.rule, timeZone: planned.timeZone,
                delivery: Delivery(repeatPlan: planned.repeatSeconds.map { RepeatPlan(intervalSeconds: $0, maximum: planned.repeatMax) }, calendar: calendar)))
        }
        return alarms
    }

    /// How many events and tasks a text holds (BEGIN:VEVENT and BEGIN:VTODO at a line's start), counted on its
    /// bytes up to one more than the limit.
    static func components(in text: String) -> Int {
        var count = 0
        var atLineStart = true
        let events = Array("BEGIN:VEVENT".utf8), tasks = Array("BEGIN:VTODO".utf8)
        var utf8 = text.utf8[...]
        while let byte = utf8.first, count <= maximumComponents {
            if atLineStart, byte == UInt8(ascii: "B"), utf8.starts(with: events) || utf8.starts(with: tasks) { count += 1 }
            atLineStart = byte == UInt8(ascii: "\n")
            utf8 = utf8.dropFirst()
        }
        return count
    }

    private func zones() throws(ServiceError) -> CalendarImport.Zones {
        // The zone files' names, listed once (a VTIMEZONE of a name no system zone has is matched among them).
        let names = zoneNames ?? context.zoneFiles.allZoneNames()
        zoneNames = names
        return try context.importZones(names: names)
    }

    private func replan(_ ids: [Int64]) async {
        guard !ids.isEmpty else { return }
        if ids.count > Self.reloadThreshold {
            do { try await scheduling.load() } catch { context.say(.error, "Could not plan the calendars' alarms: \(error)") }
        } else {
            for id in Set(ids) { await scheduling.refresh(reminderID: id) }
        }
    }

    private func reportOnce(_ key: String, _ severity: DaemonMessage.Severity, _ text: String) {
        guard reported.insert(key).inserted else { return }
        context.say(severity, text)
    }
}

/// Why an item of a calendar sets no alarm.
struct CalendarItemRefused: Error {
    let message: String
}
