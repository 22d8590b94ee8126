import Foundation
import ReminderCore
import ReminderDaemon
import ReminderInterface
import SeededRandom
import Testing
import TimeZoneDatabase
import VarlinkProtocol

@testable import ReminderDaemonTesting

/// Random Varlink messages and config files against the real parsers and method table: nothing traps, every
/// call gets a reply or a Varlink error, and the daemon still answers afterwards.
///
/// `make test` runs `REMINDD_FUZZ_CASES` cases (default 3000) from a fixed seed; a longer run:
/// `REMINDD_FUZZ_CASES=1000000 REMINDD_FUZZ_SEED=$RANDOM swift test --filter Fuzz`.
@Suite("Fuzz: Varlink messages and config files")
struct VarlinkFuzzTests {
    static let cases = ProcessInfo.processInfo.environment["REMINDD_FUZZ_CASES"].flatMap(Int.init) ?? 3000
    static let seed = ProcessInfo.processInfo.environment["REMINDD_FUZZ_SEED"].flatMap(UInt64.init) ?? 7

    /// Every method of the catalogue but Watch (a `more` Watch waits for firings that never come in a fuzz run),
    /// and some that do not exist.
    static let methods = Catalogue.interfaces.flatMap(\.methods).map { $0.qualifiedName }.filter { $0 != Reminders.Watch.qualifiedName }
        + ["io.remindd.Reminders.Nope", "io.remindd.Reminders.", "io.remindd.Nope.Add"]
    static let keys = [
        "name", "rule", "timeZone", "enabled", "reminder", "after", "limit", "count", "at", "minutes", "since", "from", "to", "date",
        "reason", "light", "exercise", "intensity", "kcal", "id", "weightKg", "routine", "daily", "weekly", "monthly", "monthlyOn",
        "yearly", "every", "preset", "once", "start", "until", "skip", "query", "category", "x",
    ]
    static let strings = [
        "", "Pills", "08:00", "sun", "2026-03-02", "2026-03-02T08:00:00Z", "Europe/Berlin", "Mars/Olympus", "7d", "last", "2nd-mon",
        "Twice a Day", "99999999999999999999", "-1", "0", "25:61", "\u{0}", "é", String(repeating: "x", count: 5000), "running", "moderate",
    ]

    static func value(_ random: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth > 2 ? 5 : 7), using: &random) {
        case 0: return .string(strings.randomElement(using: &random)!)
        case 1: return .number([0, 1, -1, 3, 1e300, -1e300, 0.5, 9.223_372_036_854_775_807e18, 1e19].randomElement(using: &random)!)
        case 2: return .bool(Bool.random(using: &random))
        case 3: return .null
        case 4: return .string(String(Int.random(in: -100...100, using: &random)))
        case 5: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random, depth: depth + 1) })
        default: return object(&random, depth: depth + 1)
        }
    }

    static func object(_ random: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &random) { fields[keys.randomElement(using: &random)!] = value(&random, depth: depth) }
        return .object(fields)
    }

    /// A message as bytes: mostly well-formed calls with random parameters, some mangled or random bytes.
    static func message(_ random: inout SeededGenerator) -> [UInt8] {
        var call: [String: JSONValue] = ["method": .string(methods.randomElement(using: &random)!)]
        if Bool.random(using: &random) { call["parameters"] = object(&random) }
        if Int.random(in: 0..<4, using: &random) == 0 { call["more"] = .bool(Bool.random(using: &random)) }
        if Int.random(in: 0..<8, using: &random) == 0 { call["oneway"] = .bool(true) }
        var bytes = VarlinkWire.encode(JSONValue.object(call))
        switch Int.random(in: 0..<10, using: &random) {
        case 0 where !bytes.isEmpty: bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
        case 1: bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 2 where !bytes.isEmpty: bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        default: break
        }
        return bytes
    }

    @Test func randomMessagesGetARepliesOrVarlinkErrorsAndNothingTraps() async throws {
        let daemon = try await TestDaemon(now: Instant(secondsSinceEpoch: 1_780_000_000))
        var random = SeededGenerator(seed: Self.seed)
        var answered = 0
        for _ in 0..<Self.cases {
            let bytes = Self.message(&random)
            guard let call = try? VarlinkWire.decode(VarlinkCall.self, from: bytes), call.interface.hasPrefix("io.remindd.") else { continue }
            if call.member == "Watch" { continue }
            do {
                try await daemon.current.router.handle(call) { _ in }
            } catch is VarlinkError {
            } catch {
                Issue.record("\(String(decoding: bytes, as: UTF8.self)) threw \(error), not a Varlink error")
            }
            answered += 1
        }
        #expect(answered > Self.cases / 2)
        // Still consistent: it lists what it has, and its status reads.
        struct Page: Decodable { let reminders: [JSONValue] }
        _ = try await daemon.call("List", as: Page.self)
        _ = try await daemon.call("Status", as: JSONValue.self)
    }

    @Test func randomConfigFilesAreAcceptedOrRefusedWithTheirLine() {
        var random = SeededGenerator(seed: Self.seed)
        let keys = DaemonConfiguration.keys.map(\.0) + ["colour", ""]
        let values = Self.strings.map { "\"\($0)\"" } + Self.strings + ["true", "false", "1", "99999999999999999999", "[1, 2]", "\"unterminated", "= ="]
        let zones = TimeZoneDatabase()
        for _ in 0..<Self.cases {
            let lines = (0..<Int.random(in: 0...6, using: &random)).map { _ -> String in
                switch Int.random(in: 0..<6, using: &random) {
                case 0: return "# comment"
                case 1: return ""
                case 2: return String((0..<Int.random(in: 1...20, using: &random)).map { _ in Character(Unicode.Scalar(UInt8.random(in: 32...126, using: &random))) })
                default: return "\(keys.randomElement(using: &random)!) = \(values.randomElement(using: &random)!)"
                }
            }
            do {
                let configuration = try DaemonConfiguration.parse(lines.joined(separator: "\n"), file: "config.toml")
                do { try Daemon.check(configuration, zones: zones) } catch { #expect(error.description.hasPrefix("time-zone: ")) }
            } catch {
                #expect(error.description.hasPrefix("config.toml:"), "\(lines) -> \(error)")
            }
        }
    }
}
