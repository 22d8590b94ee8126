import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// A store that cannot write (a full disk): no slot is announced that the store does not know, so none is
/// announced twice; the daemon says so and tries again.
@Suite("Firing while the store cannot write")
struct StoreFailureTests {
    @Test func aFiringWaitsUnannouncedUntilItIsRecordedThenAnnouncesOnce() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        try daemon.setStoreWritable(false)
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        #expect(daemon.firings(of: "Pills").isEmpty)
        #expect(daemon.announcer.events.contains { event in
            guard case .daemon(let message) = event else { return false }
            return message.severity == .error && message.text.hasPrefix("Could not record firing reminder-")
        })
        #expect(daemon.status.last?.hasPrefix("Cannot record firings (1 waiting, retrying)") == true)
        let status = try await daemon.call("Status", as: StatusValue.self)
        #expect(status.status.hasPrefix("Cannot record firings"))
        #expect(daemon.clock.wakeUp == instant("2026-03-02T08:00:30Z"))

        // Still failing at the retries of 08:00:30, 08:01:00 and 08:01:30; recorded and announced at 08:02:00,
        // late by then (more than the minute a firing may take to count as on time).
        await daemon.advance(to: instant("2026-03-02T08:01:45Z"))
        #expect(daemon.firings(of: "Pills").isEmpty)
        try daemon.setStoreWritable(true)
        await daemon.advance(to: instant("2026-03-02T08:03:00Z"))
        let announced = daemon.firings(of: "Pills")
        #expect(announced.map(\.kind) == [.late])
        #expect(announced.first?.handledAt == instant("2026-03-02T08:02:00Z"))
        #expect(announced.first?.firing.lateSeconds == Int64(120))
        #expect(daemon.status.last?.hasPrefix("2 reminders, next:") == true)

        // The store knows the slot: a restart does not announce it again.
        try await daemon.restart()
        await daemon.advance(to: instant("2026-03-02T12:00:00Z"))
        #expect(daemon.firings(of: "Pills").count == 1)
        #expect(try await daemon.history(of: "Pills").map(\.kind) == ["late"])
    }

    /// A firing whose logs cannot be read is not announced on a guess (the dose may have been taken): it
    /// waits, and once the logs can be read it is decided with them.
    @Test func aFiringWhoseLogsCannotBeReadWaitsAndIsThenSuppressedByTheLoggedDose() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        try await daemon.add("Water", ["daily": true, "at": "08:00"], timeZone: "UTC")
        daemon.clock.set(instant("2026-03-02T07:30:00Z"))
        try await daemon.log("Pills")
        try daemon.setReadable(false)
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        #expect(daemon.announcer.firings.isEmpty)
        #expect(daemon.status.last?.hasPrefix("Cannot record firings (2 waiting, retrying)") == true)
        #expect(daemon.announcer.events.contains { event in
            guard case .daemon(let message) = event else { return false }
            return message.severity == .error && message.text.hasPrefix("Could not read the intake logged for reminder-")
        })
        #expect(daemon.clock.wakeUp == instant("2026-03-02T08:00:30Z"))

        try daemon.setReadable(true)
        await daemon.advance(to: instant("2026-03-02T08:00:30Z"))
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.suppressed])
        #expect(daemon.firings(of: "Water").map(\.kind) == [.fired])  // 30 s: still on time
        #expect(daemon.status.last?.hasPrefix("3 reminders, next:") == true)
        try await daemon.restart()
        #expect(daemon.announcer.firings.count == 2)
    }

    /// A dose logged where the daemon did not hear of it (another client writing the store, later a synced
    /// device): while its logs cannot be read, the occurrence is neither repeated nor decided missed on a
    /// guess. Before, the reads answered "no logs" and both happened.
    @Test func whileLogsCannotBeReadNoRepeatAndNoMissedIsDecidedOnAGuess() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        let pills = try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC", ["repeat": "10m", "window": "1h"])
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.fired])
        try await daemon.database.write { db in
            try db.execute(sql: "INSERT INTO intake (reminderId, at, timeZone) VALUES (?, ?, 'UTC')", arguments: [pills.id, instant("2026-03-02T08:05:00Z").secondsSinceEpoch])
        }
        try daemon.setReadable(false)
        await daemon.advance(to: instant("2026-03-02T09:00:10Z"))
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.fired], "a repeat was announced on a guess")
        #expect(daemon.announcer.occurrences.isEmpty, "decided missed on a guess")
        try daemon.setReadable(true)
        await daemon.advance(to: instant("2026-03-02T09:05:00Z"))
        #expect(daemon.announcer.occurrences.isEmpty)
        // Once readable, the log at 08:05 took the 08:00 occurrence: nothing missed.
        #expect(try await daemon.history(of: "Pills").map(\.kind) == ["fired", "taken"])
    }

    /// `today` read the day's states with no logs when they could not be read, and showed a taken dose as due.
    @Test func theDaysOccurrencesAreNotGuessedWhenLogsCannotBeRead() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        _ = try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        await daemon.advance(to: instant("2026-03-02T08:01:00Z"))
        try await daemon.call("Log", ["reminder": "Pills"])
        try daemon.setReadable(false)
        await #expect { try await daemon.call("Occurrences", [:]) } throws: {
            ($0 as? VarlinkError)?.name == "io.remindd.Reminders.StoreFailure"
        }
        try daemon.setReadable(true)
        let answer = try await daemon.call("Occurrences", [:], as: Reminders.Occurrences.Reply.self)
        #expect(answer.occurrences.filter { $0.reminderName == "Pills" }.map(\.state) == ["taken"])
    }

    /// `list` and `show` answered a streak of 0 (a habit kept for weeks shown as broken) when the logs could not
    /// be read: the call fails as the other reads do, and answers the streak once they can be read.
    @Test func aStreakIsNotAnsweredAsZeroWhenLogsCannotBeRead() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        _ = try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        for day in 2...4 {
            await daemon.advance(to: instant("2026-03-0\(day)T08:01:00Z"))
            try await daemon.call("Log", ["reminder": "Pills"])
        }
        try daemon.setReadable(false)
        await #expect { try await daemon.call("Get", ["reminder": "Pills"]) } throws: {
            ($0 as? VarlinkError)?.name == "io.remindd.Reminders.StoreFailure"
        }
        try daemon.setReadable(true)
        let shown = try await daemon.call(Reminders.Get.self, .init(reminder: "Pills")).reminder
        #expect(shown.streak == 3)
    }

    @Test func aRestartWhileTheFiringWaitsAnnouncesItOnce() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC")
        try daemon.setStoreWritable(false)
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        // The disk is freed, and the daemon restarts before its retry (SIGHUP or a restart).
        try daemon.setStoreWritable(true)
        daemon.clock.set(instant("2026-03-02T08:00:10Z"))
        try await daemon.restart()
        await daemon.advance(to: instant("2026-03-02T12:00:00Z"))
        #expect(daemon.firings(of: "Pills").count == 1)
        try await daemon.restart()
        #expect(daemon.firings(of: "Pills").count == 1)
    }
}

/// Reload is all or nothing.
@Suite("Reload")
struct ReloadTests {
    @Test func aReloadWithAnUnknownZoneIsRefusedAndChangesNothing() async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.add("Pills", ["daily": true, "at": "08:00"])
        let before = daemon.status.last
        var bad = DaemonConfiguration()
        bad.timeZone = "Nowhere/Atlantis"
        await #expect(throws: ConfigurationRefused.self) { try await daemon.current.reload(bad) }
        #expect(daemon.status.last == before)
        #expect(await daemon.current.statusLine() == "2 reminders, next: Pills at Mon 08:00")
        await daemon.advance(to: instant("2026-03-02T08:00:00Z"))
        #expect(daemon.firings(of: "Pills").map(\.kind) == [.fired])

        var good = DaemonConfiguration()
        good.timeZone = "Asia/Tokyo"
        try await daemon.current.reload(good)
        #expect(await daemon.current.statusLine() == "2 reminders, next: Pills at Tue 08:00")
        #expect(daemon.clock.wakeUp == instant("2026-03-02T23:00:00Z"))  // 08:00 in Tokyo, the next morning
    }
}
