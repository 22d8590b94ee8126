import ReminderCore
import ReminderInterface
import Testing
import Translation
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// What the daemon decides at run time, on a manual clock: every test sets the time it needs.
@Suite("Firing on a manual clock")
struct FiringTests {
    @Test func firesAtTheInstantAndArmsTheNextWakeUp() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:59:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        #expect(daemon.clock.wakeUp == instant("2026-03-02T08:00:00Z"))

        await daemon.advance(to: instant("2026-03-02T07:59:59Z"))
        #expect(daemon.firings(of: "Pills").isEmpty)

        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        let fired = try #require(daemon.firings(of: "Pills").first)
        #expect(fired.kind == .fired)
        #expect(fired.scheduled == instant("2026-03-02T08:00:00Z"))
        #expect(fired.handledAt == instant("2026-03-02T08:00:00Z"))
        #expect(fired.firing.lateSeconds == 0)
        // Next it wakes when the occurrence's window closes (midnight), to decide whether it was missed.
        #expect(daemon.clock.wakeUp == instant("2026-03-03T00:00:00Z"))

        await daemon.advance(by: 3 * 86400)
        #expect(daemon.firings(of: "Pills").map(\.scheduled) == (0..<4).map { instant("2026-03-02T08:00:00Z").adding(seconds: Int64($0) * 86400) })
        #expect(daemon.firings(of: "Pills").allSatisfy { $0.kind == .fired && $0.handledAt == $0.scheduled })
        #expect(daemon.status.last == "2 reminders, next: Pills at Fri 08:00")
    }

    /// Remove answers the reminder as it was (remindctl prints its id and name), and nothing of it fires after.
    @Test func aRemovedReminderIsAnsweredAsItWasAndNeverFires() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        let removed = try await daemon.call(Reminders.Remove.self, .init(reminder: "Pills")).reminder
        #expect(removed.name == "Pills" && removed.next?.utc == "2026-03-02T08:00:00Z")
        await #expect(throws: VarlinkError.self) { try await daemon.call(Reminders.Get.self, .init(reminder: "\(removed.id)")) }
        await daemon.advance(to: instant("2026-03-03T12:00:00Z"))
        #expect(daemon.firings(of: "Pills").isEmpty)
    }

    @Test func catchesUpOnceAfterDowntimeWithTheCountOfMissedSlots() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00,12:00,18:00"], timeZone: "UTC")
        // Down from 07:00 to the next morning at 07:00: three slots pass.
        daemon.clock.set(instant("2026-03-03T07:00:00Z"))
        try await daemon.restart()
        let late = daemon.firings(of: "Pills")
        #expect(late.count == 1)
        #expect(late.first?.kind == .late)
        #expect(late.first?.firing.slotsDue == 3)
        #expect(late.first?.scheduled == instant("2026-03-02T18:00:00Z"))
        #expect(late.first?.firing.lateSeconds == Int64(13 * 3600))

        // Another restart repeats nothing; the day goes on as planned.
        try await daemon.restart()
        #expect(daemon.firings(of: "Pills").count == 1)
        await daemon.advance(to: instant("2026-03-03T08:00:00Z"))
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.late, .fired])
        // The late slot's window (its day) had closed before the catch-up: nothing was logged, so it is missed.
        let kinds = try await daemon.history(of: "Pills").map(\.kind)
        #expect(kinds == ["late", "missed", "fired"], "\(kinds)")
    }

    @Test func slotsMissedWhileCatchUpIsOffAreRecordedNotAnnouncedLate() async throws {
        var configuration = DaemonConfiguration()
        configuration.catchUp = false
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"), configuration: configuration)
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        daemon.clock.set(instant("2026-03-02T09:00:00Z"))
        try await daemon.restart()
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.skipped])
        #expect(daemon.firings(of: "Pills").first?.detail == "catch-up is off")
    }

    @Test func aLoggedIntakeSuppressesTheFiring() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T07:30:00Z"))
        try await daemon.log("Pills")
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        let suppressed = try #require(daemon.firings(of: "Pills").first)
        #expect(daemon.firings(of: "Pills").count == 1)
        #expect(suppressed.kind == .suppressed)
        #expect(suppressed.detail?.contains("already logged 1 time today") == true)
        // The story, oldest first: the log at 07:30, ahead of the 08:00 occurrence, then that firing suppressed.
        #expect(try await daemon.history(of: "Pills").map(\.kind) == ["logged-ahead", "suppressed"])
        // The next day, with nothing logged, it fires.
        await daemon.advance(to: instant("2026-03-03T08:00:00Z"))
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.suppressed, .fired])
    }

    @Test func aSnoozeRepeatsTheFiringOnceAndSurvivesARestart() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")

        await daemon.advance(to: instant("2026-03-02T08:02:00Z"))
        try await daemon.call("Snooze", ["reminder": "Pills", "minutes": 10])
        #expect(daemon.clock.wakeUp == instant("2026-03-02T08:12:00Z"))
        try await daemon.restart()
        #expect(daemon.clock.wakeUp == instant("2026-03-02T08:12:00Z"))

        await daemon.advance(to: instant("2026-03-02T09:00:00Z"))
        let firings = daemon.firings(of: "Pills")
        #expect(firings.map(\.kind) == [.fired, .snoozed])
        #expect(firings.last?.scheduled == instant("2026-03-02T08:00:00Z"))
        #expect(firings.last?.handledAt == instant("2026-03-02T08:12:00Z"))
        #expect(JournalAnnouncer.entry(for: .firing(firings[1]), in: english).message == "Reminder (snoozed): Pills (daily, Mon 08:00)")
    }

    @Test func watchStreamsEachFiring() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        let (entries, sink) = AsyncStream.makeStream(of: HistoryEntryValue.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await daemon.current.router.handle(VarlinkCall(method: "io.remindd.Reminders.Watch", parameters: .object([:]), more: true)) { reply in
                    #expect(reply.continues == true)
                    sink.yield(try reply.parameters!.decode([String: HistoryEntryValue].self)["entry"]!)
                }
                sink.finish()
            }
            while daemon.current.watch.subscriberCount == 0 { await Task.yield() }
            await daemon.advance(to: instant("2026-03-03T08:00:00Z"))
            daemon.current.finishWatchers()
            try await group.waitForAll()
        }
        var received: [HistoryEntryValue] = []
        for await entry in entries { received.append(entry) }
        #expect(received.map(\.kind) == ["fired", "missed", "fired"])
        #expect(received.map(\.scheduledUtc) == ["2026-03-02T08:00:00Z", "2026-03-02T08:00:00Z", "2026-03-03T08:00:00Z"])
        #expect(received.allSatisfy { $0.reminderName == "Pills" })
    }

    @Test func watchWithoutMoreIsRefused() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        await #expect(throws: VarlinkError.expectedMore()) {
            try await daemon.current.router.handle(VarlinkCall(method: "io.remindd.Reminders.Watch", parameters: .object([:]))) { _ in }
        }
    }

    @Test func aWatchClientThatDoesNotReadIsDroppedWithAnErrorAndLeavesNothingBehind() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        let firing = try #require(daemon.announcer.firings.first)
        let (mayRead, allowReading) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await #expect {
                    try await daemon.current.router.handle(VarlinkCall(method: "io.remindd.Reminders.Watch", parameters: .object([:]), more: true)) { _ in
                        for await _ in mayRead {}  // a client that does not read: the first reply never completes
                    }
                } throws: { ($0 as? VarlinkError)?.name == "io.remindd.Reminders.WatchTooSlow" }
            }
            while daemon.current.watch.subscriberCount == 0 { await Task.yield() }
            // A batch of at most 64 entries is taken by the stuck reply; the queue then fills; the next one drops
            // the subscriber.
            var announced = 0
            while daemon.current.watch.subscriberCount > 0 && announced <= WatchAnnouncer.queueLimit + 64 {
                daemon.current.watch.announce(.firing(firing))
                announced += 1
            }
            #expect(daemon.current.watch.subscriberCount == 0)
            #expect(announced > WatchAnnouncer.queueLimit)
            allowReading.finish()
            try await group.waitForAll()
        }
    }
}

