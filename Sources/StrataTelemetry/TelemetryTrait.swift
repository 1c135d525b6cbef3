#if !Telemetry
/// Without the package's Telemetry trait (or PostgreSQL, which turns it on) this product holds no
/// instrumentation, and naming it is an error that says what to write: swift-metrics and
/// swift-distributed-tracing are built only for apps that ask for them.
@available(*, unavailable, message: "StrataTelemetry needs Strata's Telemetry trait: depend on the package with .package(url: \"…\", from: \"…\", traits: [\"Telemetry\"]) (PostgreSQL turns it on too), or build this package with --traits Telemetry")
public struct StrataTelemetry {
    /// Unavailable without the trait; its arguments take anything, so that the call itself
    /// reports the missing trait.
    @available(*, unavailable, message: "StrataTelemetry needs Strata's Telemetry trait: depend on the package with .package(url: \"…\", from: \"…\", traits: [\"Telemetry\"]) (PostgreSQL turns it on too), or build this package with --traits Telemetry")
    public init(prefix: String = "strata", dimensions: [(String, String)] = [], metricsFactory: Any? = nil, tracer: Any? = nil) {}
}
#endif
