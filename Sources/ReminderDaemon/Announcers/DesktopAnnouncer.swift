import HabitCore
import ReminderCore
import Synchronization
import SystemdSupport

/// Shows announcements as desktop notifications (the freedesktop Desktop Notifications Specification) with
/// actions, and hands the actions the user chooses back to the daemon.
///
/// A reminder's notification, and the note that it was missed, stay until acted on or replaced (they do not
/// expire after the server's few seconds, as they did). One notification per reminder: a repeat, a snooze or
/// the reminder's next occurrence replaces it
/// (`replaces_id`), never stacks; a log or a skip closes it (`CloseNotification`); a missed occurrence
/// replaces it with a note that offers "Taken late". A calendar's alarm offers Dismiss and Snooze. The rest suggestion offers "Mark rest day". When the bus has no
/// notification server, that is said once in the journal, which stays the record of everything. When a notification
/// server starts (a desktop logged in, or its server restarted), every occurrence still due is shown again at once,
/// "(shown again)": what the server before showed is gone.
public final class DesktopAnnouncer: Announcer {
    /// What the user chose on a notification.
    public enum Action: Sendable, Hashable {
        case taken(reminderID: Int64)
        /// "Taken late" on the Missed notification.
        case takenLate(reminderID: Int64)
        case snooze(reminderID: Int64, minutes: Int)
        case skip(reminderID: Int64)
        /// "Dismiss" on a calendar's alarm: its repeats stop (recorded as skipped, "dismissed").
        case dismiss(reminderID: Int64)
        case markRestDay(String)
    }

    /// What a notification is about.
    private enum Subject: Hashable {
        case reminder(Int64)
        case restSuggestion(String)
        case lowStock(Int64)
    }

    private struct State {
        var nextTag: UInt64 = 1
        /// Notify calls waiting for their id.
        var pending: [UInt64: Subject] = [:]
        /// Subjects whose notification is to be closed as soon as its id comes.
        var closeWhenShown: Set<UInt64> = []
        var shown: [Subject: UInt32] = [:]
        var subjects: [UInt32: Subject] = [:]
        /// A failure was reported and nothing has been shown since: do not report again.
        var failureReported = false
        /// The Snooze button's length of each reminder shown (its `--snooze`).
        var snoozeMinutes: [Int64: Int] = [:]
    }

    /// The occurrences announced and still due (the daemon's), to show again.
    public typealias StillDue = @Sendable () async -> [FiringEvent]

    private let notifications: DesktopNotifications
    /// remindd plays the sounds itself (``SoundAnnouncer``): a reminder's notification asks for none.
    private let playsSounds: Bool
    private let stillDue: StillDue
    private let report: @Sendable (DaemonMessage) -> Void
    private let state = Mutex(State())

    public init(
        notifications: DesktopNotifications, playsSounds: Bool = false, stillDue: @escaping StillDue = { [] },
        report: @escaping @Sendable (DaemonMessage) -> Void
    ) {
        self.notifications = notifications
        self.playsSounds = playsSounds
        self.stillDue = stillDue
        self.report = report
    }

    /// Shows each firing again, "(shown again)" (none is played again: it was heard when it was announced).
    func showAgain(_ firings: [FiringEvent]) {
        for firing in firings { show(firing, again: true) }
    }

    public func announce(_ event: DaemonEvent) {
        switch event {
        case .firing(let firing) where firing.kind.reachesThePerson:
            show(firing, again: false)
        case .occurrence(let occurrence):
            let subject = Subject.reminder(occurrence.firing.reminder.id)
            if occurrence.state == .missed {
                show(subject, summary: "Missed: \(occurrence.firing.reminder.name)",
                    body: "\(FiringWording.when(occurrence.firing.occurrence)): nothing logged by \(FiringWording.when(occurrence.firing.reminder.zone, occurrence.windowEnd))",
                    actions: [("late", "Taken late")], critical: false, staying: true, category: "x-remindd.missed")
            } else {
                close(subject)
            }
        case .lowStock(let notice):
            show(.lowStock(notice.reminderID), summary: "Running low: \(notice.name)", body: notice.text.prefix(1).uppercased() + notice.text.dropFirst(),
                actions: [], critical: false, staying: true, category: "x-remindd.stock")
        case .habit(.restSuggestion(let date)):
            show(.restSuggestion(date.description), summary: "Consider a rest day", body: "6 active days in a row: rest is part of training.",
                actions: [("rest", "Mark rest day")], critical: false, staying: false, category: "x-remindd.habit")
        default:
            return
        }
    }

