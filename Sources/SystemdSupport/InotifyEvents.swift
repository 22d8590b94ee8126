import Glibc

/// The events of one inotify `read(2)`: each one's watch descriptor, mask and (for a watched directory) the
/// name of the entry it concerns.
struct InotifyEvent {
    var watch: Int32
    var mask: UInt32
    var name: String

    /// Whether the kernel's queue overflowed (events were dropped: anything may have changed).
    var overflowed: Bool { mask & UInt32(IN_Q_OVERFLOW) != 0 }

    /// The events in `bytes`, as read from an inotify descriptor.
    static func parse(_ bytes: ArraySlice<UInt8>) -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        func integer(at position: Int) -> Int32 {
            Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[position + $1]) << (8 * UInt32($1)) })
        }
        while offset + header <= bytes.endIndex {
            let nameLength = Int(integer(at: offset + 12))
            let nameBytes = bytes[(offset + header)..<min(offset + header + nameLength, bytes.endIndex)].prefix { $0 != 0 }
            events.append(InotifyEvent(
                watch: integer(at: offset), mask: UInt32(bitPattern: integer(at: offset + 4)), name: String(decoding: nameBytes, as: UTF8.self)))
            offset += header + nameLength
        }
        return events
    }
}
