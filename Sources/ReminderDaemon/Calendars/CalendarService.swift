import Foundation
import ReminderCore
import ReminderStore
import SystemdSupport

/// The alarms of the read-only calendars in `config.toml`'s `calendars` (khal's folders, a subscribed feed kept
/// by vdirsyncer): every VALARM of their events and tasks fires like a reminder, dismissed or snoozed rather
/// than taken (pimutils/khal#148). A calendar is never written.
///
/// A scan lists a folder (or looks at the entries the watcher named), reads the items whose etag (mtime, inode,
/// size) differs from the one their alarms were planned from (kept in the store, so a restart reads only what
/// changed meanwhile), plans them with ``CalendarImport`` (as `remindctl import --format ics`) on the thread
/// pool, and replaces their alarms in the store, a chunk per transaction; an item gone from the folder takes its
/// alarms with it. An item that cannot be used (not iCalendar, too large, a link, a rule that fires more than once
/// a minute) is reported once per version and has no alarms; the others work. Scans run one at a time.
actor CalendarService {
    /// On the folders' own thread (``DedicatedThread/folders``): reading thousands of items holds up no call.
    nonisolated var unownedExecutor: UnownedSerialExecutor { DedicatedThread.folders }
    private let context: DaemonContext
    /// The stores it holds: the calendars' alarms.
    private let stores: Stores
    /// `~/` in the configured folders.
    private let home: String
    /// Problems already reported (an item's path, or a folder's error): each is said once per start, however often
    /// the item changes (a bad item rewritten every 40 ms was said at every version: 1,455 lines a minute).
    private var reported: Set<String> = []
    /// Folders being scanned (a scan lets other work run between items), and those changed again meanwhile.
    private var scanning: Set<String> = []
    private var changedWhileScanning: Set<String> = []
    /// Every zone name of the zone files, once read.
    private var zoneNames: [String]?
    /// Stored with each item's etag: a remindd that plans items otherwise reads them all again. 2: an alarm
    /// related to an event's end whose days and the event's length have opposite signs is planned at its right
    /// time (it fired a day and an hour early before; the items read by version 1 are read again once).
    static let planVersion = 2
    /// Items read and planned in one go on the thread pool, and stored in one transaction.
    static let scanChunk = 100
    /// Chunks planned at once: one per core.
    static let lanes = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// The most events and tasks one item may hold (a recurring event with its overrides is a few dozen).
    static let maximumComponents = 1000
    /// The most alarms one item may set.
    static let maximumAlarms = 100
    /// The least time between two firings of one alarm.
    static let minimumSpacingSeconds: Int64 = 60

    init(context: DaemonContext, stores: Stores, home: String) {
        (self.context, self.stores, self.home) = (context, stores, home)
    }

    /// The configured folders, as absolute paths.
    nonisolated var folders: [String] { context.settings.configuration.calendarFolders(home: home) }

    /// Scans every configured folder, and removes the alarms of folders no longer configured.
    func scanAll() async {
        let folders = self.folders
        let began = ContinuousClock.now
        var changed: [Int64] = []
        do {
            let dropped = try stores.calendarAlarms.folders().subtracting(folders)
            for folder in dropped { changed += try stores.calendarAlarms.removeAll(in: folder) }
        } catch {
            context.say(.error, "Could not remove the alarms of calendars no longer in the config: \(error)")
        }
        var (items, read) = (0, 0)
        for folder in folders {
            let scan = await scanned(folder)
            (changed, items, read) = (changed + scan.changed, items + scan.items, read + scan.read)
        }
        await context.feed.deliver()
        guard !folders.isEmpty else { return }
        let elapsed = (ContinuousClock.now - began) / .milliseconds(1)
        let message = folders.count == 1 ? DaemonMessages.calendarsReadInOne : DaemonMessages.calendarsRead
        context.say(.info, message, count: items, items, read, Set(changed).count, Int(elapsed), folders.count)
    }

    /// Scans one folder (the watcher saw a change in it): only the entries `names` when given, else all of it.
    func scan(_ folder: String, names: Set<String>? = nil) async {
        guard folders.contains(folder) else { return }
        // The calendar renamed (vdirsyncer's metasync writes `displayname`): every alarm names it.
        let names = names?.contains("displayname") == true ? nil : names
        _ = await scanned(folder, names: names)
        await context.feed.deliver()
    }

    /// What a scan did: the reminder ids to re-plan, how many items the folder has (when read whole), and how
    /// many of them were read (new or changed since their alarms were planned).
    private struct Scan {
        var changed: [Int64] = []
        var items = 0
        var read = 0
    }

    /// Reads what changed in `folder` and stores its alarms, again if it changed meanwhile; a folder being
    /// scanned already is scanned (whole) once more after.
    private func scanned(_ folder: String, names: Set<String>? = nil) async -> Scan {
        guard scanning.insert(folder).inserted else {
            changedWhileScanning.insert(folder)
            return Scan()
        }
        var scan = await scannedOnce(folder, names: names)
        while changedWhileScanning.remove(folder) != nil {
            let again = await scannedOnce(folder, names: nil)
            (scan.changed, scan.items, scan.read) = (scan.changed + again.changed, again.items, scan.read + again.read)
        }
        scanning.remove(folder)
        return scan
    }

    private func scannedOnce(_ folder: String, names: Set<String>?) async -> Scan {
        let vdir = VdirFolder(path: folder)
        guard let listing = listing(of: vdir, names: names) else { return Scan() }
        let calendar = vdir.displayName
        // What the alarms of each item were planned from (kept in the store: an item unchanged since the last
        // start is not read again), and what they are now planned from.
        let before: [String: String]
        let zones: CalendarImport.Zones
        do {
            before = try stores.calendarAlarms.etags(in: folder, named: names)
            zones = try self.zones()
        } catch {
            context.say(.error, "Calendar '\(calendar)' is not read: \(error)")
            return Scan()
        }
        for refused in listing.refused {
            reportOnce("\(folder)/\(refused.name) \(refused.reason)", .warning,
                "Calendar '\(calendar)': item \(VdirFolder.printable(refused.name)) is not read: \(refused.reason)")
        }
        let unread = listing.entries.filter { before[$0.name] != Self.etag(of: $0, in: calendar) }
        // The items are opened by name in the folder, opened once (nil, if it cannot be: each by its path).
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if directory >= 0 { close(directory) } }
        let planner = ItemPlanner(
            context: context, folder: vdir, directory: directory >= 0 ? directory : nil, calendar: calendar, now: context.clock.now(), zones: zones)
        var changed = await plannedAndStored(unread, by: planner)
        changed += removed(from: folder, calendar: calendar, listed: listing.entries, before: before, wholeFolder: names == nil)
        return Scan(changed: changed, items: listing.entries.count, read: unread.count)
    }

    /// The folder's entries (or those `names`), and those refused; nil when it cannot be read (its alarms stay).
    private func listing(of vdir: VdirFolder, names: Set<String>?) -> (entries: [VdirFolder.Entry], refused: [VdirFolder.Refused])? {
        do {
            let listing = if let names { vdir.look(at: names) } else { try vdir.list() }
            reported.remove("folder \(vdir.path) \(ENOENT)")
            return listing
        } catch {
            // Its alarms stay: a folder on a disk not mounted yet is not a calendar emptied.
            reportOnce("folder \(vdir.path) \(error.code)", .warning, "Calendar folder \(vdir.path) cannot be read (\(error)); its alarms stay as they were until it can")
            return nil
        }
    }

    /// What an item's alarms are planned from: its file's version, remindd's way of planning, the calendar's name.
    private static func etag(of entry: VdirFolder.Entry, in calendar: String) -> String { "\(entry.etag) v\(planVersion) \(calendar)" }

    /// Reads and plans `unread` on the thread pool, a few chunks at once (one per core), while the chunks planned
    /// are stored here in their order (an alarm's name depends on which came first). - Returns: the ids changed.
    private func plannedAndStored(_ unread: [VdirFolder.Entry], by planner: ItemPlanner) async -> [Int64] {
        let chunks = stride(from: 0, to: unread.count, by: Self.scanChunk).map { Array(unread[$0..<min($0 + Self.scanChunk, unread.count)]) }
        var changed: [Int64] = []
        await withTaskGroup(of: (index: Int, planned: [ItemPlanner.Planned]).self) { group in
            var (next, stored, done) = (0, 0, [Int: [ItemPlanner.Planned]]())
            func startNext() {
                guard next < chunks.count else { return }
                let (index, chunk) = (next, chunks[next])
                group.addTask { (index, await offTheEventLoops { planner.plan(chunk) }) }
                next += 1
            }
            for _ in 0...Self.lanes { startNext() }
            while let finished = await group.next() {
                done[finished.index] = finished.planned
                while let planned = done.removeValue(forKey: stored) {
                    changed += store(planned, folder: planner.folder.path, calendar: planner.calendar, now: planner.now)
                    stored += 1
                    startNext()
                }
            }
        }
        return changed
    }

    /// Stores the alarms of a chunk of items in one transaction (a calendar read at start is a few writes, not one
    /// per item, and a firing's own write waits for one chunk at most). - Returns: the ids changed.
    private func store(_ planned: [ItemPlanner.Planned], folder: String, calendar: String, now: Instant) -> [Int64] {
        for item in planned {
            if let refusal = item.refusal {
                reportOnce("\(folder)/\(item.entry.name)", .warning, "Calendar '\(calendar)': item \(item.entry.name) has no alarms here: \(refusal)")
            }
        }
        do {
            let items = planned.map {
                CalendarAlarmsStore.Item(origin: folder + "/" + $0.entry.name, etag: Self.etag(of: $0.entry, in: calendar), alarms: $0.alarms)
            }
            return try stores.calendarAlarms.replace(items, now: now).ids
        } catch {
            // Their etags are not stored either: read again at the next scan.
            context.say(.error, "Calendar '\(calendar)': the alarms of \(planned.count) items could not be stored: \(error)")
            return []
        }
    }

    /// Removes the alarms of what was read and is no longer listed; when the folder was read whole, also those
    /// stored without an item read (by a remindd before the items were kept). - Returns: the ids removed.
    private func removed(from folder: String, calendar: String, listed entries: [VdirFolder.Entry], before: [String: String], wholeFolder: Bool) -> [Int64] {
        do {
            let listed = Set(entries.map { folder + "/" + $0.name })
            var gone = Set(before.keys.map { folder + "/" + $0 }).subtracting(listed)
            if wholeFolder { gone.formUnion(try stores.calendarAlarms.origins(in: folder).subtracting(listed)) }
            return try stores.calendarAlarms.remove(origins: gone)
        } catch {
            context.say(.error, "Calendar '\(calendar)': the alarms of removed items could not be removed: \(error)")
            return []
        }
    }

    private func zones() throws(ServiceError) -> CalendarImport.Zones {
        // The zone files' names, listed once (a VTIMEZONE of a name no system zone has is matched among them).
        let names = zoneNames ?? context.settings.zoneFiles.allZoneNames()
        zoneNames = names
        return try context.settings.importZones(names: names)
    }

    private func reportOnce(_ key: String, _ severity: DaemonMessage.Severity, _ text: String) {
        guard reported.insert(key).inserted else { return }
        context.say(severity, text)
    }
}

