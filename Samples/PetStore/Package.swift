// swift-tools-version: 6.1
import PackageDescription

// A small app that uses Strata exactly as a user would: the build plugin turns the YAML model in
// Sources/PetStore/Models/PetStore into Swift on every build that changes it.
// `swift run PetStore sync …` makes it a device that syncs with a running PetServer (PetStoreSync).
// It runs on SQLite; built with `--traits PostgreSQL`, it also runs on the PostgreSQL database that
// STRATA_POSTGRES_URL names, through Strata's own PostgreSQL trait.
let package = Package(
    name: "PetStore",
    traits: [
        .trait(name: "PostgreSQL", description: "Runs on the database STRATA_POSTGRES_URL names"),
    ],
    dependencies: [
        .package(name: "strata", path: "../..", traits: [.trait(name: "PostgreSQL", condition: .when(traits: ["PostgreSQL"]))]),
    ],
    targets: [
        .executableTarget(
            name: "PetStore",
            dependencies: [
                .product(name: "Strata", package: "strata"),
                .product(name: "StrataPostgres", package: "strata", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "StrataTesting", package: "strata"),
                "PetStoreSync",
            ],
            exclude: ["Models"],
            plugins: [.plugin(name: "StrataPlugin", package: "strata")]
        ),
        // `PetStore sync …`: a device of a running PetServer, on the server's own model (its
        // Models/PetServer folder links to the server's), so its classes live apart from PetStore's.
        .target(
            name: "PetStoreSync",
            dependencies: [
                .product(name: "Strata", package: "strata"),
                .product(name: "StrataCloud", package: "strata"),
            ],
            exclude: ["Models"],
            plugins: [.plugin(name: "StrataPlugin", package: "strata")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
