import Synchronization

/// The names of key paths one and two to-one relationships away from an entity class
/// (`\Order.customer?.name`, `\Order.customer?.referrer?.name`), made from the classes'
/// ``KeyPathParts`` the first time a clause of the class needs one, and kept for the process.
///
/// A path is joined with `appending(path:)`. The joined path has the same components as the
/// literal an app writes, yet neither of the standard library's ways to compare them can be used:
/// - `==` also compares a flag that depends on how the path was made (where its reference prefix
///   ends), so the joined path and the literal are never equal;
/// - `debugDescription` names each computed component by the address of the function that reads
///   it for the key path, and an optimized build gives each file that writes a literal a function
///   of its own, so the same path is described differently in release builds.
///
/// What both share is the path's hash, which the standard library makes from each component's
/// identity (the property it reads, not the function reading it) and type, and the path's type.
/// The table is keyed by those (``ChainKey``). Two chains of one class that share a key cannot be
/// told apart, so such a key names neither: a clause using one fails with `invalidQuery` rather
/// than read the wrong column.
enum KeyPathChains {
    /// What a chain is known by: its hash and its type (root and value).
    struct ChainKey: Hashable {
        let hash: Int
        let type: ObjectIdentifier

        init(_ path: AnyKeyPath) {
            hash = path.hashValue
            type = ObjectIdentifier(Swift.type(of: path))
        }
    }

    /// Each class's table, by the class: a chain's key to its name (nil for a key two chains share).
    private static let tables = Mutex<[ObjectIdentifier: [ChainKey: String?]]>([:])

    /// The name of `keyPath`, a path from `root` through one or two to-one relationships to a
    /// stored attribute; nil when it is not one.
    static func name(of keyPath: AnyKeyPath, in root: StrataObject.Type) -> String? {
        let key = ObjectIdentifier(root)
        let table = tables.withLock { $0[key] } ?? {
            let made = makeTable(root)
            tables.withLock { $0[key] = made }
            return made
        }()
        guard !table.isEmpty, let name = table[ChainKey(keyPath)] else { return nil }
        return name
    }

    /// Every path of `root` through one or two to-one relationships to a stored attribute.
    static func makeTable(_ root: StrataObject.Type) -> [ChainKey: String?] {
        var table: [ChainKey: String?] = [:]
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
                let name = prefixName + "." + attribute.name
                let key = ChainKey(path)
                if let known = table[key], known != name {
                    table[key] = .some(nil)
                } else {
                    table[key] = name
                }
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
