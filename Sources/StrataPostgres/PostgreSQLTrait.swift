#if !PostgreSQL
/// Without the package's PostgreSQL trait this product holds no store, and naming one is an error
/// that says what to write: postgres-nio and SwiftNIO are built only for apps that ask for them.
@available(*, unavailable, message: "PostgreSQLStore needs Strata's PostgreSQL trait: depend on the package with .package(url: \"…\", from: \"…\", traits: [\"PostgreSQL\"]), or build this package with --traits PostgreSQL")
public struct PostgreSQLStore {
    /// Unavailable without the trait; its arguments take anything, so that the call itself reports
    /// the missing trait whatever options it passes.
    @available(*, unavailable, message: "PostgreSQLStore needs Strata's PostgreSQL trait: depend on the package with .package(url: \"…\", from: \"…\", traits: [\"PostgreSQL\"]), or build this package with --traits PostgreSQL")
    public init(url: String, configuration: String? = nil, schema: String? = nil, externalCommits: Any? = nil, busyTimeout: Any? = nil,
                maximumWriters: Any? = nil, idleTimeout: Any? = nil, pooler: Any? = nil) {}
}
#endif
