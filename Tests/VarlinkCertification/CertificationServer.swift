import Synchronization
import VarlinkProtocol
import VarlinkServer

/// The server half: answers `org.varlink.certification` as the reference server does, checking that each
/// client calls the methods in order (Start, Test01 ... Test11, End) with exactly the parameters the suite
/// sends; a wrong call gets `CertificationError (wants, got)`, an unknown client `ClientIdError`.
final class CertificationService: VarlinkHandler {
    /// The method each client must call next.
    private let next = Mutex<[String: String]>([:])
    private static let order = ["Start", "Test01", "Test02", "Test03", "Test04", "Test05", "Test06", "Test07", "Test08", "Test09", "Test10", "Test11", "End"]

    func handle(_ call: VarlinkCall, reply: VarlinkReplies) async throws {
        let parameters = call.parameters ?? .object([:])
        if call.member == "Start" {
            let id = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            next.withLock { $0[id] = "Test01" }
            try await reply(VarlinkReply(parameters: try JSONValue(encoding: Certification.Start.Reply(client_id: id))))
            return
        }
        guard case .object(let fields) = parameters, case .string(let id)? = fields["client_id"] else {
            throw VarlinkError(name: "org.varlink.certification.ClientIdError")
        }
        try advance(id, from: call.member)
        func check(_ wants: some Encodable) throws {
            var wanted = try JSONValue(encoding: wants)
            if case .object(var object) = wanted {
                object["client_id"] = .string(id)
                wanted = .object(object)
            }
            guard Self.withoutNulls(wanted) == Self.withoutNulls(parameters) else {
                next.withLock { $0[id] = nil }
                throw VarlinkError(name: "org.varlink.certification.CertificationError", parameters: ["wants": wanted, "got": parameters])
            }
        }
        func answer(_ value: some Encodable, continues: Bool? = nil) async throws {
            try await reply(VarlinkReply(parameters: try JSONValue(encoding: value), continues: continues))
        }
        switch call.member {
        case "Test01":
            try check(NoFields())
            try await answer(Certification.Test01.Reply(bool: true))
        case "Test02":
            try check(["bool": true])
            try await answer(Certification.Test02.Reply(int: 1))
        case "Test03":
            try check(["int": 1])
            try await answer(Certification.Test03.Reply(float: 1.0))
        case "Test04":
            try check(["float": 1.0])
            try await answer(Certification.Test04.Reply(string: "ping"))
        case "Test05":
            try check(["string": "ping"])
            try await answer(Certification.primitives)
        case "Test06":
            try check(Certification.primitives)
            try await answer(Certification.Test06.Reply(struct: Certification.primitives))
        case "Test07":
            try check(["struct": Certification.primitives])
            try await answer(Certification.Test07.Reply(map: Certification.map))
        case "Test08":
            try check(["map": Certification.map])
            try await answer(Certification.Test08.Reply(set: Certification.set))
        case "Test09":
            try check(["set": Certification.set])
            try await answer(Certification.Test09.Reply(mytype: Certification.mytype))
        case "Test10":
            try check(["mytype": Certification.mytype])
            guard call.more == true else { throw VarlinkError.expectedMore() }
            for (index, text) in Certification.moreReplies.enumerated() {
                try await answer(Certification.Test10.Reply(string: text), continues: index < Certification.moreReplies.count - 1)
            }
        case "Test11":
            try check(["last_more_replies": Certification.moreReplies])
            guard call.oneway == true else {
                throw VarlinkError(name: "org.varlink.certification.CertificationError", parameters: ["wants": .object(["oneway": true]), "got": parameters])
            }
        case "End":
            try check(NoFields())
            next.withLock { $0[id] = nil }
            try await answer(Certification.End.Reply(all_ok: true))
        default:
            throw VarlinkError.methodNotFound(call.method)
        }
    }

    /// Moves the client on from `method`, which must be the one it is due to call.
    private func advance(_ id: String, from method: String) throws {
        try next.withLock { next in
            guard let due = next[id] else { throw VarlinkError(name: "org.varlink.certification.ClientIdError") }
            guard due == method, let index = Self.order.firstIndex(of: method) else {
                next[id] = nil
                throw VarlinkError(name: "org.varlink.certification.CertificationError", parameters: [
                    "wants": .string("Call to method org.varlink.certification.\(due)"),
                    "got": .string("Call to method org.varlink.certification.\(method)"),
                ])
            }
            next[id] = Self.order.indices.contains(index + 1) ? Self.order[index + 1] : nil
        }
    }

    /// A client may send a null field or leave it out (the reference server accepts both for MyType's
    /// nullable fields); nulls inside arrays stay.
    private static func withoutNulls(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let fields): .object(fields.filter { $0.value != .null }.mapValues(withoutNulls))
        case .array(let elements): .array(elements.map(withoutNulls))
        default: value
        }
    }
}
