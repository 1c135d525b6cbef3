import StrataSchema

/// Default dates as Swift numbers.
enum DefaultDate {
    /// Seconds since 1970 of a canonical default date; `0` for text that is not one (validation
    /// rejects such defaults before generation).
    static func seconds(_ canonical: String) -> String {
        CanonicalDate.secondsLiteral(canonical) ?? "0"
    }
}