/// One firing of a reminder, as the announcers get it.
private func firedOnce() async throws -> FiringEvent {
    let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
    try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
    await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
    return try #require(daemon.announcer.firings.first)
}

/// Watch clients that never read hold at most ``WatchAnnouncer/totalLimit`` entries together: with 250 of
/// them (the measure was +431 MB with 16,384 each), each is dropped near 260 unread.
@Suite("Watch clients that never read")
struct UnreadWatchTests {
    @Test func manyClientsThatNeverReadAreDroppedOnceTogetherTheyHoldTheTotalLimit() async throws {
        let watch = WatchAnnouncer()
        let streams = (0..<250).map { _ in watch.subscribe() }
        let firing = try await firedOnce()
        var announced = 0
        while watch.subscriberCount > 0 && announced < 2_000 {
            watch.announce(.firing(firing))
            announced += 1
        }
        #expect(watch.subscriberCount == 0)
        #expect(announced <= WatchAnnouncer.totalLimit / 250 + 2)
        #expect(streams.allSatisfy { watch.unsubscribe($0.id) })  // each was dropped as lagging
    }

    /// A stream takes its queue in batches: a burst goes out 64 entries to a write, not one write each.
    @Test func aStreamTakesItsEntriesInBatchesOfAtMostTheLimitAndAtShutdownWhatWasQueued() async throws {
        let watch = WatchAnnouncer()
        let subscription = watch.subscribe()
        let firing = try await firedOnce()
        for _ in 0..<150 { watch.announce(.firing(firing)) }
        var sizes: [Int] = []
        for _ in 0..<2 { sizes.append(await subscription.next(atMost: 64)?.count ?? 0) }
        watch.finishAll()
        watch.announce(.firing(firing))  // after shutdown: not queued
        while let batch = await subscription.next(atMost: 64) { sizes.append(batch.count) }
        #expect(sizes == [64, 64, 22])
        #expect(!watch.unsubscribe(subscription.id))
    }

