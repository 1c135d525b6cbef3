import Observation

/// Entity objects are `Observable`: a SwiftUI view, or `withObservationTracking`, that reads
/// `dog.name` is told when that property changes, whether a setter in the same context changed it
/// or a commit (of another transaction, stack or process) that the main context applied. The
/// generated accessors report reads and changes to the registrar of the object's context.
///
/// Objects of a read context (`stack.read`) do not report: a read context is a snapshot whose
/// objects never change, so there is nothing to observe, and reading them costs what it did
/// before. One registrar serves a whole context, so that fetching allocates nothing for observation;
/// tracking is per property of an entity, and a change reaches the registrar only for objects
/// that some code read through an accessor. A tracking of `dog.name` is therefore not told of a
/// change to `dog.age`, nor of a change to the name of a dog it never read; a change to the name
/// of another dog that was read in the same context also tells it (it then reads the same name).
extension StrataObject: Observable {}

/// The key paths an entity class's accessors report to Observation, for its whole lineage:
/// the generated `observedProperties` of a class is its superclass's with its own appended.
///
/// Accessors report by position (a column's lineage ordinal, a relationship's lineage index, a
/// transient attribute's lineage index) rather than with a key path of their own: a call with an
/// integer type-checks in a fraction of the time of a generic call with a key path, which every
/// build of an app with a large model pays per property.
public struct ObservedProperties {
    /// By lineage column ordinal: each stored attribute, and each to-one relationship at its
    /// foreign key's ordinal.
    public var columns: [AnyKeyPath] = []
    /// By lineage relationship index, to-one and to-many.
    public var relationships: [AnyKeyPath] = []
    /// Transient attributes, ancestors' first.
    public var transients: [AnyKeyPath] = []

    /// No key paths: a class of its own.
    public init() {}

    /// Appends a class's own stored attributes and to-one relationships, in ordinal order.
    public mutating func addColumns(_ keyPaths: [AnyKeyPath]) { columns += keyPaths }
    /// Appends a class's own relationships, in lineage order.
    public mutating func addRelationships(_ keyPaths: [AnyKeyPath]) { relationships += keyPaths }
    /// Appends a class's own transient attributes.
    public mutating func addTransients(_ keyPaths: [AnyKeyPath]) { transients += keyPaths }
}

/// Where an accessor's property is in ``ObservedProperties``.
@usableFromInline
enum ObservedKind {
    case column
    case relationship
    case transient
}

/// An entity layout's ``ObservedProperties``, as unretained references the accessors can pass
/// without a retain and a release per read (the layout keeps `properties`, and so the key paths,
/// alive for as long as any object of it exists).
// `@unchecked Sendable` is sound: a key path object never changes once made (the standard
// library does not mark `AnyKeyPath` Sendable, but has no mutating API on it), the arrays are
// never changed after `init`, and the unretained references point into `properties`.
struct ObservedKeyPaths: @unchecked Sendable {
    let properties: ObservedProperties
    private let columns: [Unmanaged<AnyKeyPath>]
    private let relationships: [Unmanaged<AnyKeyPath>]
    private let transients: [Unmanaged<AnyKeyPath>]

    init(_ properties: ObservedProperties) {
        self.properties = properties
        columns = properties.columns.map { .passUnretained($0) }
        relationships = properties.relationships.map { .passUnretained($0) }
        transients = properties.transients.map { .passUnretained($0) }
    }

    /// The key path at a position; nil for a class that reports none there (a hand-written one).
    @inline(__always)
    func keyPath(_ kind: ObservedKind, _ index: Int) -> Unmanaged<AnyKeyPath>? {
        // Each list read in place: binding one to a local would retain its buffer on every read.
        switch kind {
        case .column: return index < columns.count ? columns[index] : nil
        case .relationship: return index < relationships.count ? relationships[index] : nil
        case .transient: return index < transients.count ? transients[index] : nil
        }
    }
}

extension StrataObject {
    /// Reports a read of the stored column at a lineage ordinal (an attribute, or a to-one
    /// relationship's foreign key) to the context's registrar; generated getters call it.
    @inlinable @inline(__always)
    public final func observationAccess(column ordinal: Int) {
        // The report is a call of its own, so that an accessor of an object that does not report
        // is a flag test and the read (with the report inline, every accessor saved and restored
        // the registers the report needs, reporting or not).
        if reportsReads { reportAccess(.column, ordinal) }
    }

    /// Reports a read of the relationship at a lineage index; generated getters call it.
    @inlinable @inline(__always)
    public final func observationAccess(relationship index: Int) {
        if reportsReads { reportAccess(.relationship, index) }
    }

    /// Reports a read of the transient attribute at a lineage index; generated getters call it.
    @inlinable @inline(__always)
    public final func observationAccess(transient index: Int) {
        if reportsReads { reportAccess(.transient, index) }
    }

    /// Reports a read of the property at `keyPath` to the context's registrar, for accessors
    /// written by hand (`isDeleted`).
    @inlinable @inline(__always)
    public final func observationAccess<Root: StrataObject, Member>(_ keyPath: @autoclosure () -> KeyPath<Root, Member>) {
        if reportsReads { reportAccess(Unmanaged.passUnretained(keyPath())) }
    }

    /// Reports a read of a property by its position in the layout's observed key paths.
    @usableFromInline @inline(never)
    final func reportAccess(_ kind: ObservedKind, _ index: Int) {
        withBorrowedHome { home in home.layout.observed.keyPath(kind, index) }
    }

