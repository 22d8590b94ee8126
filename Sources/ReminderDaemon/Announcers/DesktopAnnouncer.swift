import HabitCore
import ReminderCore
import Synchronization
import SystemdSupport
import Translation

/// Shows announcements as desktop notifications (the freedesktop Desktop Notifications Specification) with
/// actions, and hands the actions the user chooses back to the daemon.
///
/// remindd shows one notification at a time, updated in place (`replaces_id`): what ``NotificationBoard``
/// says is due now, with the notes below. A repeat, a snooze that ended, a dose that came due, one taken (here,
/// from the CLI or on another device) update it; nothing left to show closes it. Notification servers queue
/// (Debian's notification-daemon shows one bubble at a time, GNOME Shell holds banners behind a critical one),
/// so a second bubble of remindd's own could hide a dose for as long as the first stayed.
///
/// Closing: Debian's notification-daemon 3.20 keeps drawing a bubble closed by `CloseNotification` (for any
/// client) and queues every later one behind it; only a bubble that expires goes. So a notification is closed
/// by replacing it with an expiring "Nothing is due now" first, then `CloseNotification` (a server that
/// closes it at once, as GNOME's does, never draws the replacement).
///
/// It stays until acted on (no timeout, `resident`). When the bus has no notification server, that is said once
/// in the journal, which stays the record of everything. When a notification server starts (a desktop logged
/// in, or its server restarted), everything still due is shown again at once, "(shown again)".
public final class DesktopAnnouncer: Announcer {
    /// What the user chose on a notification, for one occurrence (a group's button is several).
    public enum Action: Sendable, Hashable {
        case taken(reminderID: Int64)
        /// "Taken late" on the Missed note.
        case takenLate(reminderID: Int64)
        case snooze(reminderID: Int64, minutes: Int)
        case skip(reminderID: Int64)
        /// "Dismiss" on a calendar's alarm: its repeats stop (recorded as skipped, "dismissed").
        case dismiss(reminderID: Int64)
        case markRestDay(String)
    }

    fileprivate struct State {
        var board = NotificationBoard()
        var nextTag: UInt64 = 1
        /// The server's id of remindd's notification on screen (nil: none).
        var shownID: UInt32?
        /// A `Notify` whose id has not come yet: changes meanwhile wait for it, so that they replace it rather
        /// than show a second notification.
        var inFlight: UInt64?
        /// The board changed while a `Notify` was in flight: shown once its id comes.
        var stale = false
        /// `Notify` calls that close a notification (the expiring replacement), with the id they replace: a
        /// replacement given an id of its own (what it replaced was gone) is closed too.
        var farewells: [UInt64: UInt32] = [:]
        /// The action keys of the `Notify` in flight: what its notification offers, once its id comes.
        var inFlightKeys: [String] = []
        /// What remindd's notifications shown lately offered, by the id the server gave them (the last 16): a
        /// click is carried out only when it is one of these keys, from the server that showed it.
        var offered: [UInt32: Offer] = [:]
        /// The ids of `offered`, oldest first.
        var offeredOrder: [UInt32] = []
        /// A click was refused and said; later refusals are not (a client flooding the bus fills no journal).
        var refusalReported = false
        /// A failure was reported and nothing has been shown since: do not report again.
        var failureReported = false

        mutating func nextTagTaken() -> UInt64 {
            defer { nextTag += 1 }
            return nextTag
        }
    }

    /// What one notification offered: its action keys, and the unique bus name of the server that showed it.
    fileprivate struct Offer {
        var server: String
        var keys: Set<String>
    }

    /// The longest action key remindd writes is a few hundred bytes (8 lines of `snooze:ID/MINUTES`): a longer
    /// one was not written by remindd.
    static let longestKey = 1024

    /// What ``update()`` sends, decided under the lock and sent after it.
    private enum Sending {
        case nothing
        case show(DesktopNotifications.Notification, tag: UInt64)
        case close(UInt32, farewell: UInt64)
    }

