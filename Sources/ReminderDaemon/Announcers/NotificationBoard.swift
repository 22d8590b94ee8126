import Translation

/// What remindd's one desktop notification says, as a value: every occurrence announced and still due, then the
/// notes (missed, running low, a rest day suggested). remindd shows one notification at a time and updates it in
/// place, because notification servers queue: Debian's notification-daemon shows one bubble at a time and GNOME
/// Shell holds banners back while a critical one is up, so a second remindd bubble waited behind the first (a
/// dose hidden for over a minute behind a stock note).
///
/// The rules:
/// - One occurrence due: its own notification (Taken, Snooze, Skip; an event's alarm: Dismiss, Snooze).
/// - Several due (a group: everything announced and not yet taken, skipped or snoozed, whenever it came due):
///   one notification listing each with its dose, with Take all, Snooze all and Skip all. Each action names the
///   occurrences it acts on in its key, so a click acts on what that notification listed, never on a line added
///   after it was drawn. At most ``listed`` lines: the actions act on those, "and N more" says the rest.
/// - Notes join the due lines below them (no action of their own then); alone they are the notification, with
///   their action (Taken late, Mark rest day). They stay until the user closes the notification.
/// - Nothing due and no notes: no notification.
struct NotificationBoard: Sendable, Equatable {
    /// An occurrence announced and not yet acknowledged.
    struct Due: Sendable, Equatable {
        var reminderID: Int64
        var name: String
        /// `Take 2 tablets. Daily, Sun 08:00`, or an event's `personal: at Wed 21:34, in 15m`.
        var detail: String
        /// Its line among several: `Metformin 500 mg (Sun 08:00)`, `Dentist at Wed 21:34, in 15m`.
        var brief: String
        /// An event's alarm: dismissed, never taken.
        var event: Bool
        /// Critical urgency (a dose, or `--urgency critical`), unless quiet hours quiet it.
        var critical: Bool
        /// Announced during quiet hours: low urgency.
        var quiet: Bool
        var givesDose: Bool
        var repeated: Bool
        /// Shown again on a notification server that appeared.
        var shownAgain: Bool
        /// The Snooze button's length (the reminder's `--snooze`).
        var snoozeMinutes: Int
    }

    /// A note shown with the due occurrences, or alone.
    enum Note: Sendable, Equatable {
        case missed(reminderID: Int64, name: String, text: String)
        case lowStock(reminderID: Int64, name: String, text: String)
        case restSuggestion(date: String)
        /// The followed zone changed (travel): what moved and what stayed.
        case travelled(zone: String, text: String)
        /// A notice before an occurrence (`--before`): `Metformin in 15m`, `Take 500 mg at Thu 08:00`.
        case comingUp(reminderID: Int64, title: String, text: String)

        func title(in words: any MessageCatalog) -> String {
            switch self {
            case .comingUp(_, let title, _): title
            case .missed(_, let name, _): words(DaemonMessages.missedTitle, name)
            case .lowStock(_, let name, _): words(DaemonMessages.runningLowTitle, name)
            case .restSuggestion: words(DaemonMessages.restTitle)
            case .travelled(let zone, _): words(DaemonMessages.travelledTitle, zone)
            }
        }

        func text(in words: any MessageCatalog) -> String {
            switch self {
            case .missed(_, _, let text), .lowStock(_, _, let text), .comingUp(_, _, let text), .travelled(_, let text): text
            case .restSuggestion: words(DaemonMessages.restText)
            }
        }

        /// `Missed: Metformin: Sun 08:00: nothing logged by Sun 10:00`, a note's line under others.
        func line(in words: any MessageCatalog) -> String {
            words(DaemonMessages.noteLine, title(in: words), text(in: words))
        }

        var category: String {
            switch self {
            case .missed: "x-remindd.missed"
            case .lowStock: "x-remindd.stock"
            case .restSuggestion: "x-remindd.habit"
            case .comingUp: "x-remindd.before"
            case .travelled: "x-remindd.zone"
            }
        }
    }

    /// What the notification shows; the action keys say what each does (``Choice``).
    struct Content: Sendable, Equatable {
        var summary: String
        var body: String
        var actions: [Action]
        var critical: Bool
        var low: Bool
        var staying: Bool
        var category: String
        /// Occurrences are due: remindd plays a sound for them (the notification asks the server for none).
        var sounding: Bool
    }

    /// A button: its label, and what it does to which occurrences.
    struct Action: Sendable, Equatable {
        var choices: [Choice]
        var label: String
        /// The key the server hands back: `taken:7,taken:9`, `snooze:7/10`.
        var key: String { choices.map(\.key).joined(separator: ",") }
    }

