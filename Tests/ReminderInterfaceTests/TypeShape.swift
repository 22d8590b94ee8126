/// The shape of a Varlink value, from either side: parsed from an IDL type, or recorded from a Swift
/// Decodable type. Two shapes are equal when the wire format is the same.
indirect enum TypeShape: Equatable, CustomStringConvertible {
    case bool, int, float, string, object
    case array(TypeShape)
    case optional(TypeShape)
    case record([String: TypeShape])
    /// A Varlink enum: one of these strings.
    case choice([String])

    var description: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .string: "string"
        case .object: "object"
        case .array(let element): "[]\(element)"
        case .optional(let wrapped): "?\(wrapped)"
        case .record(let fields): "(" + fields.keys.sorted().map { "\($0): \(fields[$0]!)" }.joined(separator: ", ") + ")"
        case .choice(let names): "(" + names.joined(separator: ", ") + ")"
        }
    }

    /// The differences from `other`, one line each, with where they are (`reminder.next.slot`).
    func differences(from other: TypeShape, at path: String) -> [String] {
        switch (self, other) {
        case (.record(let mine), .record(let theirs)):
            var found: [String] = []
            for key in Set(mine.keys).union(theirs.keys).sorted() {
                let place = path.isEmpty ? key : path + "." + key
                switch (mine[key], theirs[key]) {
                case (let a?, let b?): found += a.differences(from: b, at: place)
                case (_?, nil): found.append("\(place): only in the Swift type")
                case (nil, _?): found.append("\(place): only in the IDL")
                case (nil, nil): break
                }
            }
            return found
        case (.array(let a), .array(let b)): return a.differences(from: b, at: path + "[]")
        case (.optional(let a), .optional(let b)): return a.differences(from: b, at: path)
        default: return self == other ? [] : ["\(path.isEmpty ? "(parameters)" : path): Swift \(self), IDL \(other)"]
        }
    }
}
