/// Fetching one object at a time, for results too large to hold: memory stays bounded by what the
/// caller keeps, not by the number of rows.
extension ObjectContext {
    /// How many rows pass between drops of the objects nothing else holds.
    static let streamingPurgeInterval = 1_000

    /// Calls `body` with each object of a fetch, in order, while the rows are read. Every
    /// `streamingPurgeInterval` rows the identity map lets go of objects nobody else holds
    /// (changed objects of a transaction are held by the transaction, so they stay).
    ///
    /// Over several storages (an entity in several configurations), the objects are read whole
    /// first when the fetch is sorted or limited, to merge their order; otherwise each storage is
    /// streamed in turn.
    func fetchEach<T: StrataObject>(_ chain: FetchChainBuilder<T>, _ body: (T) throws -> Void) throws {
        let (layout, storages) = try source(of: chain)
        if storages.count > 1, !chain.sortKeys.isEmpty || chain.tweak.limit != nil || chain.tweak.offset != nil {
            for object in try fetchAcross(chain, layout: layout, storages) { if let object = object as? T { try body(object) } }
            return
        }
        let plan = try plan(chain, layout: layout).plan
        for storage in storages { try fetchEach(plan, tweak: chain.tweak, from: storage, body) }
    }

    /// `fetchEach` of a planned fetch over one storage.
    private func fetchEach<T: StrataObject>(_ plan: FetchPlan, tweak: Tweak, from storage: StorageHandle, _ body: (T) throws -> Void) throws {
        if kind == .transaction {
            try fetchEachByKey(plan, tweak: tweak, from: storage, body)
            return
        }
        let connection = try readingConnection(storage, tweak: tweak)
        // A statement of its own, not the cached one: `body` may run the same fetch.
        let statement = try connection.prepare(plan.sql.text)
        statement.bind(plan.sql.arguments)
        var sincePurge = 0
        while try statement.step() {
            // `plan` checked that every kind of row it can return is a `T`.
            guard let object = try materialize(statement.row, plan: plan, storage: storage.index) as? T else { continue }
            try body(object)
            sincePurge += 1
            if sincePurge == Self.streamingPurgeInterval {
                sincePurge = 0
                purge()
            }
        }
    }

    /// `fetchEach` in a transaction, whose closure may write on the connection the rows come from
    /// (a fetch inside it writes the closure's changes first): a statement still stepping would
    /// then meet a row again after its sort key changed, without end. So the rows' keys (16 bytes
    /// each) are read first, and the objects in chunks of `streamingPurgeInterval`: those the
    /// closure deleted meanwhile are skipped, and each object is the transaction's own, with its
    /// changes.
    private func fetchEachByKey<T: StrataObject>(_ plan: FetchPlan, tweak: Tweak, from storage: StorageHandle,
                                                 _ body: (T) throws -> Void) throws {
        let connection = try readingConnection(storage, tweak: tweak)
        // Every key is read before `body` runs, so the cached statement serves.
        let keys = try keys(of: plan, in: storage, statement: connection.cachedStatement(plan.sql.text)).map(\.0)
        for start in stride(from: 0, to: keys.count, by: Self.streamingPurgeInterval) {
            let chunk = Array(keys[start..<min(start + Self.streamingPurgeInterval, keys.count)])
            for case let object as T in try objects(for: chunk) where !object.deleted {
                try body(object)
            }
            purge()
        }
    }
}
