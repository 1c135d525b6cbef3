// swift-tools-version: 6.1
import PackageDescription

/// What only a build with the PostgreSQL trait compiles.
let postgreSQL: TargetDependencyCondition? = .when(traits: ["PostgreSQL"])
/// What only a build with the Telemetry trait (which PostgreSQL turns on) compiles.
let telemetry: TargetDependencyCondition? = .when(traits: ["Telemetry"])

let package = Package(
    name: "strata",
    products: [
        .executable(name: "strata", targets: ["strata"]),
        .plugin(name: "StrataPlugin", targets: ["StrataPlugin"]),
        .plugin(name: "StrataVerifyPlugin", targets: ["StrataVerifyPlugin"]),
        .plugin(name: "StrataLockPlugin", targets: ["StrataLockPlugin"]),
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataTesting", targets: ["StrataTesting"]),
        .library(name: "StrataSwiftLog", targets: ["StrataSwiftLog"]),
        .library(name: "StrataSchema", targets: ["StrataSchema"]),
        .library(name: "StrataCodegen", targets: ["StrataCodegen"]),
        .library(name: "StrataConvert", targets: ["StrataConvert"]),
        .library(name: "StrataPostgres", targets: ["StrataPostgres"]),
        .library(name: "StrataTelemetry", targets: ["StrataTelemetry"]),
        .library(name: "StrataSyncServer", targets: ["StrataSyncServer"]),
        .library(name: "StrataCloud", targets: ["StrataCloud"]),
    ],
    // PostgreSQL is a trait: an app asks for it on its dependency line,
    // `.package(url: ..., from: ..., traits: ["PostgreSQL"])`, and only then do postgres-nio,
    // SwiftNIO and swift-nio-ssl enter its graph (SwiftPM 6.2 and later resolve none of a
    // dependency that only a disabled trait uses; 6.1 still resolves it, and builds none of it).
    // Telemetry is a trait too (swift-metrics and swift-distributed-tracing, for StrataTelemetry),
    // which PostgreSQL turns on: postgres-nio brings swift-metrics already, and servers want both.
    traits: [
        .trait(name: "PostgreSQL", description: "PostgreSQLStore, in the StrataPostgres product, over postgres-nio; turns on Telemetry",
               enabledTraits: ["Telemetry"]),
        .trait(name: "Telemetry", description: "StrataTelemetry: a stack's transactions and reads as swift-metrics metrics and tracing spans"),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/stencilproject/Stencil", exact: "0.15.1"),
        // Only `StrataPostgres` uses these, and only with the PostgreSQL trait.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Only `StrataTelemetry` uses these, and only with the Telemetry trait.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // Only the sync tests use it (property tests); no product depends on it, so an app
        // resolves it but never builds it.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "Strata",
            dependencies: ["CSQLite"]
        ),
        // glibc's heap statistics, for the crash child's allocation counts; not a product.
        .systemLibrary(name: "CMallocInfo"),
        .target(
            name: "StrataPostgres",
            dependencies: [
                "Strata",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: postgreSQL),
                .product(name: "NIOCore", package: "swift-nio", condition: postgreSQL),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: postgreSQL),
                .product(name: "NIOPosix", package: "swift-nio", condition: postgreSQL),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: postgreSQL),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "StrataTelemetry",
            dependencies: [
                "Strata",
                .product(name: "Metrics", package: "swift-metrics", condition: telemetry),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: telemetry),
            ]
        ),
        .target(
            name: "StrataSwiftLog",
            dependencies: ["Strata", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "StrataSyncCore",
            dependencies: []
        ),
        // What a synced device and a sync server share: stamping commits, merging and applying
        // changes. Not a product: StrataCloud and StrataSyncServer bring it.
        .target(
            name: "StrataSyncEngine",
            dependencies: ["Strata", "StrataSyncCore"]
        ),
        // The device half of sync: a SQLite store that syncs with the app's server over URLSession.
        .target(
            name: "StrataCloud",
            dependencies: ["Strata", "StrataSyncCore", "StrataSyncEngine"]
        ),
        // The server half of sync: answers devices' pushes and pulls as bytes in, bytes out.
        .target(
            name: "StrataSyncServer",
            dependencies: ["Strata", "StrataSyncCore", "StrataSyncEngine"]
        ),
        .target(
            name: "StrataSchema",
            dependencies: ["CYAML"]
        ),
        .target(
            name: "StrataCodegen",
            dependencies: ["StrataSchema", .product(name: "Stencil", package: "Stencil")]
        ),
        .target(
            name: "StrataConvert",
            dependencies: ["StrataSchema"]
        ),
        .executableTarget(
            name: "strata",
            dependencies: [
                "Strata",
                "StrataSchema",
                "StrataSyncEngine",
                "StrataCodegen",
                "StrataConvert",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "StrataTesting",
            dependencies: ["Strata"]
        ),
        // A child process the crash tests kill with SIGKILL; not a product.
        .executableTarget(
            name: "strata-crash-child",
            dependencies: ["Strata", .target(name: "StrataPostgres", condition: postgreSQL), "StrataTesting", "CSQLite", "CMallocInfo",
                           "StrataCloud", "StrataSyncServer", "StrataTestSupport"],
            path: "Sources/StrataCrashChild",
            exclude: ["Models"],
            plugins: ["StrataPlugin"]
        ),
        // The test targets' temporary folders (deleted when the test process exits) and their logger; not a product.
        .target(
            name: "StrataTestSupport",
            dependencies: ["Strata", .target(name: "StrataPostgres", condition: postgreSQL)],
            path: "Tests/StrataTestSupport"
        ),
        // The same app at three model versions, for tests of sync across app versions: each a
        // device (and the later ones also the server) whose generated classes stay inside it.
        .target(
            name: "KennelV1Device",
            dependencies: ["Strata", "StrataCloud"],
            path: "Tests/KennelV1Device",
            exclude: ["Models"],
            plugins: ["StrataPlugin"]
        ),
        .target(
            name: "KennelV2Device",
            dependencies: ["Strata", "StrataCloud"],
            path: "Tests/KennelV2Device",
            exclude: ["Models"],
            plugins: ["StrataPlugin"]
        ),
        .target(
            name: "KennelV3Device",
            dependencies: ["Strata", "StrataCloud"],
            path: "Tests/KennelV3Device",
            exclude: ["Models"],
            plugins: ["StrataPlugin"]
        ),
        .testTarget(
            name: "StrataSchemaTests",
            dependencies: ["StrataSchema", "StrataTestSupport"]
        ),
        .testTarget(
            name: "StrataTests",
            dependencies: ["Strata", .target(name: "StrataPostgres", condition: postgreSQL), "StrataSwiftLog", "StrataTestSupport",
                           .product(name: "Logging", package: "swift-log"),
                           .target(name: "StrataTelemetry", condition: telemetry),
                           .product(name: "MetricsTestKit", package: "swift-metrics", condition: telemetry),
                           .product(name: "InMemoryTracing", package: "swift-distributed-tracing", condition: telemetry)]
        ),
        .plugin(
            name: "StrataPlugin",
            capability: .buildTool(),
            dependencies: ["strata"]
        ),
        .plugin(
            name: "StrataVerifyPlugin",
            capability: .command(intent: .custom(verb: "strata-verify", description: "Verify the version locks of every model in the package")),
            dependencies: ["strata"]
        ),
        .plugin(
            name: "StrataLockPlugin",
            capability: .command(
                intent: .custom(verb: "strata-lock", description: "Seal the versions of every model in the package"),
                permissions: [.writeToPackageDirectory(reason: "strata lock writes version locks into the model files")]
            ),
            dependencies: ["strata"]
        ),
        .testTarget(
            name: "StrataPostgresTests",
            dependencies: [.target(name: "StrataPostgres", condition: postgreSQL), "Strata", "StrataTestSupport"]
        ),
        .testTarget(
            name: "StrataEndToEndTests",
            dependencies: ["Strata", .target(name: "StrataPostgres", condition: postgreSQL), "StrataTesting", "StrataTestSupport",
                           "StrataSchema", "StrataCodegen"],
            exclude: ["Models"],
            plugins: ["StrataPlugin"]
        ),
        .testTarget(
            name: "StrataCodegenTests",
            dependencies: ["StrataCodegen", "StrataSchema", "StrataTestSupport"],
            exclude: ["Golden", "OpenAPIReference"]
        ),
        .testTarget(
            name: "StrataSyncCoreTests",
            dependencies: ["StrataSyncCore", "StrataTestSupport"]
        ),
        .testTarget(
            name: "StrataSyncTests",
            dependencies: ["Strata", "StrataCloud", "StrataSyncServer", "StrataSyncEngine", "StrataSyncCore", "StrataTestSupport",
                           "KennelV1Device", "KennelV2Device", "KennelV3Device",
                           .target(name: "StrataPostgres", condition: postgreSQL),
                           .product(name: "PropertyBased", package: "swift-property-based")],
            exclude: ["Models"],
            plugins: ["StrataPlugin"]
        ),
        .testTarget(
            name: "StrataCLITests",
            dependencies: ["Strata", "StrataSchema", "StrataTestSupport"]
        ),
        .testTarget(
            name: "StrataConvertTests",
            dependencies: ["StrataConvert", "StrataSchema", "StrataTestSupport"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The documentation plugin (`swift package generate-documentation`) only when asked for, with
// STRATA_DOCS=1, so packages that use Strata never fetch or build it.
if Context.environment["STRATA_DOCS"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"))
}