    /// The occurrences announced and still due (the daemon's), to show again.
    public typealias StillDue = @Sendable () async -> [FiringEvent]

    private let notifications: DesktopNotifications
    /// remindd plays the sounds itself (``SoundAnnouncer``): a reminder's notification asks for none.
    private let playsSounds: Bool
    private let stillDue: StillDue
    private let report: @Sendable (DaemonMessage) -> Void
    private let state = Mutex(State())
    /// The language the notification speaks (the daemon's).
    private let wording: FiringWording
    private var words: any MessageCatalog { wording.words }

    public init(
        notifications: DesktopNotifications, playsSounds: Bool = false, words: any MessageCatalog, stillDue: @escaping StillDue = { [] },
        report: @escaping @Sendable (DaemonMessage) -> Void
    ) {
        self.notifications = notifications
        self.wording = FiringWording(words: words)
        self.playsSounds = playsSounds
        self.stillDue = stillDue
        self.report = report
    }

    /// Shows each firing again, "(shown again)" (none is played again: it was heard when it was announced).
    func showAgain(_ firings: [FiringEvent]) {
        guard !firings.isEmpty else { return }
        state.withLock { state in
            for firing in firings { state.board.announce(line(firing, again: true)) }
        }
        update()
    }

    public func announce(_ event: DaemonEvent) {
        state.withLock { state in
            switch event {
            case .firing(let firing) where firing.kind.reachesThePerson:
                state.board.announce(line(firing, again: false))
            case .occurrence(let occurrence) where occurrence.state == .missed:
                let firing = occurrence.firing
                state.board.missed(
                    reminderID: firing.reminder.id, name: firing.reminder.name,
                    text: words(DaemonMessages.nothingLoggedBy, wording.when(firing.occurrence), wording.when(firing.reminder.zone, occurrence.windowEnd)))
            case .occurrence(let occurrence):
                state.board.settle(reminderID: occurrence.firing.reminder.id)
            case .withdrawn(let reminderID):
                state.board.withdraw(reminderID: reminderID)
            case .lowStock(let notice):
                state.board.note(.lowStock(reminderID: notice.reminderID, name: notice.name, text: wording.stock(notice).capitalizedFirst))
            case .habit(.restSuggestion(let date)):
                state.board.note(.restSuggestion(date: date.description))
            case .travelled(let notice):
                let text = ([words(DaemonMessages.movedText, count: notice.moved, notice.moved)] + FiringWording.stays(notice, words)).joined(separator: "; ")
                state.board.note(.travelled(zone: notice.to, text: text))
            case .headsUp(let notice):
                let when = wording.when(notice.occurrence)
                state.board.note(.comingUp(
                    reminderID: notice.reminder.id,
                    title: words(DaemonMessages.comingUpTitle, notice.reminder.name, FiringWording.duration(seconds: Int64(notice.minutesBefore) * 60)),
                    text: wording.dose(notice.firing).map { words(DaemonMessages.takeDoseAt, $0, when) } ?? words(DaemonMessages.comingUpAt, when)))
            default:
                return
            }
        }
        update()
    }

