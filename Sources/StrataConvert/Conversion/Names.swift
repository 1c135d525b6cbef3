import Foundation
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
    /// `Model` < `Model 2` < `Model 10` (Foundation's numeric comparison; names it finds equal,
    /// such as `Model 02` and `Model 2`, are ordered by their text).
    static func naturallyPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        switch lhs.compare(rhs, options: .numeric) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return lhs < rhs
        }
    }
}
