// swift-tools-version: 6.1
import PackageDescription

// Compares Strata with raw SQLite prepared statements and with GRDB records, and on PostgreSQL with
// postgres-nio by hand and with Fluent, in one process.
// Run: swift run -c release --package-path Benchmarks strata-bench [workload...]
let package = Package(
    name: "strata-benchmarks",
    dependencies: [
        .package(name: "strata", path: "..", traits: ["PostgreSQL"]),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/fluent-kit", exact: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver", exact: "2.14.0"),
    ],
    targets: [
        .systemLibrary(name: "CBenchSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "strata-bench",
            dependencies: [
                "CBenchSQLite",
                .product(name: "Strata", package: "strata"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "StrataPostgres", package: "strata"),
                .product(name: "StrataTelemetry", package: "strata"),
                .product(name: "StrataCloud", package: "strata"),
                .product(name: "StrataSyncServer", package: "strata"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
