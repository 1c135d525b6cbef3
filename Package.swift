// swift-tools-version: 6.1
import PackageDescription

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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/stencilproject/Stencil", exact: "0.15.1"),
        // Only `StrataPostgres` uses these: an app that links `Strata` alone builds none of them.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
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
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "StrataSwiftLog",
            dependencies: ["Strata", .product(name: "Logging", package: "swift-log")]
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
            dependencies: ["Strata", "StrataPostgres", "StrataTesting", "CSQLite", "CMallocInfo"],
            path: "Sources/StrataCrashChild",
            exclude: ["Models"],
            plugins: ["StrataPlugin"]
        ),
        // The test targets' temporary folders (deleted when the test process exits) and their logger; not a product.
        .target(
            name: "StrataTestSupport",
            dependencies: ["Strata", "StrataPostgres"],
            path: "Tests/StrataTestSupport"
        ),
        .testTarget(
            name: "StrataSchemaTests",
            dependencies: ["StrataSchema", "StrataTestSupport"]
        ),
        .testTarget(
            name: "StrataTests",
            dependencies: ["Strata", "StrataPostgres", "StrataSwiftLog", "StrataTestSupport", .product(name: "Logging", package: "swift-log")]
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
            dependencies: ["StrataPostgres", "Strata", "StrataTestSupport"]
        ),
        .testTarget(
            name: "StrataEndToEndTests",
            dependencies: ["Strata", "StrataPostgres", "StrataTesting", "StrataTestSupport", "StrataSchema", "StrataCodegen"],
            exclude: ["Models"],
            plugins: ["StrataPlugin"]
        ),
        .testTarget(
            name: "StrataCodegenTests",
            dependencies: ["StrataCodegen", "StrataSchema", "StrataTestSupport"],
            exclude: ["Golden"]
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

// STRATA_WITHOUT_POSTGRES=1 leaves PostgreSQL out of this package's own build: no `StrataPostgres`,
// no postgres-nio, SwiftNIO or swift-nio-ssl. `.ci/run` builds its sanitizer passes so (building
// those dependencies under a sanitizer took most of a CI run); the tests that need a server then
// report that they did not run, and the PostgreSQL backend is tested by the plain pass.
if Context.environment["STRATA_WITHOUT_POSTGRES"] == "1" {
    let postgresTargets: Set<String> = ["StrataPostgres", "StrataPostgresTests"]
    package.products.removeAll { $0.name == "StrataPostgres" }
    package.targets.removeAll { postgresTargets.contains($0.name) }
    for target in package.targets {
        target.dependencies.removeAll { dependency in
            switch dependency {
            case .byNameItem(let name, _), .targetItem(let name, _): return name == "StrataPostgres"
            default: return false
            }
        }
    }
    package.dependencies.removeAll { dependency in
        guard case .sourceControl(_, let location, _) = dependency.kind else { return false }
        return ["postgres-nio", "swift-nio", "swift-nio-ssl"].contains { location.hasSuffix("/" + $0) }
    }
}
