/// How far apart two words are, for "did you mean" suggestions.
public enum EditDistance {
    /// Optimal string alignment distance (Levenshtein with adjacent swaps).
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// The candidate closest to `word` (case-insensitive) when it is close enough to be a typo: at most 2
    /// edits, and fewer than half the word's length; nil otherwise.
    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        let typed = word.lowercased()
        let scored = candidates.map { (candidate: $0, distance: between(typed, $0.lowercased())) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2, best.distance * 2 < max(typed.count, 2) else { return nil }
        return best.candidate
    }
}
