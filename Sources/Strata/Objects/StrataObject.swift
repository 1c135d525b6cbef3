import Foundation
import Observation

/// The base class of every generated entity class.
///
/// An object belongs to exactly one context: a transaction, the stack's read-only main context,
/// or a read context. It is deliberately not `Sendable`; what crosses threads and actors is its
/// ``ObjectID`` or its generated `Snapshot`. Generated subclasses keep their values in ordinary
/// stored properties and implement ``readColumns(_:)`` and ``bindColumns(to:)``; setters call
/// ``willSet(_:_:)``, which marks one bit of a dirty set.
open class StrataObject: Hashable, CustomDebugStringConvertible {
    // The bookkeeping below is read and changed on every setter call and every row read, so it
    // opts out of run-time exclusivity checks (`@exclusivity(unchecked)`; they were 6% of the
    // insert workload's instructions). That is sound because an object is confined to its
    // context's isolation domain (see the class comment), and no code holds an access to one of
    // these properties while calling out to code that could access it again.
    /// Where the object lives: its context's token, its entity's layout and its storage; nil
    /// until a context adopts the object.
    @usableFromInline @exclusivity(unchecked) final var home: ObjectHome? {
        didSet { reportsReads = home?.isObservable ?? false }
    }
    /// The row id, unique within the object's table; assigned when the object is created or fetched.
    @exclusivity(unchecked) final var rowID: Int64 = 0
    /// Columns below 64 changed since the object was last written, one bit each.
    @exclusivity(unchecked) private final var dirtyLow: UInt64 = 0
    /// What few objects need: columns from 64 on, loaded to-many relationships.
    @exclusivity(unchecked) private final var extras: ObjectExtras?
    @exclusivity(unchecked) final var isInserted = false
    @exclusivity(unchecked) final var isWritten = false
    /// Whether the object was deleted (read without telling Observation; see ``isDeleted``).
    @exclusivity(unchecked) final var deleted = false
    /// Whether a property of the object was read through its accessor while it belonged to a
    /// context: only then can an observer be tracking it, so only then do changes reach the
    /// context's `ObservationRegistrar`.
    @usableFromInline @exclusivity(unchecked) final var isObserved = false
    /// Whether reads through the accessors report to the context's registrar: the home's
    /// `isObservable`, kept in step with `home` by its `didSet` and beside the other flags, so
    /// that an accessor of an object that does not report reads one byte of the object.
    @usableFromInline @exclusivity(unchecked) final var reportsReads = false

    /// The object's row: storage, table and row id.
    final var key: ObjectKey {
        guard let home else { return ObjectKey(storage: -1, table: -1, rowID: rowID) }
        return ObjectKey(storage: home.storage, table: home.table, rowID: rowID)
    }

    /// The context's token: a plain reference the setters can check without touching the context.
    @usableFromInline final var token: ContextToken? { home?.token }

    /// The entity's layout, once a context adopted the object.
    final var layout: EntityLayout? { home?.layout }

    /// Columns changed since the object was last written.
    final var dirty: ColumnSet {
        get { ColumnSet(low: dirtyLow, high: extras?.dirtyHigh) }
        set {
            dirtyLow = newValue.low
            if newValue.high != nil || extras?.dirtyHigh != nil { madeExtras.dirtyHigh = newValue.high }
        }
    }

    /// The first required column (by lineage ordinal) of a new object that was never given a
    /// value, for the commit's check; nil when it has them all.
    ///
    /// Until the object's row is first written, its changed columns are exactly the ones set since
    /// it was created. A write clears them, so the required columns a write found unset are kept
    /// (in the extras: few objects are written before they are complete), and each later write
    /// takes off the ones set since.
    final func firstUnsetRequiredColumn(_ layout: EntityLayout) -> Int? {
        if isWritten {
            guard extras?.unsetRequired != nil else { return nil }
        } else if layout.requiredColumns.high == nil, dirtyLow & layout.requiredColumns.low == layout.requiredColumns.low {
            return nil
        }
        return layout.requiredOrdinals.first(where: isUnset(requiredColumn:))
    }