    /// A burst's chunk is queued in one go: taken in batches like any other entries, in order; a chunk that would
    /// pass the queue's limit drops the client instead, as one entry past it does.
    @Test func aChunkOfEventsIsQueuedWholeOrDropsAClientThatWouldPassTheLimit() async throws {
        let watch = WatchAnnouncer()
        let (reading, full) = (watch.subscribe(), watch.subscribe())
        let firing = try await firedOnce()
        watch.announce(Array(repeating: .firing(firing), count: WatchAnnouncer.queueLimit - 100))
        #expect(await full.next(atMost: 64)?.count == 64)  // 164 places left in its queue
        while let batch = await reading.next(atMost: 4096), batch.count == 4096 {}  // this one reads everything
        watch.announce(Array(repeating: .firing(firing), count: 200))
        #expect(watch.subscriberCount == 1)
        #expect(watch.unsubscribe(full.id))  // dropped as lagging
        #expect(await reading.next(atMost: 500)?.count == 200)
        #expect(!watch.unsubscribe(reading.id))
    }

    @Test func aDroppedStreamEndsWithoutItsQueue() async throws {
        let watch = WatchAnnouncer()
        let subscription = watch.subscribe()
        let firing = try await firedOnce()
        for _ in 0...WatchAnnouncer.queueLimit { watch.announce(.firing(firing)) }
        #expect(await subscription.next(atMost: 64) == nil)
        #expect(watch.unsubscribe(subscription.id))  // dropped as lagging
    }

    @Test func oneClientReadingABurstIsNotDropped() async throws {
        let watch = WatchAnnouncer()
        let id = watch.subscribe().id
        let firing = try await firedOnce()
        for _ in 0..<10_000 { watch.announce(.firing(firing)) }  // a burst it has not read yet
        #expect(watch.subscriberCount == 1)
        #expect(!watch.unsubscribe(id))
    }
}

/// Many reminders due at one instant are taken, recorded and announced in chunks (`burstChunk`), with other
/// work let in between: each still fires exactly once, is recorded once, and a restart announces none again.
@Suite("A burst of firings at one instant")
struct BurstTests {
    @Test func everyFiringOfABurstAcrossChunksIsAnnouncedAndRecordedOnce() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:59:00Z"))
        let count = SchedulingService.burstChunk * 2 + 7
        for index in 0..<count { try await daemon.add("Burst \(index)", ["daily": true, "at": "08:00"], timeZone: "UTC") }
        // A call made while the burst is handled is answered, whichever chunk it lands between.
        async let status = daemon.call(Reminders.Status.self, NoFields())
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        #expect(try await status.reminders == count + 1)  // and the built-in rest check-in
        let fired = daemon.announcer.firings.filter { $0.firing.reminder.name.hasPrefix("Burst ") }
        #expect(fired.count == count)
        #expect(Set(fired.map(\.firing.reminder.name)).count == count)
        #expect(fired.allSatisfy { $0.kind == .fired && $0.scheduled == instant("2026-03-02T08:00:00Z") })
        let recorded = try await daemon.call("History", ["limit": .number(Double(count + 10))], as: [String: [HistoryEntryValue]].self)["entries"]!
        #expect(recorded.filter { $0.reminderName.hasPrefix("Burst ") && $0.kind == "fired" }.count == count)

        try await daemon.restart()
        #expect(daemon.announcer.firings.filter { $0.firing.reminder.name.hasPrefix("Burst ") }.count == count)
    }
}

/// The messages as the tables write them.
private let english = UntranslatedCatalog()
