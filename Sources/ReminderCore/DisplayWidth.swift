/// How many terminal columns text takes: what aligns a table with emoji and CJK names in it.
extension String {
    /// Columns on a terminal: 2 for wide characters (CJK, fullwidth forms, emoji shown as pictures), 0 for
    /// control characters, 1 otherwise; a grapheme (a letter with its accents, an emoji sequence) counts once.
    public var displayWidth: Int {
        // Printable ASCII, most cells of a table: one column a byte, without Unicode's tables (looking those up
        // was a tenth of `remindctl next`).
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return utf8.count }
        return reduce(0) { $0 + $1.displayWidth }
    }

    /// Pads with spaces to `width` columns (by display width).
    public func padded(toDisplayWidth width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - displayWidth))
    }
}

extension Character {
    /// Columns on a terminal (see `String.displayWidth`).
    public var displayWidth: Int {
        guard let first = unicodeScalars.first else { return 0 }
        if unicodeScalars.contains(where: { $0.properties.isEmojiPresentation }) || unicodeScalars.contains("\u{FE0F}") { return 2 }
        if first.properties.generalCategory == .control || first.properties.generalCategory == .format { return 0 }
        return Self.wideRanges.contains { $0.contains(first.value) } ? 2 : 1
    }

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth.txt, W and F, by block).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
