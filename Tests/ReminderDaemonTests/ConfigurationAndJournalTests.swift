import Foundation
import ReminderCore
import ReminderDaemon
import SystemdSupport
import Testing

@Suite("Config file")
struct ConfigurationTests {
    /// remindd.toml(5) documents exactly the keys the parser takes, and the commented example file sets each.
    @Test func theManPageAndTheExampleFileHaveEveryKey() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("man/remindd.toml.5"), encoding: .utf8)
        let documented = page.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix(".It Cm ") else { return nil }
            return line.dropFirst(".It Cm ".count).split(separator: " ").first.map(String.init)
        }
        #expect(documented == DaemonConfiguration.keys.map(\.0))
        let example = try String(contentsOf: root.appendingPathComponent("etc/remindd/config.toml"), encoding: .utf8)
        for (key, _) in DaemonConfiguration.keys { #expect(example.contains("\n# \(key) = "), "\(key)") }
    }

    @Test func everyKeyParses() throws {
        let text = """
            # comment
            time-zone = "Europe/Berlin"  # trailing comment
            catch-up = false
            socket = '/run/user/1000/remindd/control.sock'
            log-level = "info"
            on-fire = ["/usr/bin/notify-send", 'Take it, now', "a \\"quoted\\" word", ]
            notifications = "none"
            """
        let configuration = try DaemonConfiguration.parse(text, file: "config.toml")
        #expect(configuration.timeZone == "Europe/Berlin")
        #expect(configuration.catchUp == false)
        #expect(configuration.socket == "/run/user/1000/remindd/control.sock")
        #expect(configuration.logLevel == "info")
        #expect(configuration.desktopNotifications == false && DaemonConfiguration().desktopNotifications)
        #expect(configuration.onFire == ["/usr/bin/notify-send", "Take it, now", "a \"quoted\" word"])
        #expect(try DaemonConfiguration.parse("", file: "c") == DaemonConfiguration())
    }

    @Test(arguments: [
        ("colour = \"blue\"", 1, "unknown key 'colour'"),
        ("sync-intervall = \"5m\"", 1, "unknown key 'sync-intervall': did you mean 'sync-interval'?"),
        ("\n\ncatch-up = yes", 3, "bad value yes for 'catch-up': use true or false"),
        ("log-level = \"loud\"", 1, "bad value \"loud\" for 'log-level'"),
        ("socket = \"relative/path\"", 1, "bad value \"relative/path\" for 'socket'"),
        ("[daemon]", 1, "tables are not used"),
        ("catch-up = true\ncatch-up = false", 2, "'catch-up' is set twice"),
        ("time-zone", 1, "expected 'key = value'"),
        ("on-fire = []", 1, "bad value [] for 'on-fire': use a command as a list of strings"),
        ("on-fire = [\"/bin/true\", 3]", 1, "bad value"),
        ("on-fire = \"/bin/true\"", 1, "bad value"),
    ])
    func errorsNameTheLine(text: String, line: Int, words: String) {
        #expect {
            try DaemonConfiguration.parse(text, file: "config.toml")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.line == line && error.description.hasPrefix("config.toml:\(line): ") && error.message.contains(words)
        }
    }
}

@Suite("Journal without journald")
struct JournalFallbackTests {
    @Test func withoutASocketTheEntryGoesToStderrAndNothingCrashes() {
        let journal = Journal(identifier: "remindd-test", socketPath: "/nonexistent/journal/socket")
        #expect(!journal.isJournalAvailable)
        #expect(!journal.send("Reminder: test", priority: .notice, fields: [("REMINDER_ID", "1")]))
    }

    @Test func priorityFilterDropsLessImportantEntries() {
        let journal = Journal(identifier: "remindd-test", maximumPriority: .info, socketPath: "/nonexistent")
        #expect(!journal.send("debug line", priority: .debug))
    }

    @Test func pathsFollowXDGWhateverSystemdSays() {
        let paths = RemindPaths(environment: ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000)
        #expect(paths.database == "/home/u/.local/state/remindd/remindd.sqlite")
        #expect(paths.configFile == "/home/u/.config/remindd/config.toml")
        #expect(paths.socket == "/run/user/1000/remindd/control.sock")
        #expect(paths.legacyDatabase == "/home/u/.config/remindd/remindd.sqlite")
        // systemd 252's StateDirectory= for a user service: not followed, one location for the unit and by hand.
        let service = RemindPaths(environment: ["HOME": "/home/u", "STATE_DIRECTORY": "/home/u/.config/remindd"], uid: 1000)
        #expect(service.stateDirectory == "/home/u/.local/state/remindd")
        #expect(service.socket == "/tmp/remindd-1000/control.sock")
    }
}