    /// Whether a required column has had no value since the object was created.
    private final func isUnset(requiredColumn ordinal: Int) -> Bool {
        !dirty.contains(ordinal) && (!isWritten || extras?.unsetRequired?.contains(ordinal) == true)
    }

    /// Records that the object's row now holds its values: the changed columns are cleared, and
    /// an inserted object keeps which required columns it was written without.
    final func didWrite(_ layout: EntityLayout) {
        if isInserted, firstUnsetRequiredColumn(layout) != nil || extras?.unsetRequired != nil {
            var unset = ColumnSet()
            for ordinal in layout.requiredOrdinals where isUnset(requiredColumn: ordinal) { _ = unset.insert(ordinal) }
            madeExtras.unsetRequired = unset.isEmpty ? nil : unset
        }
        isWritten = true
        dirty.removeAll()
    }

    /// Whether the column just marked changed may be the object's only changed one: true when
    /// at most one column below 64 is, and whenever columns from 64 on are involved (it then
    /// cannot tell cheaply). The context lists a changed object only then.
    final var mayHaveJustBecomeDirty: Bool {
        extras?.dirtyHigh != nil || dirtyLow & (dirtyLow &- 1) == 0
    }

    /// Loaded to-many relationships: lineage relationship index to the related objects' keys.
    final var toManyKeys: [Int: [ObjectKey]]? {
        get { extras?.toManyKeys }
        set { if newValue != nil || extras != nil { madeExtras.toManyKeys = newValue } }
    }

    /// The extras, made on first need.
    private final var madeExtras: ObjectExtras {
        if let extras { return extras }
        let made = ObjectExtras()
        extras = made
        return made
    }

    /// Marks a column changed; returns whether it was not changed before.
    @inline(__always)
    private final func markDirty(_ ordinal: Int) -> Bool {
        guard ordinal < 64 else { return dirty.insert(ordinal) }
        let bit = UInt64(1) << UInt64(ordinal)
        defer { dirtyLow |= bit }
        return dirtyLow & bit == 0
    }

    /// Whether the object was deleted in its context (or, in the main context, by a commit). It
    /// is observable: a tracking that read it is told when the object is deleted.
    public final internal(set) var isDeleted: Bool {
        get {
            observationAccess(\StrataObject.isDeleted)
            return deleted
        }
        set { observedMutation(\StrataObject.isDeleted) { deleted = newValue } }
    }

    /// Entity classes are created by transactions (`create(Into<T>())`) and fetches, never directly.
    public required init() {}

    /// The context the object belongs to, while that context lives.
    final var context: ObjectContext? { token?.context }

    /// The entity name; generated classes override it.
    open class var entityName: String {
        misuse("Strata: \(self) does not override entityName; entity classes come from the generator")
    }

    /// The Swift property name for a key path of this class (`\Person.name` → `"name"`,
    /// `\Person.pets.count` → `"pets.@count"`); generated classes override it. Paths through
    /// to-one relationships are named from ``keyPathParts``.
    open class func propertyName(for keyPath: AnyKeyPath) -> String? { nil }

    /// This class's attributes reached through an optional and its to-one relationships, from
    /// which the runtime names key paths through relationships; generated.
    open class var keyPathParts: KeyPathParts { KeyPathParts() }

    /// Reads the stored columns of this class's lineage, ancestors first; generated.
    open func readColumns(_ reader: inout RowReader) {}

    /// Binds the stored columns of this class's lineage, ancestors first, in the order
    /// ``readColumns(_:)`` reads them; generated.
    open func bindColumns(to binder: inout ColumnBinder) {}

    /// The value of a `coder: custom` attribute of this class's lineage from its stored bytes,
    /// through the app's `decode` function; nil for an attribute that is not custom-coded.
    /// Generated for classes that have such attributes; ``Patch`` reads them with it.
    open class func decodeCustomValue(of attribute: String, from data: Data) throws -> Any? { nil }

    /// Sets a `Codable` attribute that cannot be nil (of this class's lineage) to `value`, which
    /// must be of its type; false for any other attribute. Generated for classes that have such
    /// attributes: ``Patch`` sets them with it, as a key path would read them first.
    open func assignCodableValue(_ value: Any, to attribute: String) -> Bool { false }

