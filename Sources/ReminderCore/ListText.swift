extension String {
    /// The items of a comma-separated list (`--at`, `--weekly`, `--monthly`, `--skip`), each without the spaces
    /// around it; an empty item (`a,,b`) is left out, as `split` leaves it. Read on the bytes (a comma and a space
    /// are ASCII): every rule's lists are read at every start, and `split` on characters with a string made of
    /// each item was a twelfth of a start with 100,000 reminders.
    var commaSeparatedItems: [Substring] {
        let bytes = utf8
        var items: [Substring] = []
        var itemStart = bytes.startIndex
        func addItem(endingAt end: String.Index) {
            guard itemStart < end else { return }
            var (low, high) = (itemStart, end)
            while low < high, bytes[low] == UInt8(ascii: " ") { low = bytes.index(after: low) }
            while high > low, bytes[bytes.index(before: high)] == UInt8(ascii: " ") { high = bytes.index(before: high) }
            items.append(self[low..<high])
        }
        while let comma = bytes[itemStart...].firstIndex(of: UInt8(ascii: ",")) {
            addItem(endingAt: comma)
            itemStart = bytes.index(after: comma)
        }
        addItem(endingAt: bytes.endIndex)
        return items
    }
}

extension StringProtocol {
    /// Without the spaces around it.
    var trimmingSpaces: String {
        guard first == " " || last == " " else { return String(self) }
        return String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
