import Synchronization

/// The names of key paths one and two to-one relationships away from an entity class
/// (`\Order.customer?.name`, `\Order.customer?.referrer?.name`), made from the classes'
/// ``KeyPathParts`` the first time a clause of the class needs one, and kept for the process.
///
/// A path is joined with `appending(path:)`. The joined path has the same components as the
/// literal an app writes, but the standard library does not always find the two equal: it also
/// compares a flag that depends on how the path was made. So the table is keyed by the path's
/// description, which names each component (a computed property by its identity), the root type
/// and every value type, and is the same for both.
enum KeyPathChains {
    /// Each class's table, by the class: a path's description to its name.
    private static let tables = Mutex<[ObjectIdentifier: [String: String]]>([:])

    /// The name of `keyPath`, a path from `root` through one or two to-one relationships to a
    /// stored attribute; nil when it is not one.
    static func name(of keyPath: AnyKeyPath, in root: StrataObject.Type) -> String? {
        let key = ObjectIdentifier(root)
        let table = tables.withLock { $0[key] } ?? {
            let made = makeTable(root)
            tables.withLock { $0[key] = made }
            return made
        }()
        guard !table.isEmpty else { return nil }
        return table[keyPath.debugDescription]
    }

    /// Every path of `root` through one or two to-one relationships to a stored attribute.
    private static func makeTable(_ root: StrataObject.Type) -> [String: String] {
        var table: [String: String] = [:]
        // A class's parts are literals made anew on each call: each class's are made once here.
        var made: [ObjectIdentifier: KeyPathParts] = [:]
        func parts(_ type: StrataObject.Type) -> KeyPathParts {
            if let known = made[ObjectIdentifier(type)] { return known }
            let parts = type.keyPathParts
            made[ObjectIdentifier(type)] = parts
            return parts
        }
        func add(_ prefix: AnyKeyPath, _ prefixName: String, _ destination: StrataObject.Type) {
            for attribute in parts(destination).attributesThroughOptional {
                guard let path = prefix.appending(path: attribute.path) else { continue }
                table[path.debugDescription] = prefixName + "." + attribute.name
            }
        }
        for first in parts(root).toOnes {
            add(first.path, first.name, first.destination)
            for second in parts(first.destination).toOnes {
                guard let prefix = first.path.appending(path: second.throughOptional) else { continue }
                add(prefix, first.name + "." + second.name, second.destination)
            }
        }
        return table
    }
}
