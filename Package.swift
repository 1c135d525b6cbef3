// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "strata",
    products: [
        .library(name: "StrataSchema", targets: ["StrataSchema"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(
            name: "StrataSchema",
            dependencies: ["CYAML"]
        ),
        .testTarget(
            name: "StrataSchemaTests",
            dependencies: ["StrataSchema"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
