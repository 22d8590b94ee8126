/// Reads the binary TZif format (RFC 8536): the 64-bit block of version 2+ files and the POSIX TZ footer.
enum TZifParser {
    struct Parsed {
        var initialOffset: Int32
        var transitions: [(time: Int64, offset: Int32)]
        var footer: POSIXTimeZone?
    }

    static func parse(_ bytes: [UInt8], identifier: String) throws(TimeZoneError) -> Parsed {
        var reader = ByteReader(bytes: bytes)
        func fail(_ reason: String) -> TimeZoneError { .malformed(identifier, reason: reason) }

        guard let header = reader.header() else { throw fail("not a TZif file (bad magic or truncated header)") }
        var counts = header.counts
        var timeSize = 4
        if header.version >= 2 {
            // Skip the 32-bit block; the 64-bit block after it has the full range.
            guard reader.skip(counts.dataLength(timeSize: 4)), let second = reader.header() else {
                throw fail("truncated version 1 data block")
            }
            counts = second.counts
            timeSize = 8
        }
        guard let times = reader.integers(count: counts.time, size: timeSize),
            let indices = reader.bytes(count: counts.time)
        else { throw fail("truncated transition table") }
        var offsets: [Int32] = []
        for _ in 0..<counts.type {
            guard let utoff = reader.integers(count: 1, size: 4)?.first, reader.skip(2) else {
                throw fail("truncated local time types")
            }
            offsets.append(Int32(truncatingIfNeeded: utoff))
        }
        guard !offsets.isEmpty else { throw fail("no local time types") }
        guard reader.skip(counts.char + counts.leap * (timeSize + 4) + counts.isStd + counts.isUT) else {
            throw fail("truncated designations")
        }
        var transitions: [(time: Int64, offset: Int32)] = []
        transitions.reserveCapacity(counts.time)
        for (time, index) in zip(times, indices) {
            guard Int(index) < offsets.count else { throw fail("transition refers to a missing type") }
            transitions.append((time, offsets[Int(index)]))
        }
        var footer: POSIXTimeZone?
        if header.version >= 2, let text = reader.footer(), !text.isEmpty {
            guard let parsed = POSIXTimeZone(text) else { throw fail("unreadable POSIX TZ footer \(quotedInput(text))") }
            footer = parsed
        }
        return Parsed(initialOffset: offsets[0], transitions: transitions, footer: footer)
    }
}

private struct Counts {
    var isUT = 0, isStd = 0, leap = 0, time = 0, type = 0, char = 0

    func dataLength(timeSize: Int) -> Int {
        time * timeSize + time + type * 6 + char + leap * (timeSize + 4) + isStd + isUT
    }
}

private struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position + count <= bytes.count else { return false }
        position += count
        return true
    }

    mutating func bytes(count: Int) -> ArraySlice<UInt8>? {
        guard position + count <= bytes.count else { return nil }
        defer { position += count }
        return bytes[position..<position + count]
    }

    /// Big-endian signed integers of 4 or 8 bytes.
    mutating func integers(count: Int, size: Int) -> [Int64]? {
        guard let raw = bytes(count: count * size) else { return nil }
        var result: [Int64] = []
        result.reserveCapacity(count)
        var index = raw.startIndex
        for _ in 0..<count {
            var value: UInt64 = 0
            for _ in 0..<size {
                value = value << 8 | UInt64(raw[index])
                index += 1
            }
            result.append(size == 4 ? Int64(Int32(truncatingIfNeeded: value)) : Int64(bitPattern: value))
        }
        return result
    }

    mutating func header() -> (version: Int, counts: Counts)? {
        guard let magic = bytes(count: 4), magic.elementsEqual("TZif".utf8), let version = bytes(count: 1)?.first,
            skip(15), let c = integers(count: 6, size: 4)
        else { return nil }
        let counts = Counts(isUT: Int(c[0]), isStd: Int(c[1]), leap: Int(c[2]), time: Int(c[3]), type: Int(c[4]), char: Int(c[5]))
        guard [counts.isUT, counts.isStd, counts.leap, counts.time, counts.type, counts.char].allSatisfy({ $0 >= 0 })
        else { return nil }
        return (version == 0 ? 1 : Int(version) - 0x30, counts)
    }

    /// The text between the two newlines that end a version 2+ file.
    mutating func footer() -> String? {
        guard position < bytes.count, bytes[position] == 0x0A else { return nil }
        let rest = bytes[(position + 1)...]
        guard let end = rest.firstIndex(of: 0x0A) else { return nil }
        return String(decoding: rest[..<end], as: UTF8.self)
    }
}
