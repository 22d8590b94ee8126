extension String {
    /// The items of a comma-separated list (`--at`, `--weekly`, `--monthly`, `--skip`), each without the spaces
    /// around it; an empty item (`a,,b`) is left out, as `split` leaves it (one of spaces is kept, empty). Read
    /// on the bytes (a comma and a space are ASCII): every rule's lists are read at every start, and `split` on
    /// characters with a string made of each item was a twelfth of a start with 100,000 reminders.
    var commaSeparatedItems: [Substring] {
        let bytes = utf8
        var items: [Substring] = []
        var itemStart = bytes.startIndex
        func addItem(endingAt end: String.Index) {
            if itemStart < end { items.append(self[itemStart..<end].withoutSurroundingSpaces) }
        }
        while let comma = bytes[itemStart...].firstIndex(of: UInt8(ascii: ",")) {
            addItem(endingAt: comma)
            itemStart = bytes.index(after: comma)
        }
        addItem(endingAt: bytes.endIndex)
        return items
    }
}

extension Substring {
    /// The text without the spaces around it, read on the bytes (a space is ASCII).
    var withoutSurroundingSpaces: Substring {
        var (low, high) = (utf8.startIndex, utf8.endIndex)
        while low < high, utf8[low] == UInt8(ascii: " ") { low = utf8.index(after: low) }
        while high > low, utf8[utf8.index(before: high)] == UInt8(ascii: " ") { high = utf8.index(before: high) }
        return self[low..<high]
    }
}

extension StringProtocol {
    /// Without the spaces around it.
    var trimmingSpaces: String { String(Substring(self).withoutSurroundingSpaces) }
}
