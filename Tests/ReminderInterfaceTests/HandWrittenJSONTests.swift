import Foundation
import ReminderInterface
import Testing
import VarlinkProtocol

/// The records whose JSON is written by hand (for speed: a Watch entry goes to every client) against what
/// their Codable encoding writes: the same document, with and without the optional fields.
@Suite struct HandWrittenJSONTests {
    @Test(arguments: [nil, "snoozed until 08:10"])
    func aWatchEntryIsWhatItsEncodingWrites(_ detail: String?) throws {
        let entry = HistoryEntryValue(
            reminderId: 7, reminderName: "Vitamin \"D\"", slot: "reminder-7-08-00", kind: "fired", scheduledUtc: "2026-11-24T08:00:00Z",
            handledUtc: "2026-11-24T08:00:01Z", lateSeconds: 1, slotsDue: 2, detail: detail, replanned: true)
        let reply = Reminders.Watch.Reply(entry: entry)
        let encoded = try JSONParser.parse(JSONEncoder().encode(reply))
        #expect(reply.jsonValue == encoded)
        #expect(try encoded.decode(Reminders.Watch.Reply.self) == reply)
        // Sent as its bytes written once: the same message as the value written for each client.
        let spliced = VarlinkWire.encode(VarlinkReply(preEncoded: reply, continues: true))
        #expect(spliced == VarlinkWire.encode(VarlinkReply(parameters: encoded, continues: true)))
        #expect(try JSONParser.parse(spliced) == .object(["continues": .bool(true), "parameters": encoded]))
    }
}
