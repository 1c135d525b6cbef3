import Foundation
import Strata
import StrataCloud

/// A device of the Kennel app as it shipped at V1: its store, and what a test does with it.
public struct KennelV1Device: Sendable {
    /// A dog as V1 sees it.
    public struct DogValues: Equatable, Sendable {
        public var name: String
        public var nickname: String?
        public var weight: Int16
        public var visits: Int64
        public var owner: String?

        /// A dog's values.
        public init(name: String, nickname: String? = nil, weight: Int16 = 0, visits: Int64 = 0, owner: String? = nil) {
            self.name = name
            self.nickname = nickname
            self.weight = weight
            self.visits = visits
            self.owner = owner
        }
    }

    /// The app's stack.
    public let stack: DataStack
    /// Its synced store.
    public let store: CloudStore

    /// Opens (or creates) the device's store at `file`, syncing with `server` when asked.
    public static func open(file: URL, server: URL, transport: any CloudTransport, token: String) async throws -> KennelV1Device {
        let stack = DataStack(Kennel.schemaHistory)
        let store = CloudStore(fileURL: file, server: server, contentName: "Kennel", account: .bearer(token),
                               cloudStorageOptions: [.syncOnlyWhenAsked], transport: transport)
        try await stack.addStorage(store)
        return KennelV1Device(stack: stack, store: store)
    }

    /// Adds a dog, and its owner by name when given.
    public func addDog(name: String, nickname: String? = nil, weight: Int16 = 0, owner: String? = nil) async throws {
        try await stack.perform { transaction in
            let dog = transaction.create(Into<Dog>())
            dog.name = name
            dog.nickname = nickname
            dog.weight = weight
            if let owner {
                let person = try transaction.fetchOne(From<Person>().where(\.name == owner)) ?? transaction.create(Into<Person>())
                person.name = owner
                dog.owner = person
            }
        }
    }

    /// Changes the dog named `name`: its nickname (when given), its weight (when given), and adds to its visits.
    public func editDog(_ name: String, nickname: String?? = nil, weight: Int16? = nil, visits: Int64 = 0) async throws {
        try await stack.perform { transaction in
            guard let dog = try transaction.fetchOne(From<Dog>().where(\.name == name)) else { return }
            if let nickname { dog.nickname = nickname }
            if let weight { dog.weight = weight }
            dog.visits += visits
        }
    }

    /// Every dog, by name.
    @MainActor
    public func dogs() throws -> [DogValues] {
        try stack.fetchAll(From<Dog>().orderBy(.ascending(\.name))).map { dog in
            DogValues(name: dog.name, nickname: dog.nickname, weight: dog.weight, visits: dog.visits, owner: dog.owner?.name)
        }
    }

    /// Syncs now.
    public func sync() async throws {
        try await store.sync()
    }
}