/// Reads and plans the items of a calendar folder, off the actor: a calendar of 20,000 items read at start keeps
/// every core busy rather than one.
struct ItemPlanner: Sendable {
    let context: DaemonContext
    let folder: VdirFolder
    /// The folder's descriptor, open while the planner is used (see ``VdirFolder/read(_:in:)``).
    let directory: Int32?
    let calendar: String
    let now: Instant
    let zones: CalendarImport.Zones

    /// An item read: its alarms, or why it has none.
    struct Planned: Sendable {
        var entry: VdirFolder.Entry
        var alarms: [CalendarAlarmsStore.Alarm]
        var refusal: String?
    }

    func plan(_ entries: [VdirFolder.Entry]) -> [Planned] {
        entries.map { entry in
            do throws(CalendarItemRefused) {
                let text: String
                do throws(SystemError) { text = try folder.read(entry, in: directory) } catch { throw CalendarItemRefused(message: error.description) }
                return Planned(entry: entry, alarms: try alarms(text, entry: entry))
            } catch {
                return Planned(entry: entry, alarms: [], refusal: error.message)
            }
        }
    }

    /// The alarms of one item, or why it has none.
    private func alarms(_ text: String, entry: VdirFolder.Entry) throws(CalendarItemRefused) -> [CalendarAlarmsStore.Alarm] {
        guard Self.components(in: text) <= CalendarService.maximumComponents else {
            throw CalendarItemRefused(message: "it holds more than \(CalendarService.maximumComponents) events or tasks (an item is one event with its overrides)")
        }
        let plan: CalendarImport
        do { plan = try CalendarImport(text, file: entry.name, all: false, now: now, zones: zones) } catch { throw CalendarItemRefused(message: error.description) }
        guard plan.reminders.count <= CalendarService.maximumAlarms else {
            throw CalendarItemRefused(message: "it sets \(plan.reminders.count) alarms, more than the \(CalendarService.maximumAlarms) an item may")
        }
        var alarms: [CalendarAlarmsStore.Alarm] = []
        // The item's alarms together fire at most once a minute: 60 alarms a second apart are a flood, however
        // each of them is spaced.
        var firings: [Int64] = []
        for planned in plan.reminders {
            let zone: TimeZoneRules
            do { zone = try context.settings.zone(named: planned.timeZone) } catch { throw CalendarItemRefused(message: error.message) }
            firings.append(planned.firstFiring.secondsSinceEpoch)
            firings += planned.builtRule.occurrences(after: planned.firstFiring, count: 2, in: zone).map(\.instant.secondsSinceEpoch)
            alarms.append(CalendarAlarmsStore.Alarm(
                name: planned.name, rule: planned.rule, timeZone: planned.timeZone,
                delivery: Delivery(repeating: planned.repeating, calendar: calendar)))
        }
        firings.sort()
        if zip(firings, firings.dropFirst()).contains(where: { $1 - $0 < CalendarService.minimumSpacingSeconds }) {
            throw CalendarItemRefused(message: "its alarms would fire more often than once a minute")
        }
        return alarms
    }

    /// How many events and tasks a text holds (BEGIN:VEVENT and BEGIN:VTODO at a line's start), counted up to
    /// one more than the limit, a line at a time on the text's bytes (a byte at a time through `Substring`'s
    /// view was 2% of a first read of 20,000 items).
    static func components(in text: String) -> Int {
        let events = Array("BEGIN:VEVENT".utf8), tasks = Array("BEGIN:VTODO".utf8)
        var text = text
        return text.withUTF8 { bytes in
            var count = 0
            var line = bytes[...]
            while !line.isEmpty, count <= CalendarService.maximumComponents {
                if line.starts(with: events) || line.starts(with: tasks) { count += 1 }
                guard let end = line.firstIndex(of: UInt8(ascii: "\n")) else { break }
                line = line[(end + 1)...]
            }
            return count
        }
    }
}

/// Why an item of a calendar sets no alarm.
struct CalendarItemRefused: Error {
    let message: String
}

extension CalendarService {
    /// The stores CalendarService holds, and no other: the calendars' alarms.
    struct Stores: Sendable {
        let calendarAlarms: CalendarAlarmsStore
    }
}