    /// Gives a new object its per-insert initial values (`initial: now | uuid`); generated.
    open func setInitialValues() {}

    /// The row id a to-one relationship's foreign-key column holds, by lineage ordinal; generated.
    open func foreignKey(_ ordinal: Int) -> Int64? { nil }

    /// Sets a to-one relationship's foreign-key value, by lineage ordinal; generated.
    open func setForeignKey(_ ordinal: Int, _ value: Int64?) {}

    /// The key paths this class's accessors report to Observation, for its whole lineage;
    /// generated classes override it, adding their own to their superclass's.
    open class var observedProperties: ObservedProperties { ObservedProperties() }

    /// The destination of the to-one relationship at a lineage relationship index.
    public final func toOne<D: StrataObject>(_ relationship: Int, as type: D.Type = D.self) -> D? {
        toOneObject(relationship) as? D
    }

    /// The destination of the to-one relationship at a lineage relationship index, as an object of
    /// the base class. Generated accessors cast it (`toOneObject(0) as? Person`): a generic call
    /// with the destination's class, as ``toOne(_:as:)`` is, makes Swift compile the accessor's
    /// file again whenever that class's declarations change.
    public final func toOneObject(_ relationship: Int) -> StrataObject? {
        context?.destination(of: self, relationship: relationship)
    }

    /// Sets the to-one relationship at a lineage relationship index, updating its inverse.
    public final func setToOne<D: StrataObject>(_ relationship: Int, _ property: StaticString, _ value: D?) {
        setToOneObject(relationship, property, value)
    }

    /// Sets the to-one relationship at a lineage relationship index, updating its inverse; the
    /// form generated setters call, for the reason ``toOneObject(_:)`` gives.
    public final func setToOneObject(_ relationship: Int, _ property: StaticString, _ value: StrataObject?) {
        checkRelating(property, [value].compactMap { $0 })
        observationWillSet(.relationship, relationship)
        context?.setToOne(self, relationship: relationship, to: value)
        observationDidSet(.relationship, relationship)
    }

    /// The objects of the to-many relationship at a lineage relationship index, in stored order.
    public final func toMany<D: StrataObject>(_ relationship: Int, as type: D.Type = D.self) -> [D] {
        guard let context else { return [] }
        return context.related(self, relationship: relationship).compactMap { $0 as? D }
    }

    /// Sets the to-many relationship at a lineage relationship index, updating every inverse.
    public final func setToMany<D: StrataObject, S: Sequence>(_ relationship: Int, _ property: StaticString, _ values: S) where S.Element == D {
        let objects = Array(values)
        checkRelating(property, objects)
        observationWillSet(.relationship, relationship)
        context?.setToMany(self, relationship: relationship, to: objects)
        observationDidSet(.relationship, relationship)
    }

    /// Relationship setters accept objects of this object's own transaction only.
    private func checkRelating(_ property: StaticString, _ objects: [StrataObject]) {
        willSet(-1, property)
        for object in objects where object.token !== token {
            let entity = Swift.type(of: self).entityName
            let other = Swift.type(of: object).entityName
            misuse("Strata: '\(entity).\(property)' was given a \(other) from another context; "
                                + "relate objects of one transaction: transaction.edit(\(other.prefix(1).lowercased() + other.dropFirst()))")
        }
        for object in objects where object.deleted {
            misuse("Strata: '\(Swift.type(of: self).entityName).\(property)' was given a deleted \(Swift.type(of: object).entityName)")
        }
        // Objects of two storages fail the commit with `crossStorageRelationship` (see `ObjectContext.setToOne`).
    }

    /// The value of a required attribute whose Swift type has no natural zero (a `Codable`),
    /// trapping with the entity and property when it was never set.
    public final func requiredValue<Value>(_ value: Value?, _ property: StaticString) -> Value {
        guard let value else {
            misuse("Strata: '\(Swift.type(of: self).entityName).\(property)' has no value yet; set it before reading it")
        }
        return value
    }

