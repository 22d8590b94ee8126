/// A problem in a file a user edits (the config, the exercise library, a routine): the file, the line, and
/// what is wrong or what to write instead. Printed as `FILE:LINE: message`, as compilers do.
public struct FileLineError: Error, Hashable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file):\(line): \(message)" }
}
