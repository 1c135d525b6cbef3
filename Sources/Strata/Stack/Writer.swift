import Dispatch

/// The serial queue every transaction of a stack runs on, and the writer connections it owns.
// `@unchecked Sendable` is sound: `connections`, the only mutable state, is read and written only
// by code running on the serial `queue` (every entry point below dispatches there first, and
// `isOnQueue` guards the synchronous ones), so no two threads ever touch it at once.
final class Writer: @unchecked Sendable {
    let queue: DispatchQueue
    private static let key = DispatchSpecificKey<UInt>()
    private let token: UInt
    private var connections: [Int32: any DatabaseConnection] = [:]

    init(label: String) {
        queue = DispatchQueue(label: label)
        token = UInt(bitPattern: ObjectIdentifier(queue).hashValue)
        queue.setSpecific(key: Writer.key, value: token)
    }

    /// Whether the caller is running on the writer queue (inside a transaction).
    var isOnQueue: Bool { DispatchQueue.getSpecific(key: Writer.key) == token }

    /// Records a storage's writer connection. Call on the queue.
    func adopt(_ connection: any DatabaseConnection, for storage: Int32) {
        dispatchPrecondition(condition: .onQueue(queue))
        connections[storage] = connection
    }

    /// A storage's writer connection, made again by its backend when it was lost. Call on the queue.
    func connection(for storage: StorageHandle) throws(StrataError) -> any DatabaseConnection {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let connection = connections[storage.index] else { throw .noStorage(entity: "storage #\(storage.index)") }
        guard connection.isBroken else { return connection }
        let fresh = try storage.backend.writer()
        connections[storage.index] = fresh
        return fresh
    }
}
