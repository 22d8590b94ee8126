/// Text for the parsers' robustness tests: strings shaped like the accepted forms (times, dates, durations,
/// offsets), with fields of any length, and plain noise.
public enum NoisyText {
    /// `count` random strings after a few known to have overflowed, the same on every run.
    public static func samples(count: Int) -> [String] {
        var random = SeededGenerator(seed: 42)
        let digitRuns = ["9", "99", "0000", "99999999999999999999", "18446744073709551616", "-9223372036854775808", String(repeating: "9", count: 400)]
        let pieces = digitRuns + [":", "-", "T", " ", "Z", "+", "d", "h", "m", "w", ",", "last", "sun", "2nd-", "\"", "'", "=", "#", "\u{0}", "é", "_"]
        var result = ["99999999999999999999", "99999999999999999999:00", "00:99999999999999999999", "2026-01-01T99999999999999999999:00",
                      "99999999999999999999d", "2026-01-01T07:00:00+99999999999999999999", "99999999999999999999-01-01"]
        for _ in 0..<count {
            let length = Int.random(in: 1...8, using: &random)
            result.append((0..<length).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        return result
    }
}