    /// Marks a column changed on behalf of the runtime (inverse updates), without the setter checks.
    final func markChanged(_ ordinal: Int) {
        if markDirty(ordinal), isWritten {
            token?.context?.markUpdated(self, column: ordinal)
        }
    }

    /// The typed ID of this object.
    public final func objectID<T: StrataObject>(as type: T.Type = T.self) -> ObjectID<T> {
        ObjectID(key: key, entityName: Swift.type(of: self).entityName)
    }

    /// Called by generated setters before a stored value changes.
    ///
    /// Setting a value outside a transaction is a programming error, and traps with a message
    /// naming the entity and property: the main and read contexts are read-only, and a deleted
    /// object cannot change.
    public final func willSet(_ ordinal: Int, _ property: StaticString) {
        // One expression, so that the home and token are read without being retained (a bound
        // `token` was kept across the calls below: a retain and a release on every setter call).
        guard home?.token.state == .writable, !deleted else { refuseChange(of: property) }
        guard ordinal >= 0 else { return }
        if markDirty(ordinal), isWritten {
            token?.context?.markUpdated(self, column: ordinal)
        }
        observationWillSet(.column, ordinal)
    }

    /// Traps for a change ``willSet(_:_:)`` refused, naming the entity, the property and why.
    @inline(never)
    private final func refuseChange(of property: StaticString) -> Never {
        let entity = Swift.type(of: self).entityName
        switch token?.state {
        case nil:
            misuse("Strata: '\(entity).\(property)' was set on an object that belongs to no transaction; "
                                + "create objects with transaction.create(Into<\(entity)>()) and change them inside a transaction")
        case .readOnly?:
            misuse("Strata: '\(entity).\(property)' was set on an object of a read-only context; "
                                + "change it inside a transaction: transaction.edit(object)")
        case .finished?:
            misuse("Strata: '\(entity).\(property)' was set on an object of a transaction that has ended; "
                                + "pass its ObjectID to a new transaction and edit it there")
        case .writable?:
            misuse("Strata: '\(entity).\(property)' was set on a deleted object")
        }
    }

    /// Identity: two references are equal when they are the same object.
    public static func == (lhs: StrataObject, rhs: StrataObject) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// `<Person #12 (transaction)>`.
    open var debugDescription: String {
        let state = deleted ? "deleted" : token.map { $0.state == .finished ? "ended" : $0.kind.rawValue } ?? "detached"
        return "<\(Swift.type(of: self).entityName) #\(rowID) (\(state))>"
    }
}

/// What an object knows of its context without holding it: whether it may be changed now, and
/// the context's `ObservationRegistrar`.
@usableFromInline
final class ContextToken {
    enum State {
        case writable
        case readOnly
        case finished
    }

    weak var context: ObjectContext?
    let kind: ObjectContext.Kind
    // Read by every setter; confined to the context's isolation domain like the context itself.
    @exclusivity(unchecked) var state: State
    /// The registrar of every object of the context: one per context, so that fetched objects
    /// need none of their own (an `ObservationRegistrar` is an allocation).
    @usableFromInline let registrar = ObservationRegistrar()
    /// Whether the context's objects report to Observation: not those of a read context, a
    /// snapshot whose objects never change, so that reading them costs what it did before, nor
    /// those of a stack made with `observesObjects: false`.
    @usableFromInline let isObservable: Bool
    /// Whether an accessor of an object of the context was ever read: the main context then
    /// re-reads its objects as soon as another stack or process commits, so observers hear of it.
    @usableFromInline @exclusivity(unchecked) var hasObservedObjects = false

    init(context: ObjectContext) {
        self.context = context
        self.kind = context.kind
        self.state = context.kind == .transaction ? .writable : .readOnly
        self.isObservable = context.kind != .reader && context.core.observesObjects
    }
}

/// Logs a programming error at `fatal`, then stops the process with the same message.
func misuse(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    StrataDefaults.logger.assert(false, message: message, file: file, line: line)
    preconditionFailure(message, file: file, line: line)
}

/// Objects belong to the transaction or context that made them: pass `objectID`s between them.
@available(*, unavailable, message: "objects belong to their transaction or context; pass objectIDs instead")
extension StrataObject: Sendable {}
