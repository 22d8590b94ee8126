import VarlinkProtocol

/// The client half: Start, Test01 ... Test11, End against a server, with remindctl's client layer
/// (`VarlinkConnection` and typed calls), each reply checked against what the suite's server sends.
enum CertificationClient {
    static func run(socketPath: String) throws {
        let connection = try VarlinkConnection(path: socketPath)
        let id = try connection.call(Certification.Start.self).client_id
        func expect<T: Equatable>(_ got: T, _ wants: T, _ method: String) throws {
            guard got == wants else { throw CertificationFailure(description: "\(method) replied \(got), the suite wants \(wants)") }
        }
        let bool = try connection.call(Certification.Test01.self, .init(client_id: id)).bool
        try expect(bool, true, "Test01")
        let int = try connection.call(Certification.Test02.self, .init(client_id: id, bool: bool)).int
        try expect(int, 1, "Test02")
        let float = try connection.call(Certification.Test03.self, .init(client_id: id, int: int)).float
        try expect(float, 1.0, "Test03")
        let string = try connection.call(Certification.Test04.self, .init(client_id: id, float: float)).string
        try expect(string, "ping", "Test04")
        let p = try connection.call(Certification.Test05.self, .init(client_id: id, string: string))
        try expect(p, Certification.primitives, "Test05")
        let structure = try connection.call(Certification.Test06.self, .init(client_id: id, bool: p.bool, int: p.int, float: p.float, string: p.string)).struct
        try expect(structure, Certification.primitives, "Test06")
        let map = try connection.call(Certification.Test07.self, .init(client_id: id, struct: structure)).map
        try expect(map, Certification.map, "Test07")
        let set = try connection.call(Certification.Test08.self, .init(client_id: id, map: map)).set
        try expect(set, Certification.set, "Test08")
        let mytype = try connection.call(Certification.Test09.self, .init(client_id: id, set: set)).mytype
        try expect(mytype, Certification.mytype, "Test09")
        var replies: [String] = []
        try connection.stream(Certification.Test10.self, .init(client_id: id, mytype: mytype)) { reply in
            replies.append(reply.string)
            return true
        }
        try expect(replies, Certification.moreReplies, "Test10")
        try connection.oneway(Certification.Test11.self, .init(client_id: id, last_more_replies: replies))
        let end = try connection.call(Certification.End.self, .init(client_id: id))
        try expect(end.all_ok, true, "End")
    }
}
