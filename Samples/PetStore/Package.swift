// swift-tools-version: 6.1
import PackageDescription

// A small app that uses Strata exactly as a user would: the build plugin turns the YAML model in
// Sources/PetStore/Models/PetStore into Swift on every build that changes it.
let package = Package(
    name: "PetStore",
    dependencies: [
        .package(name: "strata", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "PetStore",
            dependencies: [
                .product(name: "Strata", package: "strata"), .product(name: "StrataPostgres", package: "strata"),
                .product(name: "StrataTesting", package: "strata"),
            ],
            exclude: ["Models"],
            plugins: [.plugin(name: "StrataPlugin", package: "strata")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