    /// A firing's line: its name, what to take, when (an event's alarm: the event's own time).
    private func line(_ firing: FiringEvent, again: Bool) -> NotificationBoard.Due {
        let reminder = firing.firing.reminder
        let name = reminder.delivery.person.named(reminder.name)  // `Anna: Amoxicillin`
        let event = FiringWording.isEvent(reminder)
        let when = wording.when(firing.firing.occurrence)
        let detail: String
        let brief: String
        if event {
            let eventTime = wording.event(firing.firing)?.text ?? when
            detail = (reminder.delivery.calendar.map { "\($0): " } ?? "") + eventTime
            brief = "\(name) \(eventTime)"
        } else {
            let kind = words(DaemonMessages.kindDetail, wording.kind(of: reminder.rule).capitalizedFirst, when)
            let reason = firing.keptApart.map { "\n" + wording.keptApart($0, in: reminder.zone).capitalizedFirst } ?? ""
            let dose = wording.dose(firing.firing)
            detail = (dose.map { words(DaemonMessages.takeDose, $0) + " " + kind } ?? kind) + reason
            brief = "\(name)\(dose.map { " \($0)" } ?? "") (\(when))"
        }
        return NotificationBoard.Due(
            reminderID: reminder.id, name: name, detail: detail, brief: brief, event: event,
            // Quiet hours quiet only what is not critical: a reminder they quiet shows at low urgency.
            critical: reminder.delivery.critical && !firing.quiet, quiet: firing.quiet, givesDose: reminder.delivery.givesDose,
            repeated: firing.kind == .repeated, shownAgain: again, snoozeMinutes: reminder.delivery.notification.snooze)
    }

    /// Shows what the board says now: replaces the notification on screen, shows one, or closes it; waits for
    /// a `Notify` in flight (its id is what the next one replaces).
    private func update() {
        let sending = state.withLock { state -> Sending in
            if state.inFlight != nil {
                state.stale = true
                return .nothing
            }
            guard let content = state.board.content(in: words) else {
                guard let id = state.shownID else { return .nothing }
                state.shownID = nil
                let farewell = state.nextTagTaken()
                state.farewells[farewell] = id
                return .close(id, farewell: farewell)
            }
            let tag = state.nextTagTaken()
            state.inFlight = tag
            state.inFlightKeys = content.actions.map(\.key)
            return .show(
                DesktopNotifications.Notification(
                    summary: content.summary, body: content.body, actions: content.actions.map { (key: $0.key, label: $0.label) },
                    replacesID: state.shownID ?? 0, critical: content.critical, staying: content.staying, category: content.category,
                    suppressSound: content.sounding && (playsSounds || content.low), low: content.low),
                tag: tag)
        }
        switch sending {
        case .nothing:
            return
        case .show(let notification, let tag):
            notifications.notify(notification, tag: tag)
        case .close(let id, let farewell):
            notifications.notify(
                DesktopNotifications.Notification(
                    summary: "remindd", body: words(DaemonMessages.nothingDue), actions: [], replacesID: id, critical: false, staying: false,
                    suppressSound: true, low: true, expireMilliseconds: 1000),
                tag: farewell)
            notifications.close(id: id)
        }
    }

    /// Handles what the notification server says until the bus goes away: ids of shown notifications,
    /// failures (reported once), closed notifications, and the actions chosen, which `perform` carries out.
    /// - Parameter perform: carries out one choice; false when nothing of it applies now (its occurrence was
    ///   taken, skipped or deleted meanwhile): its line goes from the notification.
    public func run(perform: @escaping @Sendable (Action) async -> Bool) async {
        for await event in notifications.events {
            switch event {
            case .shown(let tag, let id, let server):
                shown(tag: tag, id: id, server: server)
            case .failed(let tag, let error):
                let first = state.withLock { state -> Bool in
                    state.farewells[tag] = nil
                    if tag == state.inFlight {
                        state.inFlight = nil
                        state.stale = false
                    }
                    defer { state.failureReported = true }
                    return !state.failureReported
                }
                if first {
                    report(DaemonMessage(.warning, "Desktop notifications are not shown: \(error) (no notification server on the session bus?); every reminder is still in the journal"))
                }
            case .closed(let id, let reason, let sender):
                // Closed by the user, or expired: its notes were seen. What is due stays due, and is shown at
                // its next change (a repeat, another dose due).
                state.withLock { state in
                    guard id == state.shownID, state.offered[id]?.server == sender else { return }
                    state.shownID = nil
                    if reason != 3 { state.board.closed() }
                }
            case .serverStarted:
                // The ids of the server before mean nothing now; what was due is shown again.
                state.withLock { state in
                    state.shownID = nil
                    state.inFlight = nil
                    state.stale = false
                    state.offered = [:]
                    state.offeredOrder = []
                    state.farewells = [:]
                }
                let lines = await stillDue().map { self.line($0, again: true) }
                state.withLock { $0.board.replaceDue(with: lines) }
                update()
            case .actionInvoked(let id, let key, let sender):
                guard let choices = choices(clicked: key, on: id, from: sender) else { continue }
                var nothingDue: [Int64] = []
                for choice in choices where await !perform(choice) {
                    if let id = choice.reminderID { nothingDue.append(id) }
                }
                // A line whose click found nothing due (taken elsewhere, deleted) goes from the notification.
                guard !nothingDue.isEmpty else { continue }
                state.withLock { state in for id in nothingDue { state.board.settle(reminderID: id) } }
                update()
            }
        }
    }

