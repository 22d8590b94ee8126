import Foundation
import ReminderInterface
import Testing
import VarlinkProtocol

/// The records whose JSON is written by hand (for speed: a Watch entry goes to every client) against what
/// their Codable encoding writes: the same document, with and without the optional fields.
@Suite struct HandWrittenJSONTests {
    /// Every optional field left out, then each set (a repeated firing's count, a log's amount and unit, a
    /// forced log, a person), with text that needs escaping and a fractional amount.
    static let entries: [HistoryEntryValue] = {
        let bare = HistoryEntryValue(
            reminderId: 7, reminderName: "Vitamin \"D\"\n\u{1}é/", slot: "reminder-7-08-00", kind: "fired", scheduledUtc: "2026-11-24T08:00:00Z",
            handledUtc: "2026-11-24T08:00:01Z", lateSeconds: 0, slotsDue: 12, detail: nil, replanned: true)
        var full = HistoryEntryValue(
            reminderId: -3, reminderName: "Ibuprofen", slot: "", kind: "taken-late", scheduledUtc: "2026-11-24T08:00:00Z",
            handledUtc: "2026-11-24T09:00:00Z", lateSeconds: 3600, slotsDue: 1, detail: "snoozed until 08:10", replanned: false,
            announcedAgain: 2, lastAnnouncedUtc: "2026-11-24T08:20:00Z")
        (full.amount, full.unit, full.forced, full.person) = (0.5, "tablet", true, "Mum")
        var whole = full
        whole.amount = 2
        return [bare, full, whole]
    }()

    @Test(arguments: entries)
    func aWatchEntryIsWhatItsEncodingWrites(_ entry: HistoryEntryValue) throws {
        let reply = Reminders.Watch.Reply(entry: entry)
        let written = try JSONEncoder.sortedWithoutEscapingSlashes.encode(reply)
        #expect(reply.encodedJSON == Array(written))
        let encoded = try JSONParser.parse(written)
        #expect(try encoded.decode(Reminders.Watch.Reply.self) == reply)
        // Sent as its bytes written once: the same message as the value written for each client.
        let preEncoded = VarlinkReply(preEncoded: reply, continues: true)
        #expect(try preEncoded.readingParameters().parameters == encoded)
        let spliced = VarlinkWire.encode(preEncoded)
        #expect(spliced == VarlinkWire.encode(VarlinkReply(parameters: encoded, continues: true)))
        #expect(try JSONParser.parse(spliced) == .object(["continues": .bool(true), "parameters": encoded]))
    }
}

extension JSONEncoder {
    /// Configured as the daemon's messages are written: keys sorted, slashes as they are.
    static var sortedWithoutEscapingSlashes: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
