import Foundation
import Testing

@testable import ReminderCore

/// The rule's JSON in a synced item (`X-REMINDD-RULE`), written and read without Foundation: byte for byte what
/// `JSONEncoder` wrote before (an item must not change with the encoder), read as `JSONDecoder` read it, and
/// hostile text refused without a trap.
@Suite("Flat JSON")
struct FlatJSONTests {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Strings with what JSON escapes, and what it does not.
    static let texts = ["08:00,20:00", "", "a\"b\\c/d", "tab\tnew\nline\r", "\u{1}\u{1f}\u{7f}\u{8}\u{C}", "é 😀 \u{2028} \u{FEFF}", "FREQ=WEEKLY;BYDAY=MO;"]

    @Test func writtenAsJSONEncoderWroteAndReadBack() throws {
        var random = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var spec = RuleSpec()
            let pick = { (random: inout SystemRandomNumberGenerator) in Bool.random(using: &random) ? Self.texts.randomElement(using: &random) : nil }
            (spec.at, spec.weekly, spec.rrule, spec.start) = (pick(&random), pick(&random), pick(&random), pick(&random))
            (spec.onCalendar, spec.exdate, spec.alarm) = (pick(&random), pick(&random), pick(&random))
            (spec.daily, spec.asNeeded) = (round % 3 == 0 ? nil : round % 2 == 0, round % 5 == 0 ? true : nil)
            let text = try FlatJSON.text(of: spec)
            #expect(text == String(decoding: try Self.encoder.encode(spec), as: UTF8.self))
            #expect(try FlatJSON.decode(RuleSpec.self, from: text) == spec)
            #expect(try JSONDecoder().decode(RuleSpec.self, from: Data(text.utf8)) == spec)
        }
    }

    @Test func readAsJSONDecoderReadIt() throws {
        let text = #" { "at" : "\u0030\u0038:00" , "daily":true, "rrule": null, "unknown": "kept out", "weekly": "\ud83d\ude00\/" } "#
        let spec = try FlatJSON.decode(RuleSpec.self, from: text)
        #expect(spec == (try JSONDecoder().decode(RuleSpec.self, from: Data(text.utf8))))
        #expect(spec.at == "08:00" && spec.daily == true && spec.rrule == nil && spec.weekly == "😀/")
    }

    @Test(arguments: [
        "", "{", "}", "[]", "{\"at\":1}", "{\"at\":[\"x\"]}", "{\"at\":{\"a\":\"b\"}}", "{\"at\":\"x\"} x", "{\"at\":\"x\",}", "{\"at\" \"x\"}",
        "{\"at\":\"\\q\"}", "{\"at\":\"\\ud83d\"}", "{\"at\":\"\\udc00\"}", "{\"at\":\"\\u12\"}", "{\"at\":\"a\nb\"}", "{\"at\":tru}", "{\"daily\":\"true\"}",
        "{\"at\":\"x\"", "{\"at\":\"\u{1}\"}",
    ])
    func hostileTextIsRefused(text: String) {
        #expect(throws: (any Error).self) { try FlatJSON.decode(RuleSpec.self, from: text) }
    }
}
