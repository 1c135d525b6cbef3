/// The stored property each key path of an entity class names, as generated `propertyName(for:)`
/// methods look them up: one hash lookup instead of a comparison per property.
///
/// `AnyKeyPath` is not declared `Sendable`, so neither is a dictionary keyed by it. This wrapper is
/// `@unchecked Sendable` because it is sound to share: the dictionary is a `let` filled once from
/// key path literals, and a key path is an immutable value that no code can change after it is made.
public struct KeyPathNames: @unchecked Sendable {
    private let names: [AnyKeyPath: String]

    /// Names by key path, such as `[\Person.name: "name", \Dog.master?.name: "master.name"]`.
    public init(_ names: [AnyKeyPath: String]) {
        self.names = names
    }

    /// The name of `keyPath`, or nil when it names nothing here.
    public subscript(keyPath: AnyKeyPath) -> String? { names[keyPath] }
}
