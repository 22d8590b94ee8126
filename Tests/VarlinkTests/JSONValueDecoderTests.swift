import Foundation
import SeededRandom
import Testing

@testable import VarlinkProtocol

/// ``JSONValueDecoder`` decodes what `JSONDecoder` decodes from the same value written out, and refuses what
/// it refuses, naming the same field: random values into records of every shape the catalogue uses.
@Suite("Decoding from the parsed tree")
struct JSONValueDecoderTests {
    enum Kind: String, Codable, Hashable { case fired, late }

    struct Inner: Codable, Hashable {
        var at: String
        var count: Int?
    }

    struct Record: Codable, Hashable {
        var name: String
        var limit: Int?
        var small: UInt8?
        var ratio: Double?
        var flag: Bool?
        var kind: Kind?
        var tags: [String]?
        var inner: Inner?
        var rule: [String: JSONValue]?
        var list: [Inner]?
        /// Null elements read as nil, as JSONDecoder reads them.
        var values: [JSONValue?]?
    }

    static func randomValue(_ rng: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth > 2 ? 5 : 7), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .number([0, 1, -1, 1.5, 255, 256, 1e300, -3, 42][Int.random(in: 0..<9, using: &rng)])
        case 3: return .string(["", "x", "fired", "late", "08:00"][Int.random(in: 0..<5, using: &rng)])
        case 4: return .string("t\(Int.random(in: 0..<3, using: &rng))")
        case 5: return .array((0..<Int.random(in: 0..<3, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            let keys = ["name", "limit", "small", "ratio", "flag", "kind", "tags", "inner", "rule", "list", "at", "count", "values"]
            var fields: [String: JSONValue] = [:]
            for key in keys where Bool.random(using: &rng) { fields[key] = randomValue(&rng, depth: depth + 1) }
            return .object(fields)
        }
    }

    @Test func agreesWithJSONDecoderOnRandomValues() throws {
        var rng = SeededGenerator(seed: 20_261_124)
        var decoded = 0
        for _ in 0..<5_000 {
            var value = Self.randomValue(&rng)
            if Bool.random(using: &rng), case .object(var fields) = value {  // often a record that may decode
                fields["name"] = .string("n")
                value = .object(fields)
            }
            let bytes = try JSONEncoder().encode(value)
            let expected = Result { try JSONDecoder().decode(Record.self, from: bytes) }
            let actual = Result { try value.decode(Record.self) }
            switch (expected, actual) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(value)")
                decoded += 1
            case (.failure(let a as DecodingError), .failure(let b as DecodingError)):
                // Where JSONDecoder names no field (a number that does not fit: its path is empty), the tree
                // decoder names the field, which is what `InvalidParameter` should say.
                let (named, expectedName) = (Self.path(b), Self.path(a))
                #expect(named == expectedName || (expectedName.isEmpty && !named.isEmpty), "\(value): \(a) / \(b)")
            case (.failure, .failure):
                break
            default:
                Issue.record("\(value): JSONDecoder \(expected), tree \(actual)")
            }
        }
        #expect(decoded > 0)
    }

    /// Valid records of random content come back equal, through the tree as through JSONDecoder.
    @Test func validRecordsComeBackEqual() throws {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<2_000 {
            func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &rng) ? value() : nil }
            let record = Record(
                name: "n\(Int.random(in: 0..<100, using: &rng))", limit: maybe(Int.random(in: -1_000_000...1_000_000, using: &rng)),
                small: maybe(UInt8.random(in: 0...255, using: &rng)), ratio: maybe(Double(Int.random(in: -1000...1000, using: &rng)) / 8),
                flag: maybe(Bool.random(using: &rng)), kind: maybe(Bool.random(using: &rng) ? .fired : .late), tags: maybe(["a", "b"]),
                inner: maybe(Inner(at: "08:00", count: maybe(3))), rule: maybe(["daily": .bool(true), "at": .string("08:00")]),
                list: maybe([Inner(at: "x", count: nil)]), values: maybe([nil, .string("v"), .number(2)]))
            let value = try JSONValue(encoding: record)
            #expect(try value.decode(Record.self) == record)
            #expect(try JSONDecoder().decode(Record.self, from: JSONEncoder().encode(value)) == record)
        }
    }

    /// The field a decoding error names (what `InvalidParameter` reports).
    static func path(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context): return (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.map(\.stringValue).joined(separator: ".")
        @unknown default: return ""
        }
    }
}