    /// The server answered a `Notify` with the notification's id: a farewell's (closed too when it got an id
    /// of its own: what it replaced was gone), or the one in flight, which now offers its buttons; a change made
    /// meanwhile is shown now.
    private func shown(tag: UInt64, id: UInt32, server: String) {
        let (closeFarewell, again) = state.withLock { state -> (Bool, Bool) in
            if let replaced = state.farewells.removeValue(forKey: tag) {
                state.forgetOffer(of: id)
                return (replaced != id, false)
            }
            guard tag == state.inFlight else { return (false, false) }
            state.inFlight = nil
            state.failureReported = false
            state.shownID = id
            state.remember(Offer(server: server, keys: Set(state.inFlightKeys)), of: id)
            defer { state.stale = false }
            return (false, state.stale)
        }
        if closeFarewell { notifications.close(id: id) }
        if again { update() }
    }

    /// The choices of a click on notification `id`, when it is one that notification offered and the server
    /// that showed it sent it; nil for anything else (another application's notification, whose clicks every
    /// client on the bus hears, passes silently; a key remindd did not offer, or one sent by another client,
    /// is refused, said once).
    private func choices(clicked key: String, on id: UInt32, from sender: String) -> [Action]? {
        let verdict = state.withLock { state -> String? in
            guard let offer = state.offered[id] else { return nil }
            if offer.server != sender { return "sent by \(sender), not by the notification server \(offer.server)" }
            if key.utf8.count > Self.longestKey { return "a key of \(key.utf8.count) bytes" }
            if !offer.keys.contains(key) { return "a choice the notification did not offer (\(key.prefix(80)))" }
            return ""
        }
        guard let verdict else { return nil }
        if verdict.isEmpty { return Action.parse(key) }
        let first = state.withLock { state in
            defer { state.refusalReported = true }
            return !state.refusalReported
        }
        if first { report(DaemonMessage(.warning, "A click on remindd's notification was refused: \(verdict); nothing was logged (later refusals are not said)")) }
        return nil
    }
}

extension DesktopAnnouncer.State {
    /// Keeps what notification `id` offers (in place of what it offered before an update), forgetting the oldest
    /// beyond 16.
    fileprivate mutating func remember(_ offer: DesktopAnnouncer.Offer, of id: UInt32) {
        offeredOrder.removeAll { $0 == id }
        offeredOrder.append(id)
        offered[id] = offer
        while offeredOrder.count > 16 { offered[offeredOrder.removeFirst()] = nil }
    }

    /// Notification `id` was replaced by an expiring "Nothing is due now": it offers nothing.
    fileprivate mutating func forgetOffer(of id: UInt32) {
        offeredOrder.removeAll { $0 == id }
        offered[id] = nil
    }
}

extension DesktopAnnouncer.Action {
    /// The reminder the choice acts on (nil: a rest day).
    var reminderID: Int64? {
        switch self {
        case .taken(let id), .takenLate(let id), .snooze(let id, _), .skip(let id), .dismiss(let id): id
        case .markRestDay: nil
        }
    }
}

extension String {
    /// `Twice a day` from `twice a day`.
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
