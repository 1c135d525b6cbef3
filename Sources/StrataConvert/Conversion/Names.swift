import StrataSchema

/// Names Core Data allows and Swift does not, made into identifiers; and the natural order of
/// version names.
enum Names {
    /// `name` as an identifier: spaces and hyphens are dropped, any other character that cannot
    /// be in an identifier becomes `_`, and a name that cannot start one gets `prefix` in front
    /// (`MyApp 2` → `MyApp2`, `MyApp.V2` → `MyApp_V2`, `2.0` → `V2_0`).
    static func identifier(_ name: String, prefix: String = "_") -> String {
        var result = ""
        var head = ""
        for scalar in name.unicodeScalars {
            if scalar == " " || scalar == "-" { continue }
            if result.isEmpty, !ModelNames.isValid(String(scalar)) { head = prefix }
            let candidate = result + String(scalar)
            result = ModelNames.isValid(head + candidate) ? candidate : result + "_"
        }
        return ModelNames.isValid(head + result) ? head + result : prefix + result
    }

    /// Whether `lhs` comes before `rhs` when runs of digits compare as numbers:
    /// `Model` < `Model 2` < `Model 10`.
    static func naturallyPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        let left = chunks(lhs), right = chunks(rhs)
        for (a, b) in zip(left, right) where a != b {
            switch (a, b) {
            case (.number(let x, let xText), .number(let y, let yText)):
                return x != y ? x < y : xText < yText
            case (.number, .text): return true
            case (.text, .number): return false
            case (.text(let x), .text(let y)): return x < y
            }
        }
        return left.count != right.count ? left.count < right.count : lhs < rhs
    }

    private enum Chunk: Equatable {
        case text(String)
        case number(Double, String)
    }

    private static func chunks(_ text: String) -> [Chunk] {
        var result: [Chunk] = []
        var current = ""
        var inDigits = false
        func flush() {
            guard !current.isEmpty else { return }
            result.append(inDigits ? .number(Double(current) ?? 0, current) : .text(current))
            current = ""
        }
        for character in text {
            let isDigit = character.isASCII && character.isNumber
            if isDigit != inDigits { flush() }
            inDigits = isDigit
            current.append(character)
        }
        flush()
        return result
    }
}
