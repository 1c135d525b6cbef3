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

extension StrataObject {
    /// Reports a read of the property at `keyPath` to the context's registrar; generated
    /// accessors call it.
    @inlinable @inline(__always)
    public final func observationAccess<Root: StrataObject, Member>(_ keyPath: @autoclosure () -> KeyPath<Root, Member>) {
        // The key path is an autoclosure: only a read that reports looks it up. The report itself
        // is a call of its own, so that an accessor of an object that does not report is a flag
        // test and the read (with the report inline, every accessor saved and restored the
        // registers the report needs, reporting or not).
        if reportsReads { reportAccess(keyPath()) }
    }

    /// Reports a read of the property at `keyPath` to the context's registrar.
    @inlinable @inline(never)
    final func reportAccess<Root: StrataObject, Member>(_ keyPath: KeyPath<Root, Member>) {
        let home: Unmanaged<ObjectHome>
        do {
            guard let owned = self.home else { return }
            home = .passUnretained(owned)
        }
        isObserved = true
        // The home is borrowed, not retained: a strong reference held for the call would cost
        // two atomic operations per read, and the token two more (half of what a main-context
        // read cost). Sound because this object keeps its home alive for the whole call: `home`
        // is only ever assigned by its context when the object is adopted or made, on the
        // context's own isolation domain, never by the registrar's `access`, which runs no code
        // of this object's; and the home's token is a `let`.
        home._withUnsafeGuaranteedRef { home in
            let token = home.token
            token.hasObservedObjects = true
            // The subject is `self` as a `StrataObject`, and the key path is the same object seen
            // through that root (sound: `self` is a `Root`, and the registrar records the key
            // path's identity, which this leaves as it is). Both are borrowed: converting either
            // one by value made the call retain and release it, two atomic operations per read.
            // The caller's key path outlives the call, as `self` does.
            let path = Unmanaged<KeyPath<StrataObject, Member>>.fromOpaque(Unmanaged.passUnretained(keyPath).toOpaque())
            path._withUnsafeGuaranteedRef { token.registrar.access(self, keyPath: $0) }
        }
    }

    /// Runs `mutation`, the change of the property at `keyPath`, telling the context's registrar
    /// when the object was ever read through an accessor; generated setters call it.
    @inlinable
    public final func observedMutation<Root: StrataObject, Member>(_ keyPath: @autoclosure () -> KeyPath<Root, Member>, _ mutation: () -> Void) {
        guard isObserved, let token else { return mutation() }
        token.registrar.withMutation(of: unsafeDowncast(self, to: Root.self), keyPath: keyPath(), mutation)
    }

    /// Tells the registrar that the object's values changed after the fact (a commit applied to
    /// the main context): each stored column in `columns` (all when nil), and its to-many
    /// relationships when `relationships` is set, and whether it was deleted.
    func notifyObservers(columns: ColumnSet?, relationships: Bool, deleted: Bool) {
        guard isObserved, let token, let layout else { return }
        let registrar = token.registrar
        for ordinal in layout.columns.indices where columns?.contains(ordinal) ?? true {
            observationChanged(column: ordinal, registrar: registrar)
        }
        if relationships {
            for (index, relationship) in layout.relationships.enumerated() where relationship.kind.isToMany {
                observationChanged(relationship: index, registrar: registrar)
            }
        }
        if deleted { registrar.withMutation(of: self, keyPath: \StrataObject.isDeleted) {} }
    }
}
