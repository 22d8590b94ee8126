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
