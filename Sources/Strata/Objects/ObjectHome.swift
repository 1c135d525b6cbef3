/// Where an object lives: its context's token, its entity's layout and the storage its row is
/// in. Every object a context makes for one entity and storage shares one home, so an object
/// holds (and retains) one reference and its row id, where it would otherwise hold a token, a
/// layout and a 16-byte key: fetching 100,000 objects takes 100,000 fewer reference counts, and
/// each object is 16 bytes smaller.
@usableFromInline
final class ObjectHome {
    /// The context's token: whether its objects may change now, and its registrar.
    @usableFromInline let token: ContextToken
    /// The entity's layout.
    let layout: EntityLayout
    /// The storage that holds the objects' rows (-1 when the entity has none).
    let storage: Int32
    /// The table of the entity, in the store layout.
    let table: Int32
    /// Whether the objects report to Observation (a copy of the token's; each object keeps it as
    /// `reportsReads`, which its accessors read).
    let isObservable: Bool

    init(token: ContextToken, layout: EntityLayout, storage: Int32) {
        self.token = token
        self.layout = layout
        self.storage = storage
        self.table = Int32(layout.tableIndex)
        self.isObservable = token.isObservable
    }
}

/// The homes a context has made, one per entity and storage, for the context's current token.
struct ObjectHomes {
    private struct Key: Hashable {
        let layout: ObjectIdentifier
        let storage: Int32
    }

    private var homes: [Key: ObjectHome] = [:]
    /// The home asked for last: a run of creates or a fetch asks for the same one again.
    private var last: ObjectHome?

    /// The home of `layout`'s objects in `storage`, made once per token.
    mutating func home(_ layout: EntityLayout, storage: Int32, token: ContextToken) -> ObjectHome {
        if let last, last.layout === layout, last.storage == storage, last.token === token { return last }
        let key = Key(layout: ObjectIdentifier(layout), storage: storage)
        if let home = homes[key], home.token === token {
            last = home
            return home
        }
        let home = ObjectHome(token: token, layout: layout, storage: storage)
        homes[key] = home
        last = home
        return home
    }
}
