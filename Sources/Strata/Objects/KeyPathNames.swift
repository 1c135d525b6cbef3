/// The stored property each key path of an entity class names, as generated `propertyName(for:)`
/// methods look them up: one hash lookup instead of a comparison per property.
///
/// `AnyKeyPath` is not declared `Sendable`, so neither is a dictionary keyed by it. This wrapper is
/// `@unchecked Sendable` because it is sound to share: it is a value, filled from key path literals
/// before it is stored in a `static let`, and a key path is immutable once made.
public struct KeyPathNames: @unchecked Sendable {
    private var names: [AnyKeyPath: String] = [:]

    /// No names yet.
    public init() {}

    /// Adds names by key path, such as `[\Person.name: "name", \Dog.master?.name: "master.name"]`.
    ///
    /// Generated code adds a large entity's names in several short literals, because the type
    /// checker's cost for one literal grows with its length.
    public mutating func add(_ more: [AnyKeyPath: String]) {
        names.merge(more) { first, _ in first }
    }

    /// The name of `keyPath`, or nil when it names nothing here.
    public subscript(keyPath: AnyKeyPath) -> String? { names[keyPath] }
}
