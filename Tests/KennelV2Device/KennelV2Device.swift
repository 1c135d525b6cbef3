import Foundation
import Strata
import StrataCloud

/// A device of the Kennel app updated to V2 (Dog.nickname renamed callName, weight an Int32, age
/// and Toy added): its store, and what a test does with it. Its schema history also serves as the
/// server's.
public struct KennelV2Device: Sendable {
    /// A dog as V2 sees it.
    public struct DogValues: Equatable, Sendable {
        public var name: String
        public var callName: String?
        public var weight: Int32
        public var visits: Int64
        public var age: Int32
        public var owner: String?

        /// A dog's values.
        public init(name: String, callName: String? = nil, weight: Int32 = 0, visits: Int64 = 0, age: Int32 = 0, owner: String? = nil) {
            self.name = name
            self.callName = callName
            self.weight = weight
            self.visits = visits
            self.age = age
            self.owner = owner
        }
    }

    /// The Kennel model at V2, with V1 before it.
    public static var schemaHistory: SchemaHistory { Kennel.schemaHistory }

    /// The app's stack.
    public let stack: DataStack
    /// Its synced store.
    public let store: CloudStore

    /// Opens (or creates, or migrates from V1) the device's store at `file`, syncing with
    /// `server` when asked.
    public static func open(file: URL, server: URL, transport: any CloudTransport, token: String) async throws -> KennelV2Device {
        let stack = DataStack(Kennel.schemaHistory)
        let store = CloudStore(fileURL: file, server: server, contentName: "Kennel", account: .bearer(token),
                               cloudStorageOptions: [.syncOnlyWhenAsked], transport: transport)
        try await stack.addStorage(store)
        return KennelV2Device(stack: stack, store: store)
    }

    /// Adds a dog.
    public func addDog(name: String, callName: String? = nil, weight: Int32 = 0, age: Int32 = 0) async throws {
        try await Self.addDog(to: stack, name: name, callName: callName, weight: weight, age: age)
    }

    /// Adds a dog to any stack of this model (a device's, or the server's own code).
    public static func addDog(to stack: DataStack, name: String, callName: String? = nil, weight: Int32 = 0, age: Int32 = 0) async throws {
        try await stack.perform { transaction in
            let dog = transaction.create(Into<Dog>())
            dog.name = name
            dog.callName = callName
            dog.weight = weight
            dog.age = age
        }
    }

    /// Changes the dog named `name`: each value given, and adds to its visits.
    public func editDog(_ name: String, callName: String?? = nil, weight: Int32? = nil, age: Int32? = nil, visits: Int64 = 0) async throws {
        try await Self.editDog(name, in: stack, callName: callName, weight: weight, age: age, visits: visits)
    }

    /// Changes the dog named `name` in any stack of this model (a device's, or the server's own code).
    public static func editDog(_ name: String, in stack: DataStack, callName: String?? = nil, weight: Int32? = nil, age: Int32? = nil,
                               visits: Int64 = 0) async throws {
        try await stack.perform { transaction in
            guard let dog = try transaction.fetchOne(From<Dog>().where(\.name == name)) else { return }
            if let callName { dog.callName = callName }
            if let weight { dog.weight = weight }
            if let age { dog.age = age }
            dog.visits += visits
        }
    }

    /// Adds a toy.
    public func addToy(_ label: String) async throws {
        try await stack.perform { transaction in transaction.create(Into<Toy>()).label = label }
    }

    /// Relabels the toy labelled `label`.
    public func relabelToy(_ label: String, to newLabel: String) async throws {
        try await stack.perform { transaction in
            try transaction.fetchOne(From<Toy>().where(\.label == label))?.label = newLabel
        }
    }

    /// Every dog, by name.
    @MainActor
    public func dogs() throws -> [DogValues] {
        try Self.dogs(in: stack)
    }

    /// Every dog of any stack of this model, by name.
    @MainActor
    public static func dogs(in stack: DataStack) throws -> [DogValues] {
        try stack.fetchAll(From<Dog>().orderBy(.ascending(\.name))).map { dog in
            DogValues(name: dog.name, callName: dog.callName, weight: dog.weight, visits: dog.visits, age: dog.age, owner: dog.owner?.name)
        }
    }

    /// Every toy's label, sorted.
    @MainActor
    public func toys() throws -> [String] {
        try stack.fetchAll(From<Toy>()).map(\.label).sorted()
    }

    /// Syncs now.
    public func sync() async throws {
        try await store.sync()
    }
}
