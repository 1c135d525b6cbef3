import StrataSchema

/// Default dates as Swift numbers.
enum DefaultDate {
    /// Seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`) of a canonical default date, as
    /// an exact decimal literal; `0` for text that is not one (validation rejects such defaults
    /// before generation).
    static func referenceSeconds(_ canonical: String) -> String {
        CanonicalDate.referenceSecondsLiteral(canonical) ?? "0"
    }
}
