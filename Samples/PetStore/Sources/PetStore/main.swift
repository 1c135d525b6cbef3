import Foundation
import Strata
import PetStoreSync
#if PostgreSQL
import StrataPostgres
#endif

// `PetStore sync …`: a device of a running PetServer (see PetStoreSync); otherwise the demo.
if CommandLine.arguments.dropFirst().first == "sync" {
    exit(await SyncMode.run(Array(CommandLine.arguments.dropFirst(2))))
}

// The sample runs on the main actor, as an app's code that shows data does.
try await Demo.run()

/// What the sample does, step by step.
@MainActor
enum Demo {
    static func run() async throws {
        // A store in a fresh temporary folder, so every run starts empty.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PetStore-\(UUID().uuidString)")

        // A store written by the first release, opened (and migrated) by this one: see Upgrade.swift.
        try await openFirstReleaseStore(in: folder)

        // The same model on a PostgreSQL server when STRATA_POSTGRES_URL names an empty database
        // (Scripts/with-postgres.sh starts a throwaway one), otherwise in a SQLite file.
        let stack = DataStack(PetStore.schemaHistory)
        if let url = ProcessInfo.processInfo.environment["STRATA_POSTGRES_URL"] {
            #if PostgreSQL
            try await stack.addStorage(PostgreSQLStore(url: url))
            print("storage: PostgreSQL")
            #else
            _ = url
            print("STRATA_POSTGRES_URL is set, but this build has no PostgreSQL: swift run --traits PostgreSQL PetStore")
            exit(2)
            #endif
        } else {
            try stack.addStorageAndWait(SQLiteStore(fileURL: folder.appendingPathComponent("PetStore.sqlite")))
        }
        try stack.addStorageAndWait(InMemoryStore(configuration: "Cache"))

        // Import the JSON fixture through the importers generated from the model's `import:` blocks,
        // in a background task, while a list monitor shows each change: see Watching.swift.
        try await importWhileWatching(stack)
        try await stack.perform { transaction in
            let thumbnail = transaction.create(Into<Thumbnail>())
            thumbnail.url = URL(string: "https://example.com/ada.png")!
            thumbnail.bytes = Data([0x89, 0x50, 0x4E, 0x47])
        }
        print("people after importing twice:", try stack.fetchCount(From<Person>()))

        // Fetch, with a filter across a relationship and a sort.
        for person in try stack.fetchAll(From<Person>().orderBy(.ascending(\.name))) {
            let pets = person.pets.map(\.nickname).sorted()
            print("\(person.name) (\(person.initials)): balance \(person.balance), theme \(person.settings?.theme ?? "default"), pets \(pets)")
        }
        let heavy = try stack.fetchAll(From<Dog>().where(\.weight > 10 && \.master?.name != "").orderBy(.descending(\.weight)))
        print("dogs over 10 kg:", heavy.map { "\($0.nickname) of \($0.master?.name ?? "nobody")" })

        // Query: aggregates, grouped.
        let oldest = try stack.queryValue(From<Dog>().select(Int.self, .maximum(\.years))) ?? 0
        let total = try stack.queryValue(From<Person>().select(Decimal.self, .sum(\.balance))) ?? 0
        print("oldest dog: \(oldest) years; total balance: \(total)")
        for row in try stack.queryAttributes(From<Dog>().select(.attribute(\.species), .count(\.species, as: "dogs"), .average(\.weight, as: "kg"))
            .groupBy(\.species)) {
            print("species \(row["species"] ?? "?"): \(row["dogs"] ?? 0) dogs, average \(row["kg"] ?? 0) kg")
        }
        print("thumbnails in the cache store:", try stack.fetchCount(From<Thumbnail>("Cache")))

        try? FileManager.default.removeItem(at: folder)
    }
}
