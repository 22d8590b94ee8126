import Foundation
import Testing
import VarlinkProtocol

/// The one-pass JSON reader and writer against Foundation's on the same texts.
@Suite struct JSONParserTests {
    static let texts = [
        #"{"a": [1, -2.5, 1e300, 0, true, false, null], "b": {"c": "d"}, "": ""}"#,
        #""quote \" backslash \\ slash \/ controls \b\f\n\r\t \u0001 é 日本 \ud83d\ude00""#,
        "[]", "{}", " 42 ", "-0.125", #"[[[["deep"]]]]"#,
    ]

    @Test(arguments: texts)
    func readsWhatFoundationReads(_ text: String) throws {
        let ours = try JSONParser.parse(Array(text.utf8))
        let foundations = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(ours == foundations)
        // Written back and read again: the same value.
        #expect(try JSONParser.parse(JSONWriter.write(ours)) == ours)
        #expect(try JSONParser.parse(JSONWriter.write(ours, pretty: true)) == ours)
    }

    @Test(arguments: [
        "", "{", #"{"a" 1}"#, "[1,]", "01", "1.", "1e", "tru", #""unterminated"#, #""\x""#, #""\ud83d""#, "[1] [2]", "\"a\u{1}b\"", "nan", "1e999",
    ])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test func refusesNestingDeeperThanItsLimit() throws {
        let deep = String(repeating: "[", count: JSONParser.maximumDepth + 1) + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(deep.utf8)) }
        let allowed = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(throws: Never.self) { try JSONParser.parse(Array(allowed.utf8)) }
    }

    @Test func messagesReadLikeTheirCodableForm() throws {
        let call = try VarlinkWire.call(from: Array(#"{"method":"a.b.C","parameters":{"x":[1,"y"]},"more":true,"oneway":null}"#.utf8))
        #expect(call == VarlinkCall(method: "a.b.C", parameters: .object(["x": .array([1, "y"])]), more: true))
        #expect(throws: (any Error).self) { try VarlinkWire.call(from: Array(#"{"method":"a.b.C","more":"yes"}"#.utf8)) }
        #expect(throws: (any Error).self) { try VarlinkWire.call(from: Array(#"{"parameters":{}}"#.utf8)) }
        let reply = VarlinkReply(parameters: .object(["s": "a\"b"]), continues: true, error: nil)
        #expect(try VarlinkWire.reply(from: VarlinkWire.encode(reply)) == reply)
    }
}
