// swift-tools-version: 6.1
import PackageDescription

// A Hummingbird 2 server over a Strata model: people and their dogs as a JSON API, a live list of
// dogs as server-sent events, sync with devices' CloudStores at /sync, on SQLite with no setup or on the PostgreSQL database DATABASE_URL
// names (several processes may serve one database), its metrics in Prometheus's format. Strata's
// PostgreSQL trait also turns on its Telemetry trait (StrataTelemetry). The build plugin turns the YAML model in
// Sources/PetServerApp/Models/PetServer into Swift.
let package = Package(
    name: "PetServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "strata", path: "../..", traits: ["PostgreSQL"]),
        // Without its default traits: this app reads no swift-configuration files.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "PetServerApp",
            dependencies: [
                .product(name: "Strata", package: "strata"),
                .product(name: "StrataPostgres", package: "strata"),
                .product(name: "StrataTelemetry", package: "strata"),
                .product(name: "StrataSyncServer", package: "strata"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            exclude: ["Models"],
            plugins: [.plugin(name: "StrataPlugin", package: "strata")]
        ),
        .executableTarget(
            name: "PetServer",
            dependencies: [
                "PetServerApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "PetServerTests",
            dependencies: ["PetServer", "PetServerApp", .product(name: "StrataCloud", package: "strata")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