    /// What a button does to one occurrence (or day).
    typealias Choice = DesktopAnnouncer.Action

    /// The most occurrences one notification lists (and its actions act on).
    static let listed = 8

    private(set) var due: [Due] = []
    private(set) var notes: [Note] = []

    /// An occurrence announced (or announced again: a repeat, a snooze that ended): its line, in place of the
    /// reminder's line before.
    mutating func announce(_ line: Due) {
        notes.removeAll { if case .comingUp(line.reminderID, _, _) = $0 { true } else { false } }
        if let index = due.firstIndex(where: { $0.reminderID == line.reminderID }) {
            due[index] = line
        } else {
            due.append(line)
        }
    }

    /// The reminder's occurrence was taken, skipped or snoozed: its line and its missed note go.
    mutating func settle(reminderID: Int64) {
        due.removeAll { $0.reminderID == reminderID }
        notes.removeAll { if case .missed(reminderID, _, _) = $0 { true } else { false } }
    }

    /// The reminder was deleted or disabled: its line and every note of it go.
    mutating func withdraw(reminderID: Int64) {
        due.removeAll { $0.reminderID == reminderID }
        notes.removeAll {
            switch $0 {
            case .missed(let id, _, _), .lowStock(let id, _, _), .comingUp(let id, _, _): id == reminderID
            case .restSuggestion, .travelled: false
            }
        }
    }

    /// The reminder's occurrence was missed: its line becomes a note.
    mutating func missed(reminderID: Int64, name: String, text: String) {
        settle(reminderID: reminderID)
        notes.append(.missed(reminderID: reminderID, name: name, text: text))
    }

    /// A note (running low, a rest day), in place of the same note before.
    mutating func note(_ note: Note) {
        notes.removeAll { Self.sameSubject($0, note) }
        notes.append(note)
    }

    /// The user closed the notification, or it expired: the notes were seen. What is due stays due (its next
    /// repeat, or the next change, shows it again).
    mutating func closed() {
        notes = []
    }

    /// What is due, all of it again (a notification server appeared: what the one before showed is gone).
    mutating func replaceDue(with lines: [Due]) {
        due = lines
    }

    private static func sameSubject(_ a: Note, _ b: Note) -> Bool {
        switch (a, b) {
        case (.missed(let x, _, _), .missed(let y, _, _)), (.lowStock(let x, _, _), .lowStock(let y, _, _)): x == y
        case (.restSuggestion, .restSuggestion), (.travelled, .travelled): true
        case (.comingUp(let x, _, _), .comingUp(let y, _, _)): x == y
        default: false
        }
    }

    /// The notification to show now, in the words of `words`; nil when there is nothing to show.
    func content(in words: any MessageCatalog) -> Content? {
        if due.isEmpty { return notesAlone(in: words) }
        let shown = Array(due.prefix(Self.listed))
        var summary: String
        var lines: [String]
        var actions: [Action]
        if let only = shown.first, due.count == 1 {
            summary = only.name
            lines = [only.detail]
            actions = Self.actions(for: only, in: words)
        } else {
            let names = shown.map(\.name).joined(separator: ", ") + (due.count > shown.count ? ", …" : "")
            summary = words(DaemonMessages.dueSummary, count: due.count, due.count, names)
            lines = shown.map(\.brief)
            if due.count > shown.count { lines.append(words(DaemonMessages.andMore, due.count - shown.count)) }
            actions = Self.groupActions(for: shown, all: due.count == shown.count, in: words)
        }
        if due.contains(where: \.repeated) { summary = words(DaemonMessages.stillNotTaken, summary) }
        if due.allSatisfy(\.shownAgain) { summary = words(DaemonMessages.shownAgain, summary) }
        lines += notes.map { $0.line(in: words) }
        let critical = due.contains { $0.critical && !$0.quiet }
        let category =
            due.contains(where: \.givesDose) ? "x-remindd.dose" : due.allSatisfy(\.event) ? "x-remindd.calendar" : "x-remindd.reminder"
        return Content(
            summary: summary, body: lines.joined(separator: "\n"), actions: actions, critical: critical,
            low: !critical && due.allSatisfy(\.quiet), staying: true, category: category, sounding: true)
    }

    private static func actions(for line: Due, in words: any MessageCatalog) -> [Action] {
        let snooze = Action(
            choices: [.snooze(reminderID: line.reminderID, minutes: line.snoozeMinutes)], label: words(DaemonMessages.snoozeMinutes, line.snoozeMinutes))
        if line.event { return [Action(choices: [.dismiss(reminderID: line.reminderID)], label: words(DaemonMessages.dismiss)), snooze] }
        return [
            Action(choices: [.taken(reminderID: line.reminderID)], label: words(DaemonMessages.taken)), snooze,
            Action(choices: [.skip(reminderID: line.reminderID)], label: words(DaemonMessages.skip)),
        ]
    }

