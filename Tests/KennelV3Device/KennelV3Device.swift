import Foundation
import Strata
import StrataCloud

/// A device of the Kennel app updated to V3 (the entity Toy renamed Plaything, its label renamed
/// name): its store, and what a test does with it. Its schema history also serves as the server's.
public struct KennelV3Device: Sendable {
    /// The Kennel model at V3, with V1 and V2 before it.
    public static var schemaHistory: SchemaHistory { Kennel.schemaHistory }

    /// The app's stack.
    public let stack: DataStack
    /// Its synced store.
    public let store: CloudStore

    /// Opens (or creates, or migrates from V1 or V2) the device's store at `file`, syncing with
    /// `server` when asked.
    public static func open(file: URL, server: URL, transport: any CloudTransport, token: String) async throws -> KennelV3Device {
        let stack = DataStack(Kennel.schemaHistory)
        let store = CloudStore(fileURL: file, server: server, contentName: "Kennel", account: .bearer(token),
                               cloudStorageOptions: [.syncOnlyWhenAsked], transport: transport)
        try await stack.addStorage(store)
        return KennelV3Device(stack: stack, store: store)
    }

    /// Adds a plaything.
    public func addPlaything(_ name: String) async throws {
        try await stack.perform { transaction in transaction.create(Into<Plaything>()).name = name }
    }

    /// Renames the plaything named `name`.
    public func renamePlaything(_ name: String, to newName: String) async throws {
        try await stack.perform { transaction in
            try transaction.fetchOne(From<Plaything>().where(\.name == name))?.name = newName
        }
    }

    /// Every plaything's name, sorted.
    @MainActor
    public func playthings() throws -> [String] {
        try Self.playthings(in: stack)
    }

    /// Every plaything's name in any stack of this model (a device's, or the server's), sorted.
    @MainActor
    public static func playthings(in stack: DataStack) throws -> [String] {
        try stack.fetchAll(From<Plaything>()).map(\.name).sorted()
    }

    /// Syncs now.
    public func sync() async throws {
        try await store.sync()
    }
}
