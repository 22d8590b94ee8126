import ReminderCore
import ReminderDaemon
import SeededRandom
import Testing

/// No text in a config file reaches a trap: random and huge values for every key, and nesting too deep to
/// recurse into.
@Suite("Config file: refuses, never traps")
struct ConfigurationRobustnessTests {
    @Test func configFiles() {
        let keys = DaemonConfiguration.keys.map(\.0)
        for (index, text) in NoisyText.samples(count: 1500).enumerated() {
            let key = keys[index % keys.count]
            for value in [text, "\"\(text)\"", "'\(text)'"] {
                guard let configuration = try? DaemonConfiguration.parse("\(key) = \(value)", file: "config.toml") else { continue }
                // What a file can set stays in the documented ranges.
                #expect((0...720).contains(configuration.graceMinutes))
                #expect(configuration.retentionDays.map { (90...36_500).contains($0) } ?? true)
            }
        }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("retention-days = 99999999999999999999", file: "c") }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("retention-days = 9223372036854775807", file: "c") }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("morning = \"99999999999999999999:00\"", file: "c") }
    }

    /// Nested arrays 3,000 deep overflowed the stack at start (and killed a running daemon at SIGHUP): the
    /// reader recursed into each level. They are refused with the line, like any value that is not a string list.
    /// Nested arrays 3,000 deep overflowed the stack at start (and killed a running daemon at SIGHUP): the
    /// reader recursed into each level. They are refused with the line, like any value that is not a string list.
    @Test func deeplyNestedArraysAreRefusedNotRecursedInto() {
        let nested = String(repeating: "[", count: 3000) + "\"x\"" + String(repeating: "]", count: 3000)
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("\n\non-fire = \(nested)", file: "c") }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("on-fire = [[\"/bin/true\"]]", file: "c") }
        #expect((try? DaemonConfiguration.parse("on-fire = [\"/bin/echo\", 'hi']", file: "c"))?.onFire == ["/bin/echo", "hi"])
    }
}

/// The alarm's keys: a bad value is refused with the line and what to write.
@Suite("Config file: sounds and quiet hours")
struct AlarmConfigurationTests {
    @Test func soundsAndQuietHoursAreReadAndBadValuesRefused() throws {
        let read = try DaemonConfiguration.parse("dose-sound = \"bell\"\nreminder-sound = \"none\"\nquiet-hours = \"22:00-07:00\"\n", file: "c")
        #expect(read.sounds == .init(dose: .named("bell"), reminder: .none) && read.quietHours == QuietHours("22:00-07:00"))
        #expect(DaemonConfiguration().quietHours == nil && DaemonConfiguration().sounds.dose == .named("alarm-clock-elapsed"))
        let spoken = try DaemonConfiguration.parse("speak = \"doses\"\nsync-interval = \"10m\"\n", file: "c")
        #expect(spoken.sounds.speak == .doses && spoken.syncIntervalSeconds == 600)
        #expect(try DaemonConfiguration.parse("sync-interval = \"off\"\n", file: "c").syncIntervalSeconds == nil)
        #expect(DaemonConfiguration().sounds.speak == SpeakChoice.none && DaemonConfiguration().syncIntervalSeconds == 300)
        #expect(try DaemonConfiguration.parse("sync-wait = \"30s\"\n", file: "c").syncWait == .seconds(30))
        #expect(DaemonConfiguration().syncWait == .seconds(10))
        let tasks = try DaemonConfiguration.parse("collection-mode = \"occurrences\"\noccurrence-window = \"3d\"\n", file: "c")
        #expect(tasks.collectionMode == .occurrences && tasks.occurrenceWindowSeconds == 3 * 86_400)
        #expect(DaemonConfiguration().collectionMode == .recurring && DaemonConfiguration().occurrenceWindowSeconds == 48 * 3600)
        for (line, hint) in [
            ("quiet-hours = \"25:00-07:00\"", "e.g. \"22:00-07:00\""), ("dose-sound = \"Alarm Clock\"", "e.g. \"alarm-clock-elapsed\""),
            ("speak = \"loud\"", "\"doses\", \"all\" or \"none\""), ("sync-interval = \"30s\"", "from 1m to 24h"),
            ("collection-mode = \"tasks\"", "\"recurring\" or \"occurrences\""), ("occurrence-window = \"8d\"", "from 12h to 7d"),
            ("occurrence-window = \"6h\"", "from 12h to 7d"), ("sync-wait = \"2m\"", "from 1s to 60s"), ("sync-wait = \"0s\"", "from 1s to 60s"),
        ] {
            #expect { try DaemonConfiguration.parse("\n" + line, file: "c") } throws: { "\($0)".contains("c:2:") && "\($0)".contains(hint) }
        }
    }
}
