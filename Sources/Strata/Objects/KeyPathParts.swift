/// What an entity class tells the runtime so that it can name key paths through to-one
/// relationships (`\Dog.master?.name` → `"master.name"`) without the class naming other
/// classes' properties: its attributes reached through an optional (`\Person?.?.name`) and its
/// to-one relationships, which the runtime joins.
///
/// A class that listed every such path itself would name its neighbours' properties, so one
/// attribute's change would recompile every class within two relationships of it, and the paths
/// were most of a large model's compile time.
public struct KeyPathParts {
    /// One to-one relationship: the key path from its class, the same through an optional of the
    /// class, its name and its destination class.
    struct ToOne {
        let path: AnyKeyPath
        let throughOptional: AnyKeyPath
        let name: String
        let destination: StrataObject.Type
    }

    /// The class's stored attributes reached through an optional of the class, by name.
    private(set) var attributesThroughOptional: [(path: AnyKeyPath, name: String)] = []
    /// The class's to-one relationships, its lineage's included.
    private(set) var toOnes: [ToOne] = []

    /// No parts yet.
    public init() {}

    /// Adds stored attributes reached through an optional, such as `[\Person?.?.name: "name"]`.
    public mutating func addAttributes(throughOptional more: [AnyKeyPath: String]) {
        attributesThroughOptional += more.map { (path: $0.key, name: $0.value) }
    }

    /// Adds a to-one relationship: `addToOne(\Dog.master, \Dog?.?.master, "master", Person.self)`.
    public mutating func addToOne(_ path: AnyKeyPath, _ throughOptional: AnyKeyPath, _ name: String, _ destination: StrataObject.Type) {
        toOnes.append(ToOne(path: path, throughOptional: throughOptional, name: name, destination: destination))
    }

    /// Adds a to-one relationship, its destination class read from the path's value type
    /// (`Person?`): `addToOne(\Dog.master, \Dog?.?.master, "master")`. Generated classes use this
    /// form: naming the destination's class (`Person.self`) would make Swift compile the class's
    /// file again whenever that class's declarations change. A path whose value is not an
    /// optional entity class adds nothing.
    public mutating func addToOne(_ path: AnyKeyPath, _ throughOptional: AnyKeyPath, _ name: String) {
        guard let destination = (type(of: path).valueType as? any OptionalEntity.Type)?.entityClass else { return }
        addToOne(path, throughOptional, name, destination)
    }
}

/// `Optional<Wrapped>` where `Wrapped` may be an entity class: how ``KeyPathParts`` finds a to-one
/// relationship's destination from its key path's value type.
protocol OptionalEntity {
    /// The wrapped type as an entity class, or nil.
    static var entityClass: StrataObject.Type? { get }
}

extension Optional: OptionalEntity {
    static var entityClass: StrataObject.Type? { Wrapped.self as? StrataObject.Type }
}
