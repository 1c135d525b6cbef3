/// "Did you mean" hints for misspelt keys and names.
public enum Suggestion {
    /// The candidate closest to `word`, when it is close enough to be a likely typo.
    ///
    /// Closeness is the Damerau–Levenshtein distance (a swap of two neighbours counts once),
    /// compared without case; a candidate qualifies within a third of the word's length (at least 1,
    /// at most 3 edits, and fewer edits than the word has characters). Ties go to the candidate that sorts first, so hints are deterministic.
    public static func closest<S: Sequence>(to word: String, in candidates: S) -> String? where S.Element == String {
        let target = Array(word.lowercased())
        let limit = min(3, max(1, target.count / 3))
        var best: (distance: Int, name: String)?
        for candidate in candidates where candidate != word {
            let distance = editDistance(target, Array(candidate.lowercased()))
            guard distance <= limit, distance < target.count else { continue }
            if let current = best, (current.distance, current.name) <= (distance, candidate) { continue }
            best = (distance, candidate)
        }
        return best?.name
    }

    /// `"; did you mean 'x'?"` when there is a close candidate, otherwise the empty string.
    static func hint<S: Sequence>(for word: String, in candidates: S) -> String where S.Element == String {
        guard let match = closest(to: word, in: candidates) else { return "" }
        return "; did you mean '\(match)'?"
    }

    /// Optimal-string-alignment distance between two character arrays.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