    /// A reminder's notification for an announced firing (`again`: shown again for a server that appeared).
    private func show(_ firing: FiringEvent, again: Bool) {
        let reminder = firing.firing.reminder
        var summary = reminder.name
        if firing.kind == .repeated { summary += " (still not taken)" }
        if again { summary += " (shown again)" }
        let snooze = reminder.delivery.notification.snooze
        // Quiet hours quiet only what is not critical: a reminder they quiet shows at low urgency.
        let critical = reminder.delivery.critical && !firing.quiet
        state.withLock { $0.snoozeMinutes[reminder.id] = snooze }
        if FiringWording.isEvent(reminder) {
            // An event's alarm: nothing to take, so Dismiss (and no Skip); it says the event's own time.
            let when = FiringWording.event(firing.firing)?.text ?? FiringWording.when(firing.firing.occurrence)
            show(.reminder(reminder.id), summary: summary, body: (reminder.delivery.calendar.map { "\($0): " } ?? "") + when,
                actions: [("dismiss", "Dismiss"), ("snooze", "Snooze \(snooze) min")], critical: critical, staying: true,
                category: "x-remindd.calendar", sounding: true, low: firing.quiet)
        } else {
            let dose = firing.firing.dose.map { "Take \($0.description). " } ?? ""
            show(.reminder(reminder.id), summary: summary, body: "\(dose)\(FiringWording.kind(of: reminder.rule).capitalizedFirst), \(FiringWording.when(firing.firing.occurrence))",
                actions: [("taken", "Taken"), ("snooze", "Snooze \(snooze) min"), ("skip", "Skip")], critical: critical,
                staying: true, category: reminder.delivery.givesDose ? "x-remindd.dose" : "x-remindd.reminder", sounding: true, low: firing.quiet)
        }
    }

    /// Shows or replaces the subject's notification; `sounding`: an announcement remindd plays a sound for, whose
    /// notification asks the server to play none when remindd plays its own; `low`: low urgency (quiet hours).
    private func show(
        _ subject: Subject, summary: String, body: String, actions: [(String, String)], critical: Bool, staying: Bool, category: String,
        sounding: Bool = false, low: Bool = false
    ) {
        let (tag, replaces) = state.withLock { state in
            defer { state.nextTag += 1 }
            state.pending[state.nextTag] = subject
            return (state.nextTag, state.shown[subject] ?? 0)
        }
        notifications.notify(
            .init(
                summary: summary, body: body, actions: actions.map { (key: $0.0, label: $0.1) }, replacesID: replaces, critical: critical, staying: staying,
                category: category, suppressSound: sounding && (playsSounds || low), low: low),
            tag: tag)
    }

    private func close(_ subject: Subject) {
        let id: UInt32? = state.withLock { state in
            if let id = state.shown.removeValue(forKey: subject) {
                state.subjects[id] = nil
                return id
            }
            // Not shown yet: close it as soon as its id comes.
            for (tag, pending) in state.pending where pending == subject { state.closeWhenShown.insert(tag) }
            return nil
        }
        if let id { notifications.close(id: id) }
    }

    /// Handles what the notification server says until the bus goes away: ids of shown notifications,
    /// failures (reported once), closed notifications, and the actions chosen, which `perform` carries out.
    public func run(perform: @escaping @Sendable (Action) async -> Void) async {
        for await event in notifications.events {
            switch event {
            case .shown(let tag, let id):
                let closeNow = state.withLock { state -> Bool in
                    state.failureReported = false
                    guard let subject = state.pending.removeValue(forKey: tag) else { return false }
                    if state.closeWhenShown.remove(tag) != nil { return true }
                    if let old = state.shown[subject], old != id { state.subjects[old] = nil }
                    state.shown[subject] = id
                    state.subjects[id] = subject
                    return false
                }
                if closeNow { notifications.close(id: id) }
            case .failed(let tag, let error):
                let first = state.withLock { state -> Bool in
                    state.pending[tag] = nil
                    state.closeWhenShown.remove(tag)
                    defer { state.failureReported = true }
                    return !state.failureReported
                }
                if first {
                    report(DaemonMessage(.warning, "Desktop notifications are not shown: \(error) (no notification server on the session bus?); every reminder is still in the journal"))
                }
            case .closed(let id, _):
                state.withLock { state in
                    if let subject = state.subjects.removeValue(forKey: id), state.shown[subject] == id { state.shown[subject] = nil }
                }
            case .serverStarted:
                // The ids of the server before mean nothing now; what was due is shown again.
                state.withLock { state in
                    state.shown = [:]
                    state.subjects = [:]
                }
                showAgain(await stillDue())
            case .actionInvoked(let id, let key):
                guard let subject = state.withLock({ $0.subjects[id] }) else { continue }
                switch (subject, key) {
                case (.reminder(let reminderID), "taken"): await perform(.taken(reminderID: reminderID))
                case (.reminder(let reminderID), "late"): await perform(.takenLate(reminderID: reminderID))
                case (.reminder(let reminderID), "snooze"):
                    let minutes = state.withLock { $0.snoozeMinutes[reminderID] } ?? NotificationSettings.defaultSnoozeMinutes
                    await perform(.snooze(reminderID: reminderID, minutes: minutes))
                case (.reminder(let reminderID), "skip"): await perform(.skip(reminderID: reminderID))
                case (.reminder(let reminderID), "dismiss"): await perform(.dismiss(reminderID: reminderID))
                case (.restSuggestion(let date), "rest"): await perform(.markRestDay(date))
                default: continue
                }
            }
        }
    }
}

extension String {
    /// `Twice a day` from `twice a day`.
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
