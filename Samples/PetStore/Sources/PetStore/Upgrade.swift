import Foundation
import Strata
import StrataTesting

/// A store written by the first release (seeded from plain values: the app has no V1 classes any
/// more), opened by this one: it is migrated V1 → V2 → V3 in one transaction, with progress.
@MainActor
func openFirstReleaseStore(in folder: URL) async throws {
    let old = folder.appendingPathComponent("FirstRelease.sqlite")
    try StoreSeeding.seedStore(at: old, history: PetStore.schemaHistory, version: "V1", objects: [
        SeedObject("Person", id: 1, ["personID": Int64(1), "name": "Ada Lovelace", "nickname": "Ada"], relationships: ["pets": [10, 11]]),
        SeedObject("Dog", id: 10, ["species": "dog", "nickname": "Rex"]),
        SeedObject("Dog", id: 11, ["species": "dog"]),
        SeedObject("Cat", id: 12, ["species": "cat"]),
    ])
    let upgraded = DataStack(PetStore.schemaHistory)
    print("migrations needed:", try upgraded.requiredMigrations(for: SQLiteStore(fileURL: old)))
    for try await progress in upgraded.addStorageWithProgress(SQLiteStore(fileURL: old)) {
        print(progress.isFinished ? "migrated" : "migrating \(progress.sourceVersion) → \(progress.destinationVersion)")
    }
    for dog in try upgraded.fetchAll(From<Dog>().orderBy(.ascending(\.nickname))) {
        print("\(dog.nickname), \(dog.years) years, of \(dog.master?.displayName ?? "nobody")")
    }
    print("cats left after V2 retired them:", try upgraded.fetchCount(From<Animal>()) - (try upgraded.fetchCount(From<Dog>())))
}
