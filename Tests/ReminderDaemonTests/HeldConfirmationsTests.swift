import Testing

@testable import ReminderDaemon

/// Confirmations queued behind others on the journal's thread are held and written together with the last, and
/// none before its own entries are sent.
@Suite("Held confirmations")
struct HeldConfirmationsTests {
    @Test func aConfirmationAloneIsWrittenAtOnceAndABurstsWithItsLast() {
        let held = HeldConfirmations()
        held.queue()
        #expect(held.sent(.init(firings: [1])).map(\.firings) == [1], "nothing behind it: written at once")

        for _ in 0..<3 { held.queue() }  // three chunks of a burst queued behind their entries
        #expect(held.sent(.init(firings: [2, 3])) == nil)
        #expect(held.sent(.init(missed: [9])) == nil)
        let last = held.sent(.init(firings: [4], again: [2], escalations: [3]))
        #expect(last?.firings == [2, 3, 4] && last?.missed == [9] && last?.again == [2] && last?.escalations == [3])

        // One queued after the burst's first was sent is not confirmed with it: its entries are not sent yet.
        held.queue()
        held.queue()
        #expect(held.sent(.init(firings: [5])) == nil)
        #expect(held.sent(.init(firings: [6]))?.firings == [5, 6])
    }

    @Test func noMoreThanTheLimitIsHeld() {
        let held = HeldConfirmations()
        let chunk = HeldConfirmations.limit / 2
        for _ in 0..<3 { held.queue() }
        #expect(held.sent(.init(firings: Array(0..<Int64(chunk)))) == nil)
        #expect(held.sent(.init(firings: Array(0..<Int64(chunk))))?.count == HeldConfirmations.limit)
        #expect(held.sent(.init(firings: [1]))?.firings == [1])
    }
}
