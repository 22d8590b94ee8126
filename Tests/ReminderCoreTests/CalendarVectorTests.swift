import Foundation
import ReminderCore
import Testing

/// One line of `calendar-vectors.jsonl` (expected firings computed by an independent oracle, Python's zoneinfo).
struct CalendarVector: Decodable, CustomTestStringConvertible, Sendable {
    let id: String
    let rule: String
    let tz: String
    let preview_args: String
    let after: String
    let expected_next: [String]

    var testDescription: String { id }

    static let all: [CalendarVector] = {
        let url = Bundle.module.url(forResource: "calendar-vectors", withExtension: "jsonl")!
        let text = try! String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").map { try! JSONDecoder().decode(CalendarVector.self, from: Data($0.utf8)) }
    }()
}

@Suite("Reference calendar vectors")
struct CalendarVectorTests {
    @Test(arguments: CalendarVector.all)
    func nextFiringsMatchTheOracle(_ vector: CalendarVector) throws {
        let spec = ruleSpec(fromArguments: vector.preview_args)
        let got = try firings(spec, zone: vector.tz, after: vector.after, count: vector.expected_next.count)
        #expect(got == vector.expected_next, "\(vector.rule)")
    }
}
