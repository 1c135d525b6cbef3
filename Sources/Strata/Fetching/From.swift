/// Names the entity a fetch or query reads, and optionally the configurations whose storages hold it.
public struct From<T: StrataObject>: Sendable, Hashable {
    /// The configurations to read from, in the order named; empty reads every storage that holds
    /// `T` (as CoreStore's `From<T>()` does).
    public let configurations: [String]

    /// The one configuration named, if exactly one is.
    public var configuration: String? { configurations.count == 1 ? configurations[0] : nil }

    /// Reads `T` (and its subentities) from every storage that holds it, as CoreStore's
    /// `From<T>()` does.
    public init() {
        configurations = []
    }

    /// Reads `T` from the storage of one configuration; `nil` names the default configuration
    /// (`Default`), as in CoreStore, where `From<T>(nil)` reads the default store only.
    public init(_ configuration: String?) {
        configurations = [configuration ?? StorageDefaults.configuration]
    }

    /// Reads `T` from the storages of several configurations: `From<Person>("Cache", "Main")`.
    /// Configurations that do not hold `T` are skipped, as in CoreStore; it is an error only when
    /// none of them does.
    public init(_ first: String, _ second: String, _ more: String...) {
        configurations = [first, second] + more
    }

    /// Reads `T` from the storages of the configurations named; an empty list reads every
    /// storage that holds `T`.
    public init(configurations: [String]) {
        self.configurations = configurations
    }

    /// Reads `T` (which may be a subclass the generic parameter does not name) from every storage
    /// that holds it.
    public init(_ type: T.Type) {
        self.init()
    }

    /// Reads `T` from the storage of a configuration; `nil` names the default one.
    public init(_ type: T.Type, _ configuration: String?) {
        self.init(configuration)
    }
}

/// Names Strata gives what CoreStore leaves unnamed.
enum StorageDefaults {
    /// The configuration of a storage added without one, which holds every entity no other
    /// configuration lists; CoreStore's default configuration (`nil`).
    static let configuration = "Default"
}

/// Names the entity a transaction creates, and optionally the configuration to store it in.
public struct Into<T: StrataObject>: Sendable, Hashable {
    /// The configuration to store the object in, when the entity is stored in several.
    public let configuration: String?

    /// Whether, without a configuration, the object goes to the one storage that holds `T`
    /// (true), or to the `Default` configuration's storage (false), as CoreStore's
    /// `inferStoreIfPossible` says.
    public let inferStoreIfPossible: Bool

    /// Creates a `T` in the storage that holds it (which must be the only one that does).
    public init() {
        configuration = nil
        inferStoreIfPossible = true
    }

    /// Creates a `T` in the storage of a configuration; `nil` names the default configuration
    /// (`Default`) and infers nothing, as CoreStore's `Into<T>(nil)` does.
    public init(_ configuration: String?) {
        self.configuration = configuration ?? StorageDefaults.configuration
        inferStoreIfPossible = false
    }

    /// Creates a `T` in a configuration's storage or, without one, in the one storage that holds
    /// `T` when `inferStoreIfPossible` is true and in the `Default` configuration's storage when
    /// it is false.
    public init(_ configuration: String?, inferStoreIfPossible: Bool) {
        self.configuration = configuration
        self.inferStoreIfPossible = inferStoreIfPossible
    }

    /// Creates an object of `type` (which may be a subclass the generic parameter does not name)
    /// in the storage that holds it.
    public init(_ type: T.Type) {
        self.init()
    }

    /// Creates an object of `type` in the storage of a configuration; `nil` names the default one.
    public init(_ type: T.Type, _ configuration: String?) {
        self.init(configuration)
    }

    /// The configuration whose storage receives the object: the one named, `Default` when
    /// nothing is named and nothing may be inferred, or nil to infer it.
    @usableFromInline
    var target: String? {
        configuration ?? (inferStoreIfPossible ? nil : StorageDefaults.configuration)
    }
}
