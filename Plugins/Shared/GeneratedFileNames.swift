/// The files `strata generate` writes for one model. The build plugin must name every output
/// before the generator runs, so the generator and the plugin compile this same file.
///
/// Entity classes, each followed by its snapshot, are spread over `shardCount` files: changing
/// one entity changes one file, and SwiftPM recompiles that file, not every class of the model; a
/// clean build compiles the shards in parallel.
enum GeneratedFileNames {
    /// How many files hold the entity classes and their snapshots. With 64, a change to one
    /// attribute of a 200-entity model recompiles the file of about three classes that holds its
    /// entity, beside the module's interface step, then at most the file of a class whose
    /// relationships hold it in a `Set` (Swift recompiles a file that uses a class as a
    /// constrained generic argument whenever that class's declarations change), each as small
    /// (Scripts/measure-plugin-rebuild.py: 7.4 to 8.0 s with 16 files of classes and 16 of
    /// snapshots, 6.0 to 6.5 s with 32 of both; later, with the layout of today, 4.3 to 5.4 s,
    /// median 5.2 s, with 32 and 4.3 to 4.7 s, median 4.4 s, with 64). A small app's empty files
    /// cost its clean build next to nothing (the sample: 37.7 s with 32, 38.1 s with 64).
    static let shardCount = 64

    /// The shard, 1 through `shardCount`, that an entity's class and snapshot go to: a hash of its
    /// name (FNV-1a), so an entity never moves when others are added or removed.
    static func shard(ofEntity name: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return Int(hash % UInt64(shardCount)) + 1
    }

    /// `<prefix>Entities<shard>.swift`.
    static func entities(_ prefix: String, shard: Int) -> String { prefix + "Entities\(shard).swift" }
    /// The model's root enum and its current version.
    static func schemaHistory(_ prefix: String) -> String { prefix + "SchemaHistory.swift" }
    /// The model's older versions, which change only when a version is sealed or added.
    static func schemaVersions(_ prefix: String) -> String { prefix + "SchemaVersions.swift" }
    /// The importer conformances.
    static func importers(_ prefix: String) -> String { prefix + "Importers.swift" }
    /// The migration scaffolding.
    static func migrations(_ prefix: String) -> String { prefix + "Migrations.swift" }

    /// The OpenAPI document of the current version's components, as a string constant.
    static func openAPI(_ prefix: String) -> String { prefix + "OpenAPI.swift" }

    /// The generated migration tests (`strata generate --migration-tests`; the build plugin on a
    /// test target).
    static func migrationTests(_ prefix: String) -> String { prefix + "MigrationTests.swift" }

    /// Every file, in the order the generator lists them.
    static func all(prefix: String) -> [String] {
        (1...shardCount).map { entities(prefix, shard: $0) }
            + [schemaHistory(prefix), schemaVersions(prefix), importers(prefix), migrations(prefix), openAPI(prefix)]
    }
}
