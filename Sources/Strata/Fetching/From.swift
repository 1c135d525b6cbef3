/// Names the entity a fetch or query reads, and optionally the configuration whose storage holds it.
public struct From<T: StrataObject>: Sendable, Hashable {
    /// The configuration to read from, when the entity is stored in several.
    public let configuration: String?

    /// Reads `T` (and its subentities) from the storage that holds it.
    public init(_ configuration: String? = nil) {
        self.configuration = configuration
    }

    /// Reads `T` from the storage of a configuration.
    public init(_ type: T.Type, _ configuration: String? = nil) {
        self.configuration = configuration
    }
}

/// Names the entity a transaction creates, and optionally the configuration to store it in.
public struct Into<T: StrataObject>: Sendable, Hashable {
    /// The configuration to store the object in, when the entity is stored in several.
    public let configuration: String?

    /// Creates a `T` in the storage that holds it.
    public init(_ configuration: String? = nil) {
        self.configuration = configuration
    }

    /// Creates an object of `type` (which may be a subclass the generic parameter does not name).
    public init(_ type: T.Type, _ configuration: String? = nil) {
        self.configuration = configuration
    }
}