    /// Reports a read of the property at `keyPath` to the context's registrar.
    @usableFromInline @inline(never)
    final func reportAccess(_ keyPath: Unmanaged<AnyKeyPath>) {
        withBorrowedHome { _ in keyPath }
    }

    /// Reports a read of the key path `find` gives for the object's home (none when it gives nil).
    @inline(__always)
    private final func withBorrowedHome(_ find: (ObjectHome) -> Unmanaged<AnyKeyPath>?) {
        let home: Unmanaged<ObjectHome>
        do {
            guard let owned = self.home else { return }
            home = .passUnretained(owned)
        }
        // The home is borrowed, not retained: a strong reference held for the call would cost
        // two atomic operations per read, and the token two more (half of what a main-context
        // read cost). Sound because this object keeps its home alive for the whole call: `home`
        // is only ever assigned by its context when the object is adopted or made, on the
        // context's own isolation domain, never by the registrar's `access`, which runs no code
        // of this object's; and the home's token is a `let`.
        home._withUnsafeGuaranteedRef { home in
            guard let keyPath = find(home) else { return }
            isObserved = true
            let token = home.token
            token.hasObservedObjects = true
            Self.withRegistrarKeyPath(keyPath) { token.registrar.access(self, keyPath: $0) }
        }
    }

    /// `keyPath` as the registrar's methods take it: rooted at `StrataObject`, borrowed.
    ///
    /// Sound: the registrar records a key path's identity (equality and hash, dispatched to the
    /// key path object itself) and never applies it, so the static type it is seen through does
    /// not matter; the subject passed with it is the object the key path's own root names. The
    /// key path is borrowed from the caller, which keeps it alive for the call: converting it by
    /// value made every report retain and release it, two atomic operations per read.
    @inline(__always)
    static func withRegistrarKeyPath(_ keyPath: Unmanaged<AnyKeyPath>, _ body: (KeyPath<StrataObject, Any>) -> Void) {
        let path = Unmanaged<KeyPath<StrataObject, Any>>.fromOpaque(keyPath.toOpaque())
        path._withUnsafeGuaranteedRef(body)
    }

    /// Tells the registrar that the property at a position is about to change, when the object
    /// was ever read through an accessor (only then can an observer be tracking it).
    @inlinable @inline(__always)
    final func observationWillSet(_ kind: ObservedKind, _ index: Int) {
        if isObserved { reportChange(kind, index, done: false) }
    }

    /// Tells the registrar that the property at a position has changed.
    @inlinable @inline(__always)
    final func observationDidSet(_ kind: ObservedKind, _ index: Int) {
        if isObserved { reportChange(kind, index, done: true) }
    }

    /// Tells the registrar that the stored column at a lineage ordinal has changed; generated
    /// setters call it after the value is assigned (``willSet(_:_:)`` told it before).
    @inlinable @inline(__always)
    public final func didSet(column ordinal: Int) {
        observationDidSet(.column, ordinal)
    }

    /// Tells the registrar that the transient attribute at a lineage index is about to change.
    @inlinable @inline(__always)
    public final func willSet(transient index: Int) {
        observationWillSet(.transient, index)
    }

    /// Tells the registrar that the transient attribute at a lineage index has changed.
    @inlinable @inline(__always)
    public final func didSet(transient index: Int) {
        observationDidSet(.transient, index)
    }

    /// `willSet` or `didSet` of the registrar for the property at a position.
    @usableFromInline @inline(never)
    final func reportChange(_ kind: ObservedKind, _ index: Int, done: Bool) {
        guard let home, let keyPath = home.layout.observed.keyPath(kind, index) else { return }
        let registrar = home.token.registrar
        Self.withRegistrarKeyPath(keyPath) { path in
            if done { registrar.didSet(self, keyPath: path) } else { registrar.willSet(self, keyPath: path) }
        }
    }

    /// Runs `mutation`, the change of the property at `keyPath`, telling the context's registrar
    /// when the object was ever read through an accessor; for accessors written by hand
    /// (`isDeleted`).
    @inlinable
    public final func observedMutation<Root: StrataObject, Member>(_ keyPath: @autoclosure () -> KeyPath<Root, Member>, _ mutation: () -> Void) {
        guard isObserved, let token else { return mutation() }
        token.registrar.withMutation(of: unsafeDowncast(self, to: Root.self), keyPath: keyPath(), mutation)
    }

    /// Tells the registrar that the property at a position changed after the fact.
    final func observationChanged(_ kind: ObservedKind, _ index: Int) {
        reportChange(kind, index, done: false)
        reportChange(kind, index, done: true)
    }

    /// Tells the registrar that the object's values changed after the fact (a commit applied to
    /// the main context): each stored column in `columns` (all when nil), and its to-many
    /// relationships when `relationships` is set, and whether it was deleted.
    func notifyObservers(columns: ColumnSet?, relationships: Bool, deleted: Bool) {
        guard isObserved, let token, let layout else { return }
        for ordinal in layout.columns.indices where columns?.contains(ordinal) ?? true {
            observationChanged(.column, ordinal)
        }
        if relationships {
            for (index, relationship) in layout.relationships.enumerated() where relationship.kind.isToMany {
                observationChanged(.relationship, index)
            }
        }
        if deleted { token.registrar.withMutation(of: self, keyPath: \StrataObject.isDeleted) {} }
    }
}
