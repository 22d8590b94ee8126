import Foundation
import ReminderInterface
import Testing

@testable import VarlinkProtocol

/// Replies are turned into JSON values by `JSONValueEncoder` directly; each must be the value `JSONEncoder`'s
/// text parsed back gives: one of every reply remindd sends (the canned samples, decoded into their types), a
/// report with every part, and the encoder's own edge cases.
@Suite("JSON values encoded directly")
struct JSONValueEncoderTests {
    /// The two ways of making `value`'s JSON value.
    static func both(_ value: some Encodable) throws -> (direct: JSONValue, throughText: JSONValue) {
        (try JSONValueEncoder.encode(value), try JSONParser.parse(JSONEncoder().encode(value)))
    }

    /// A sample is one reply, or a list of the replies of a call that streams them.
    func compare<Method: VarlinkMethod>(_ method: Method.Type, _ sample: String) throws {
        let replies = sample.hasPrefix("[")
            ? try JSONDecoder().decode([Method.Reply].self, from: Data(sample.utf8)) : [try JSONDecoder().decode(Method.Reply.self, from: Data(sample.utf8))]
        for reply in replies {
            let (direct, throughText) = try Self.both(reply)
            #expect(direct == throughText, "\(Method.qualifiedName)")
        }
    }

    @Test func everyReplyIsTheValueItsTextWouldBe() throws {
        var compared = 0
        for method in Catalogue.interfaces.flatMap(\.methods) {
            guard let sample = Samples.replies[method.qualifiedName] else { continue }
            try compare(method, sample)
            compared += 1
        }
        #expect(compared >= 40, "most methods have a sample: \(compared)")
        try compare(Reminders.Report.self, ReportOutputTests.everyPart)
    }

    @Test func edgeCasesAreWrittenAsJSONEncoderWritesThem() throws {
        struct Odd: Encodable {
            var optional: String? = nil
            var present: Int? = 3
            var nested = [["a": 1.5], [:]]
            var data = Data([1, 2, 250])
            var date = Date(timeIntervalSinceReferenceDate: 12.5)
            var url = URL(string: "https://example.org/a?b=c")!
            var big = UInt64.max
            var negative = Int64.min
            var float: Float = 0.1
            var empty: [Int] = []
            var nothing: [String: Int] = [:]
            var byNumber = [3: "three"]
        }
        let (direct, throughText) = try Self.both(Odd())
        #expect(direct == throughText)
        guard case .object(let fields) = direct else { Issue.record("not an object"); return }
        #expect(fields["optional"] == nil && fields["present"] == .number(3) && fields["data"] == .string("AQL6"))
        #expect(throws: EncodingError.self) { try JSONValueEncoder.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONParser.parse(JSONEncoder().encode([Double.infinity])) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder.encode(["x": Double.infinity]) }
        // The path of what cannot be written is the one JSONEncoder gives (it is made only then).
        struct Deep: Encodable { var values = [["x": [1, Double.nan]]] }
        for encode in [{ _ = try JSONValueEncoder.encode(Deep()) }, { _ = try JSONEncoder().encode(Deep()) }] as [() throws -> Void] {
            do {
                try encode()
                Issue.record("NaN was written")
            } catch EncodingError.invalidValue(_, let context) {
                #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["values", "0", "x", "1"])
            }
        }
    }
}
