import VarlinkProtocol

/// `org.varlink.certification` (from the reference implementation's test suite) as typed methods: the
/// client walks Start, Test01 ... Test11, End, each call taking the previous reply; the server checks every
/// call's parameters and order.
enum Certification {
    static let interface = "org.varlink.certification"
}

protocol CertificationMethod: VarlinkMethod {}
extension CertificationMethod {
    static var interface: String { Certification.interface }
}

/// The parameters of a test that only names the client.
struct ClientID: Codable, Sendable, Hashable {
    var client_id: String
}

/// `bool, int, float, string` together (Test05's reply, Test06's parameters and reply struct).
struct Primitives: Codable, Sendable, Hashable {
    var bool: Bool
    var int: Int
    var float: Double
    var string: String
}

/// `type Interface (foo: ?[]?[string](foo, bar, baz), anon: (foo: bool, bar: bool))`.
struct InterfaceType: Codable, Sendable, Hashable {
    struct Anon: Codable, Sendable, Hashable {
        var foo: Bool
        var bar: Bool
    }
    var foo: [[String: String]?]?
    var anon: Anon
}

/// `type MyType`.
struct MyType: Codable, Sendable, Hashable {
    struct Pair: Codable, Sendable, Hashable {
        var first: Int
        var second: String
    }
    enum Choice: String, Codable, Sendable { case one, two, three }
    var object: JSONValue
    var `enum`: Choice
    var `struct`: Pair
    var array: [String]
    var dictionary: [String: String]
    var stringset: [String: NoFields]
    var nullable: String?
    var nullable_array_struct: [Pair]?
    var interface: InterfaceType
}

extension Certification {
    enum Start: CertificationMethod {
        typealias Parameters = NoFields
        struct Reply: Codable, Sendable, Hashable { var client_id: String }
    }
    enum Test01: CertificationMethod {
        typealias Parameters = ClientID
        struct Reply: Codable, Sendable, Hashable { var bool: Bool }
    }
    enum Test02: CertificationMethod {
        struct Parameters: Codable, Sendable, Hashable { var client_id: String; var bool: Bool }
        struct Reply: Codable, Sendable, Hashable { var int: Int }
    }
    enum Test03: CertificationMethod {
        struct Parameters: Codable, Sendable, Hashable { var client_id: String; var int: Int }
        struct Reply: Codable, Sendable, Hashable { var float: Double }
    }
    enum Test04: CertificationMethod {
        struct Parameters: Codable, Sendable, Hashable { var client_id: String; var float: Double }
        struct Reply: Codable, Sendable, Hashable { var string: String }
    }
    enum Test05: CertificationMethod {
        struct Parameters: Codable, Sendable, Hashable { var client_id: String; var string: String }
        typealias Reply = Primitives
    }
    enum Test06: CertificationMethod {
        struct Parameters: Codable, Sendable, Hashable {
            var client_id: String
            var bool: Bool
            var int: Int
            var float: Double
            var string: String
        }
        struct Reply: Codable, Sendable, Hashable { var `struct`: Primitives }
    }
    enum Test07: CertificationMethod {
        struct Parameters: Codable, Sendable, Hashable { var client_id: String; var `struct`: Primitives }
        struct Reply: Codable, Sendable, Hashable { var map: [String: String] }
    }
    enum Test08: CertificationMethod {
        struct Parameters: Codable, Sendable, Hashable { var client_id: String; var map: [String: String] }
        struct Reply: Codable, Sendable, Hashable { var set: [String: NoFields] }
    }
    enum Test09: CertificationMethod {
        struct Parameters: Codable, Sendable, Hashable { var client_id: String; var set: [String: NoFields] }
        struct Reply: Codable, Sendable, Hashable { var mytype: MyType }
    }
    /// Called with `more`: ten replies.
    enum Test10: CertificationMethod {
        struct Parameters: Codable, Sendable, Hashable { var client_id: String; var mytype: MyType }
        struct Reply: Codable, Sendable, Hashable { var string: String }
    }
    /// Called `oneway`: no reply.
    enum Test11: CertificationMethod {
        struct Parameters: Codable, Sendable, Hashable { var client_id: String; var last_more_replies: [String] }
        typealias Reply = NoFields
    }
    enum End: CertificationMethod {
        typealias Parameters = ClientID
        struct Reply: Codable, Sendable, Hashable { var all_ok: Bool }
    }

    /// The values the suite expects (as in the reference `test_certification.py`).
    static let primitives = Primitives(bool: false, int: 2, float: Double.pi, string: "a lot of string")
    static let map = ["foo": "Foo", "bar": "Bar"]
    static let set = ["one": NoFields(), "two": NoFields(), "three": NoFields()]
    static let mytype = MyType(
        object: .object(["method": "org.varlink.certification.Test09", "parameters": .object(["map": .object(["foo": "Foo", "bar": "Bar"])])]),
        enum: .two, struct: .init(first: 1, second: "2"), array: ["one", "two", "three"], dictionary: map, stringset: set,
        nullable: nil, nullable_array_struct: nil,
        interface: InterfaceType(foo: [nil, ["foo": "foo", "bar": "bar"], nil, ["one": "foo", "two": "bar"]], anon: .init(foo: true, bar: false)))
    static let moreReplies = (1...10).map { "Reply number \($0)" }
}

/// A reply or a call that is not what the suite wants.
struct CertificationFailure: Error, CustomStringConvertible {
    let description: String
}
