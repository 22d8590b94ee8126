import Foundation
import ReminderInterface
import Testing

@testable import VarlinkProtocol

/// Replies are turned into JSON values by `JSONValueEncoder` directly, and into text by `JSONBytesEncoder`; each
/// must be the value `JSONEncoder`'s text parsed back gives: one of every reply remindd sends (the canned samples,
/// decoded into their types), a report with every part, and the encoders' own edge cases.
@Suite("JSON values encoded directly")
struct JSONValueEncoderTests {
    /// The ways of making `value`'s JSON value: the tree, JSONEncoder's text and the text written straight.
    static func both(_ value: some Encodable) throws -> (direct: JSONValue, throughText: JSONValue) {
        let throughText = try JSONParser.parse(JSONEncoder().encode(value))
        let written = try JSONBytesEncoder.encode(value)
        #expect(try JSONParser.parse(written) == throughText, "written straight: \(String(decoding: written, as: UTF8.self))")
        return (try JSONValueEncoder.encode(value), throughText)
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
        #expect(throws: EncodingError.self) { try JSONBytesEncoder.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONBytesEncoder.encode(["x": Float.infinity]) }
        #expect(throws: EncodingError.self) { try JSONParser.parse(JSONEncoder().encode([Double.infinity])) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder.encode(["x": Double.infinity]) }
        // The path of what cannot be written is the one JSONEncoder gives (it is made only then).
        struct Deep: Encodable { var values = [["x": [1, Double.nan]]] }
        let encoders: [() throws -> Void] = [
            { _ = try JSONValueEncoder.encode(Deep()) }, { _ = try JSONBytesEncoder.encode(Deep()) }, { _ = try JSONEncoder().encode(Deep()) },
        ]
        for encode in encoders {
            do {
                try encode()
                Issue.record("NaN was written")
            } catch EncodingError.invalidValue(_, let context) {
                #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["values", "0", "x", "1"])
            }
        }
    }

    /// Text written as the record asks: a record that goes back to a container it left (here: a nested
    /// container written to after its parent wrote the next field, and an object's fields spread over two
    /// containers with a nested value between them) is written through the tree instead, the same document.
    @Test func aRecordWritingOutOfOrderIsStillWrittenWhole() throws {
        struct OutOfOrder: Encodable {
            enum Key: String, CodingKey { case first, second, third, inner }
            func encode(to encoder: any Encoder) throws {
                var outer = encoder.container(keyedBy: Key.self)
                var nested = outer.nestedContainer(keyedBy: Key.self, forKey: .first)
                try nested.encode(1, forKey: .inner)
                try outer.encode("two", forKey: .second)
                try nested.encode(3, forKey: .third)  // after its parent moved on
                var list = outer.nestedUnkeyedContainer(forKey: .third)
                try list.encode(true)
            }
        }
        struct Parts: Encodable {
            enum Key: String, CodingKey { case a, b, c }
            func encode(to encoder: any Encoder) throws {
                var first = encoder.container(keyedBy: Key.self)
                try first.encode(["x": [1, 2]], forKey: .a)
                var second = encoder.container(keyedBy: Key.self)  // the same object, as a reminder's parts write
                try second.encodeNil(forKey: .b)
                try first.encode([[String: Int]()], forKey: .c)
            }
        }
        let (direct, throughText) = try Self.both(OutOfOrder())
        #expect(direct == throughText)
        #expect(throughText == .object(["first": .object(["inner": 1, "third": 3]), "second": "two", "third": .array([true])]))
        let parts = try Self.both(Parts())
        #expect(parts.throughText == .object(["a": .object(["x": .array([1, 2])]), "b": .null, "c": .array([.object([:])])]))
        // Text with every byte that needs escaping, between runs that need none, comes back as it was.
        let controls = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()
        for text in ["", "plain", "\"", "a\\b\"c", controls, "é/\u{1F48A} \(controls)x\\", "\\"] {
            #expect(try JSONParser.parse(JSONBytesEncoder.encode([text])) == .array([.string(text)]), "\(text.debugDescription)")
        }
        let partsText = String(decoding: try JSONBytesEncoder.encode(Parts()), as: UTF8.self)
        #expect(partsText == #"{"a":{"x":[1,2]},"b":null,"c":[{}]}"#)
        // Integers are written as they are (the tree holds doubles).
        let integers = String(decoding: try JSONBytesEncoder.encode([Int64.max, Int64.min]), as: UTF8.self)
        #expect(integers == "[9223372036854775807,-9223372036854775808]")
    }
}
