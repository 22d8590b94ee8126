import Foundation
import NIOCore
import NIOEmbedded
@testable import VarlinkServer
import VarlinkProtocol
import Testing

@Suite("Varlink protocol")
struct VarlinkTests {
    @Test func callsRoundTripAndNameTheirParts() throws {
        let call = try VarlinkWire.decode(VarlinkCall.self, from: Array(#"{"method":"io.remindd.Reminders.Add","parameters":{"name":"x"},"more":true}"#.utf8))
        #expect(call.interface == "io.remindd.Reminders")
        #expect(call.member == "Add")
        #expect(call.more == true)
        #expect(call.parameters == .object(["name": .string("x")]))
        let encoded = String(decoding: VarlinkWire.encode(VarlinkReply(parameters: .object(["n": .number(3)]))), as: UTF8.self)
        #expect(encoded == #"{"parameters":{"n":3}}"#)
        let all = VarlinkReply(parameters: .object(["b": .string("\"x\""), "a": .null]), continues: false, error: "a.b.Failed")
        #expect(String(decoding: VarlinkWire.encode(all), as: UTF8.self) == #"{"continues":false,"error":"a.b.Failed","parameters":{"a":null,"b":"\"x\""}}"#)
        #expect(String(decoding: VarlinkWire.encode(VarlinkReply()), as: UTF8.self) == "{}")
    }

    /// A call is written in one pass, as `JSONEncoder` (sorted keys, slashes as they are) writes it: any
    /// Varlink service reads the same bytes.
    @Test func callsAreWrittenAsJSONEncoderWritesThem() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let parameters: JSONValue = .object([
            "name": .string("Vitamin D / \"daily\" \u{1}é\n"), "count": .number(10), "at": .number(-1.5), "none": .null,
            "list": .array([.bool(true), .object(["z": .string(""), "a": .array([])])]),
        ])
        var calls = [VarlinkCall(method: "io.remindd.Reminders.Next")]
        for more in [nil, true, false] as [Bool?] {
            for oneway in [nil, true, false] as [Bool?] {
                for upgrade in [nil, true] as [Bool?] {
                    var call = VarlinkCall(method: "io.remindd.Reminders.Next/\"x\"", parameters: parameters, oneway: oneway, more: more)
                    call.upgrade = upgrade
                    calls.append(call)
                }
            }
        }
        calls.append(VarlinkCall(method: "a.b.C", parameters: .object([:])))
        for call in calls {
            #expect(VarlinkWire.encode(call) == Array(try encoder.encode(call)), "\(call)")
            #expect(try VarlinkWire.call(from: VarlinkWire.encode(call)) == call)
        }
    }

    @Test func badParametersNameTheParameter() {
        struct Parameters: Decodable { let name: String; let count: Int? }
        let missing = VarlinkCall(method: "a.b.C", parameters: .object(["count": .number(1)]))
        #expect(throws: VarlinkError.invalidParameter("name")) { try missing.decodeParameters(Parameters.self) }
        let mistyped = VarlinkCall(method: "a.b.C", parameters: .object(["name": .string("x"), "count": .string("many")]))
        #expect(throws: VarlinkError.invalidParameter("count")) { try mistyped.decodeParameters(Parameters.self) }
    }

    @Test func framesSplitAtNulAcrossReads() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(VarlinkFrameDecoder()))
        try channel.writeInbound(ByteBuffer(string: "{\"method\":\"a.b.C\"}\0{\"meth"))
        try channel.writeInbound(ByteBuffer(string: "od\":\"a.b.D\"}\0"))
        var messages: [String] = []
        while let frame = try channel.readInbound(as: VarlinkFrame.self) {
            guard case .message(let buffer) = frame else { Issue.record("unexpected \(frame)"); continue }
            messages.append(String(buffer: buffer))
        }
        #expect(messages == [#"{"method":"a.b.C"}"#, #"{"method":"a.b.D"}"#])
        _ = try channel.finish()
    }

    /// A call read but not yet taken up by the connection's task (a busy or loaded machine) keeps the
    /// connection from being closed as idle. Before, only calls already dispatched counted: a `more` call was
    /// cut off when the idle timeout came before its dispatch (a ServerLimitTests failure under load).
    @Test func aCallReadButNotYetDispatchedKeepsTheConnectionFromIdling() throws {
        for (input, staysOpen) in [("{\"method\":\"test.Wait\",\"more\":true}\0", true), ("", false)] {
            let activity = ConnectionActivity()
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandlers([IdleConnectionCloser(activity: activity), ByteToMessageHandler(VarlinkFrameDecoder(activity: activity))])
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            if !input.isEmpty { try channel.writeInbound(ByteBuffer(string: input)) }
            channel.pipeline.fireUserInboundEventTriggered(IdleStateHandler.IdleStateEvent.read)
            channel.embeddedEventLoop.run()
            #expect(channel.isActive == staysOpen, "\(input.isEmpty ? "an idle connection" : "a connection with a call read")")
            _ = try? channel.finish()
        }
    }

    @Test func oversizedMessageIsReportedOnce() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(VarlinkFrameDecoder()))
        try channel.writeInbound(ByteBuffer(repeating: UInt8(ascii: "x"), count: VarlinkWire.maximumMessageSize + 1))
        try channel.writeInbound(ByteBuffer(repeating: UInt8(ascii: "x"), count: 1000))
        var frames: [VarlinkFrame] = []
        while let frame = try channel.readInbound(as: VarlinkFrame.self) { frames.append(frame) }
        #expect(frames.count == 1)
        if case .tooLarge = frames.first {} else { Issue.record("expected tooLarge, got \(frames)") }
        _ = try channel.finish()
    }
}
