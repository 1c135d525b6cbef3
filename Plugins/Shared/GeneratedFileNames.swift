/// The files `strata generate` writes for one model. The build plugin must name every output
/// before the generator runs, so the generator and the plugin compile this same file.
///
/// Entity classes and snapshots are spread over `shardCount` files each: changing one entity
/// changes one file of each, and SwiftPM recompiles that file, not every class of the model; a
/// clean build compiles the shards in parallel.
enum GeneratedFileNames {
    /// How many files hold the entity classes, and how many the snapshots. With 16, a change to
    /// one entity of a 200-entity model recompiles about 12 classes (and the shards of entities
    /// whose relationships name it) instead of 25: 22 s to 13.8 s through the plugin
    /// (Scripts/measure-plugin-rebuild.py; 32 files gave 11.8 s but made a small app's clean
    /// build 5 s slower, 16 none).
    static let shardCount = 16

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
    /// `<prefix>Snapshots<shard>.swift`.
    static func snapshots(_ prefix: String, shard: Int) -> String { prefix + "Snapshots\(shard).swift" }
    /// The model's root enum and its current version.
    static func schemaHistory(_ prefix: String) -> String { prefix + "SchemaHistory.swift" }
    /// The model's older versions, which change only when a version is sealed or added.
    static func schemaVersions(_ prefix: String) -> String { prefix + "SchemaVersions.swift" }
    /// The importer conformances.
    static func importers(_ prefix: String) -> String { prefix + "Importers.swift" }
    /// The migration scaffolding.
    static func migrations(_ prefix: String) -> String { prefix + "Migrations.swift" }

    /// The generated migration tests (`strata generate --migration-tests`; the build plugin on a
    /// test target).
    static func migrationTests(_ prefix: String) -> String { prefix + "MigrationTests.swift" }

    /// Every file, in the order the generator lists them.
    static func all(prefix: String) -> [String] {
        let shards = Array(1...shardCount)
        return shards.map { entities(prefix, shard: $0) } + shards.map { snapshots(prefix, shard: $0) }
            + [schemaHistory(prefix), schemaVersions(prefix), importers(prefix), migrations(prefix)]
    }
}