    /// Take all (what can be taken: an event's alarm is not), Snooze all, Skip all (an event's alarm is
    /// dismissed); "Take 8" when the notification does not list every occurrence due.
    private static func groupActions(for lines: [Due], all: Bool, in words: any MessageCatalog) -> [Action] {
        let count = lines.count
        var actions: [Action] = []
        let takeable = lines.filter { !$0.event }
        if !takeable.isEmpty {
            let label = all ? words(DaemonMessages.takeAll) : words(DaemonMessages.takeThese, count)
            actions.append(Action(choices: takeable.map { .taken(reminderID: $0.reminderID) }, label: label))
        }
        // The shortest labels (no snooze length: each line snoozes for its own): Debian's notification-daemon
        // draws bubbles 400 px wide, and "Take these 8", "Snooze these 8, 10 min" and "Skip these 8" were wider,
        // so the close button and the last button were cut off.
        let snooze = all ? words(DaemonMessages.snoozeAll) : words(DaemonMessages.snoozeThese, count)
        actions.append(Action(choices: lines.map { .snooze(reminderID: $0.reminderID, minutes: $0.snoozeMinutes) }, label: snooze))
        let skip = all ? words(DaemonMessages.skipAll) : words(DaemonMessages.skipThese, count)
        actions.append(Action(choices: lines.map { $0.event ? .dismiss(reminderID: $0.reminderID) : .skip(reminderID: $0.reminderID) }, label: skip))
        return actions
    }

    /// The notes alone: the first's title (and how many more), every note's text, and their actions.
    private func notesAlone(in words: any MessageCatalog) -> Content? {
        guard let first = notes.first else { return nil }
        let missed = notes.compactMap { if case .missed(let id, let name, _) = $0 { (id, name) } else { nil } }
        var actions = missed.prefix(2).map { id, name in
            Action(
                choices: [.takenLate(reminderID: id)],
                label: missed.count == 1 ? words(DaemonMessages.takenLate) : words(DaemonMessages.nameTakenLate, name))
        }
        for case .restSuggestion(let date) in notes { actions.append(Action(choices: [.markRestDay(date)], label: words(DaemonMessages.markRestDay))) }
        let single = notes.count == 1
        // Notices before occurrences alone are low urgency: nothing is due yet.
        let onlyComingUp = notes.allSatisfy { if case .comingUp = $0 { true } else { false } }
        return Content(
            summary: single ? first.title(in: words) : notes.map { $0.title(in: words) }.joined(separator: "; "),
            body: single ? first.text(in: words) : notes.map { $0.line(in: words) }.joined(separator: "\n"), actions: actions,
            critical: false, low: onlyComingUp, staying: notes.contains { if case .restSuggestion = $0 { false } else { true } },
            category: first.category, sounding: false)
    }
}

extension DesktopAnnouncer.Action {
    /// Its part of an action key: `taken:7`, `snooze:7/10`, `rest:2026-03-02`.
    var key: String {
        switch self {
        case .taken(let id): "taken:\(id)"
        case .takenLate(let id): "late:\(id)"
        case .snooze(let id, let minutes): "snooze:\(id)/\(minutes)"
        case .skip(let id): "skip:\(id)"
        case .dismiss(let id): "dismiss:\(id)"
        case .markRestDay(let date): "rest:\(date)"
        }
    }

    /// The choices an action key names; empty for a key remindd did not write.
    static func parse(_ key: String) -> [Self] {
        var choices: [Self] = []
        for item in key.split(separator: ",") {
            let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return [] }
            let (verb, argument) = (parts[0], parts[1])
            if verb == "rest" {
                choices.append(.markRestDay(argument))
                continue
            }
            if verb == "snooze" {
                let pieces = argument.split(separator: "/")
                guard pieces.count == 2, let id = Int64(pieces[0]), let minutes = Int(pieces[1]) else { return [] }
                choices.append(.snooze(reminderID: id, minutes: minutes))
                continue
            }
            guard let id = Int64(argument) else { return [] }
            switch verb {
            case "taken": choices.append(.taken(reminderID: id))
            case "late": choices.append(.takenLate(reminderID: id))
            case "skip": choices.append(.skip(reminderID: id))
            case "dismiss": choices.append(.dismiss(reminderID: id))
            default: return []
            }
        }
        return choices
    }
}
