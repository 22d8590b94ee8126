import ArgumentParser
import ReminderCore
import ReminderInterface

/// `remindctl travel`: which reminders move to local time when the zone changes, and which keep their own.
struct TravelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "travel", abstract: "Which reminders move to local time when you travel, and which keep their own zone.",
        discussion: """
            A reminder without a zone of its own (added without --tz, or with --tz local) follows remindd's zone: \
            its times are local wherever the computer is. One with --tz ZONE keeps that zone: shown with its next \
            time there and here. 'remindctl update NAME --tz local' or '--tz Europe/Berlin' moves one from one \
            group to the other.

            Examples:
              remindctl travel
              remindctl travel --json
            """)

    @Flag(help: "Print both groups as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions

    /// What `--json` prints.
    struct Groups: Encodable {
        /// The zone remindd follows, and the reminders that follow it.
        let followedZone: String
        let local: [String]
        let ownZone: [Kept]
    }

    /// A reminder that keeps its zone, with its next time there (ISO 8601, its zone's offset).
    struct Kept: Encodable {
        let name: String
        let timeZone: String
        let next: String?
    }

    func run() throws {
        let (status, reminders) = (try connection.call(Reminders.Status.self), try connection.allReminders())
        let own = reminders.filter { $0.delivery.calendar == nil }
        let groups = Groups(
            followedZone: status.timeZone, local: own.filter { $0.timeZone == nil }.map(\.name),
            ownZone: own.compactMap { reminder in reminder.timeZone.map { Kept(name: reminder.name, timeZone: $0, next: reminder.next?.local) } })
        if json { return try out.json(groups) }
        out.print(out.words(CommandMessages.travelLocal, groups.followedZone, groups.local.isEmpty ? "-" : groups.local.joined(separator: ", ")))
        guard !groups.ownZone.isEmpty else { return }
        out.print(out.words(CommandMessages.travelKept))
        out.table(
            out.headings(CommandMessages.name, CommandMessages.zone, CommandMessages.next, CommandMessages.here),
            groups.ownZone.map { kept in
                [kept.name, kept.timeZone, kept.next.map { String($0.dropFirst(11).prefix(5)) } ?? "-", kept.next.map { out.time($0) } ?? "-"]
            })
    }
}
