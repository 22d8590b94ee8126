/// A parsed Varlink interface definition (varlink.org, "Interface Definition"): its name, types, methods and
/// errors. Comments are dropped. Enough of the grammar for any IDL file: bool, int, float, string, object,
/// `[]T`, `[string]T`, `?T`, named types, inline structs and enums.
struct VarlinkIDL {
    struct Method {
        let input: TypeShape
        let output: TypeShape
    }

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var name = ""
    private(set) var methods: [String: Method] = [:]
    private(set) var errors: [String: TypeShape] = [:]
    /// Named types as written: resolved when a method or error is read.
    private var types: [String: Syntax] = [:]

    /// An IDL type before named types are resolved.
    private indirect enum Syntax {
        case bool, int, float, string, object
        case named(String)
        case array(Syntax)
        case map(Syntax)
        case optional(Syntax)
        case record([(String, Syntax)])
        case choice([String])
    }

    init(_ text: String) throws {
        var scanner = Scanner(text)
        guard scanner.word() == "interface" else { throw ParseError(description: "the first keyword is not 'interface'") }
        name = scanner.word()
        var methodSyntax: [String: (Syntax, Syntax)] = [:]
        var errorSyntax: [String: Syntax] = [:]
        while !scanner.atEnd {
            let keyword = scanner.word()
            let member = scanner.word()
            switch keyword {
            case "type": types[member] = try scanner.structure()
            case "error": errorSyntax[member] = try scanner.structure()
            case "method":
                let input = try scanner.structure()
                try scanner.expect("->")
                methodSyntax[member] = (input, try scanner.structure())
            default: throw ParseError(description: "unexpected '\(keyword)' in \(name)")
            }
        }
        for (member, (input, output)) in methodSyntax {
            methods[member] = Method(input: try resolve(input), output: try resolve(output))
        }
        for (member, syntax) in errorSyntax { errors[member] = try resolve(syntax) }
    }

    private func resolve(_ syntax: Syntax) throws -> TypeShape {
        switch syntax {
        case .bool: return .bool
        case .int: return .int
        case .float: return .float
        case .string: return .string
        case .object: return .object
        case .named(let type):
            guard let definition = types[type] else { throw ParseError(description: "\(name): unknown type \(type)") }
            return try resolve(definition)
        case .array(let element): return .array(try resolve(element))
        case .map: throw ParseError(description: "\(name): maps are not compared")
        case .optional(let wrapped): return .optional(try resolve(wrapped))
        case .record(let fields): return .record(Dictionary(uniqueKeysWithValues: try fields.map { ($0.0, try resolve($0.1)) }))
        case .choice(let names): return .choice(names)
        }
    }

    /// Reads words and punctuation, skipping white space and comments.
    private struct Scanner {
        private let characters: [Character]
        private var index = 0

        init(_ text: String) {
            characters = Array(text)
            skip()
        }

        var atEnd: Bool { index >= characters.count }

        private mutating func skip() {
            while index < characters.count {
                if characters[index].isWhitespace {
                    index += 1
                } else if characters[index] == "#" {
                    while index < characters.count && characters[index] != "\n" { index += 1 }
                } else {
                    return
                }
            }
        }

        /// A name: letters, digits, `_` and `.`.
        mutating func word() -> String {
            let start = index
            while index < characters.count, characters[index].isLetter || characters[index].isNumber || "_.".contains(characters[index]) {
                index += 1
            }
            defer { skip() }
            return String(characters[start..<index])
        }

        mutating func expect(_ token: String) throws {
            for character in token {
                guard index < characters.count, characters[index] == character else {
                    throw ParseError(description: "expected '\(token)' at character \(index)")
                }
                index += 1
            }
            skip()
        }

        private func peek(_ character: Character) -> Bool { index < characters.count && characters[index] == character }

        /// `( name: type, ... )`, or an enum `( a, b )`.
        mutating func structure() throws -> Syntax {
            try expect("(")
            var fields: [(String, Syntax)] = []
            var names: [String] = []
            while !peek(")") {
                let field = word()
                if peek(":") {
                    try expect(":")
                    fields.append((field, try type()))
                } else {
                    names.append(field)
                }
                if peek(",") { try expect(",") }
            }
            try expect(")")
            return names.isEmpty ? .record(fields) : .choice(names)
        }

        mutating func type() throws -> Syntax {
            if peek("?") {
                try expect("?")
                return .optional(try type())
            }
            if peek("[") {
                try expect("[")
                if peek("]") {
                    try expect("]")
                    return .array(try type())
                }
                try expect("string")
                try expect("]")
                return .map(try type())
            }
            if peek("(") { return try structure() }
            switch word() {
            case "bool": return .bool
            case "int": return .int
            case "float": return .float
            case "string": return .string
            case "object": return .object
            case let named: return .named(named)
            }
        }
    }
}
