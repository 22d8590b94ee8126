import Foundation
import Glibc
import ReminderCore

/// A backup file (the document `remindctl export` writes) read in bounded memory, in two passes: ``index()``
/// reads the header's values and where each table's rows begin, skipping the rows, so that a newer format or an
/// unknown table is refused before any row is read; ``rows(at:_:)`` then reads one table's rows one at a time.
/// A row's numbers are read exactly (an integer as `Int64`, not through a `Double`).
final class BackupFile {
    /// What the file says about itself, and where each table's array begins (a byte offset).
    struct Index {
        var format: String?
        var version: Int64?
        var schema: String?
        var tables: [String: Int64] = [:]
    }

    /// Where the file is not JSON, or not shaped like a backup.
    struct Damaged: Error, CustomStringConvertible {
        let offset: Int64
        let reason: String
        var description: String { "at byte \(offset): \(reason)" }
    }

    /// The longest text a value may hold (a name is at most 200 characters; this only bounds memory).
    static let maximumTextBytes = 1 << 24

    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    /// The file offset of `buffer[0]`, and the part of the buffer read.
    private var bufferOffset: Int64 = 0
    private var start = 0
    private var end = 0

    /// Opens `path`, which must be a regular file (a FIFO would block the reader, a device never end).
    /// - Throws: ``BackupRefused`` saying why it cannot be read.
    init(path: String) throws(BackupRefused) {
        descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw BackupRefused(description: "cannot read it (\(String(cString: strerror(errno)))): remindd opens it itself, so give a path remindd may read")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw BackupRefused(description: "not a regular file (a pipe, device or folder): export to a file first, then import that file")
        }
    }

    deinit { close(descriptor) }

    private var position: Int64 { bufferOffset + Int64(start) }

    private func damaged(_ reason: String) -> Damaged { Damaged(offset: position, reason: reason) }

    /// The next byte without taking it; nil at the end of the file.
    private func peek() throws(Damaged) -> UInt8? {
        if start == end {
            bufferOffset += Int64(end)
            (start, end) = (0, 0)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(bufferOffset)) }
            guard count >= 0 else { throw damaged("cannot read: \(String(cString: strerror(errno)))") }
            if count == 0 { return nil }
            end = count
        }
        return buffer[start]
    }

    private func take() throws(Damaged) -> UInt8 {
        guard let byte = try peek() else { throw damaged("the file ends in the middle") }
        start += 1
        return byte
    }

    private func seek(to offset: Int64) {
        (bufferOffset, start, end) = (offset, 0, 0)
    }

    /// The next byte that is not white space (not taken).
    private func next() throws(Damaged) -> UInt8 {
        guard let byte = try nextOrEnd() else { throw damaged("the file ends in the middle") }
        return byte
    }

    /// The next byte that is not white space (not taken), or nil at the end of the file.
    private func nextOrEnd() throws(Damaged) -> UInt8? {
        while let byte = try peek() {
            guard [0x20, 0x0A, 0x0D, 0x09].contains(byte) else { return byte }
            start += 1
        }
        return nil
    }

    private func expect(_ character: Character) throws(Damaged) {
        guard try next() == character.asciiValue! else { throw damaged("expected '\(character)'") }
        start += 1
    }

    /// Reads the top level: the header's values, and each table's offset (its rows skipped).
    func index() throws(Damaged) -> Index {
        seek(to: 0)
        var index = Index()
        try members { key throws(Damaged) in
            switch key {
            case "format": index.format = try text(of: try value(), key)
            case "schema": index.schema = try text(of: try value(), key)
            case "version":
                guard case .integer(let version) = try value() else { throw damaged("'version' is not a whole number") }
                index.version = version
            case "tables":
                try members { table throws(Damaged) in
                    guard index.tables[table] == nil else { throw damaged("the table '\(table)' comes twice") }
                    _ = try next()
                    index.tables[table] = position
                    try skipValue()
                }
            default: try skipValue()  // exportedAt, and what a later format may add
            }
        }
        guard try nextOrEnd() == nil else { throw damaged("something follows the document") }
        return index
    }

    /// Hands each row of the table whose array begins at `offset` to `body`, with its place (0 first).
    func rows(at offset: Int64, _ body: ([String: StoreValue], Int) throws -> Void) throws {
        seek(to: offset)
        try expect("[")
        var count = 0
        if try next() == UInt8(ascii: "]") { return }  // (left untaken: nothing reads on)
        while true {
            var row: [String: StoreValue] = [:]
            try members { column throws(Damaged) in
                guard row[column] == nil else { throw damaged("the column '\(column)' comes twice in a row") }
                row[column] = try value()
            }
            try body(row, count)
            count += 1
            switch try next() {
            case UInt8(ascii: ","): start += 1
            case UInt8(ascii: "]"): return
            default: throw damaged("expected ',' or ']' after a row")
            }
        }
    }

    /// Reads an object, handing each member's key to `body`, which reads its value.
    private func members(_ body: (String) throws(Damaged) -> Void) throws(Damaged) {
        try expect("{")
        if try next() == UInt8(ascii: "}") {
            start += 1
            return
        }
        while true {
            guard try next() == UInt8(ascii: "\"") else { throw damaged("expected a key in quotes") }
            let key = try string()
            try expect(":")
            try body(key)
            switch try next() {
            case UInt8(ascii: ","): start += 1
            case UInt8(ascii: "}"):
                start += 1
                return
            default: throw damaged("expected ',' or '}'")
            }
        }
    }

    private func text(of value: StoreValue, _ key: String) throws(Damaged) -> String {
        guard case .text(let text) = value else { throw damaged("'\(key)' is not text") }
        return text
    }

    /// A column's value: text, a number (an integer exactly), null, or a blob as `{"base64": "..."}`.
    private func value() throws(Damaged) -> StoreValue {
        switch try next() {
        case UInt8(ascii: "\""): return .text(try string())
        case UInt8(ascii: "n"):
            for byte in "null".utf8 {
                guard try take() == byte else { throw damaged("expected null") }
            }
            return .null
        case UInt8(ascii: "{"):
            var bytes: Data?
            try members { key throws(Damaged) in
                guard key == "base64", case .text(let text) = try value(), let decoded = Data(base64Encoded: text) else {
                    throw damaged("an object that is not a blob ({\"base64\": \"...\"})")
                }
                bytes = decoded
            }
            guard let bytes else { throw damaged("an object that is not a blob ({\"base64\": \"...\"})") }
            return .blob(bytes)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw damaged("not a column value (text, a number, null or a blob)")
        }
    }

    private func number() throws(Damaged) -> StoreValue {
        var text = ""
        var integral = true
        while let byte = try peek(), byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { integral = false }
            text.append(Character(UnicodeScalar(byte)))
            start += 1
            guard text.utf8.count <= 400 else { throw damaged("a number too long") }
        }
        if integral, let integer = Int64(text) { return .integer(integer) }
        guard let real = Double(text), real.isFinite else { throw damaged("\(quotedInput(text)) is not a number in range") }
        return .real(real)
    }

    /// A string whose opening quote is next, unescaped.
    private func string() throws(Damaged) -> String {
        start += 1
        var bytes: [UInt8] = []
        while true {
            let byte = try take()
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: bytes, as: UTF8.self) else { throw damaged("a string that is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                let escaped = try take()
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escaped)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard try take() == UInt8(ascii: "\\"), try take() == UInt8(ascii: "u") else { throw damaged("a lone surrogate") }
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw damaged("a lone surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw damaged("a lone surrogate") }
                    bytes.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw damaged("an unknown escape")
                }
            case 0..<0x20: throw damaged("a control character in a string")
            default: bytes.append(byte)
            }
            guard bytes.count <= Self.maximumTextBytes else { throw damaged("a text longer than \(Self.maximumTextBytes) bytes") }
        }
    }

    private func hex4() throws(Damaged) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(UnicodeScalar(try take())).hexDigitValue else { throw damaged("a bad \\u escape") }
            value = value * 16 + UInt32(digit)
        }
        return value
    }

    /// Skips one value of any kind (an array of rows in ``index()``), keeping no more than a string's bytes.
    private func skipValue() throws(Damaged) {
        var depth = 0
        repeat {
            switch try next() {
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                start += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                start += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                guard depth > 0 else { throw damaged("expected a value") }
                start += 1
            default:
                // A scalar: take it whole.
                while let byte = try peek(), ![0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ":")].contains(byte) {
                    start += 1
                }
            }
            guard depth >= 0 else { throw damaged("a closing bracket too many") }
        } while depth > 0
    }
}
