/// The messages of the sync protocol, version ``SyncFormat/current``, as JSON. Every message
/// carries its format; a server answers another one with an error naming both.
///
/// A push sends a batch of a client's changes; a pull fetches the changes the server logged after
/// a checkpoint, a page at a time:
///
/// ```json
/// {"format": 1, "client": "c-1", "model": "PetServer", "version": "V1", "batch": 4,
///  "changes": [{"entity": "Dog", "id": "0193a0b2-5c1e-7d3a-9f00-1b2c3d4e5f60",
///               "state": {"attributes": {"nickname": {"value": "Rex", "stamp": "1733380000000.0@c-1"}}}}]}
/// ```
public enum SyncFormat {
    /// The format this build speaks.
    public static let current = 1
}

/// How much one message may carry; a server refuses more, naming the limit.
public enum SyncLimits {
    /// The most changes one push may hold.
    public static let changesPerPush = 1_000
    /// The most changes one pull may ask for.
    public static let changesPerPull = 5_000
    /// The longest a pull may wait for a change, in milliseconds.
    public static let longestWait = 30_000
    /// The most bytes a request's body may hold.
    public static let requestBytes = 8 << 20
}

/// One object's change: its entity, its global ID, and the state the change carries.
public struct SyncChange: Codable, Hashable, Sendable {
    /// The entity, by the model's name.
    public var entity: String
    /// The object.
    public var id: GlobalID
    /// What changed (a partial ``SyncedObject``).
    public var state: SyncedObject

    /// A change of `id`, an object of `entity`.
    public init(entity: String, id: GlobalID, state: SyncedObject) {
        self.entity = entity
        self.id = id
        self.state = state
    }
}

/// A client's batch of changes. The server applies each batch once: a batch number at or below
/// the last it applied for the client (a push repeated after a crash) changes nothing.
public struct PushRequest: Codable, Hashable, Sendable {
    /// ``SyncFormat/current`` when the client made it.
    public var format: Int
    /// The client's ID, also the node of its clock.
    public var client: String
    /// The model and the version the client runs.
    public var model: String
    /// The model version's name.
    public var version: String
    /// The version's lock in its metadata text (`Dog:1b59…,…;Person:…`), so the server can tell a
    /// version changed after it shipped; nil from clients that send none.
    public var lock: String?
    /// The batch's number, from 1, growing by one per batch of this client.
    public var batch: Int64
    /// The changes, in the order made.
    public var changes: [SyncChange]

    /// A push in the current format.
    public init(client: String, model: String, version: String, lock: String? = nil, batch: Int64, changes: [SyncChange]) {
        self.format = SyncFormat.current
        self.client = client
        self.model = model
        self.version = version
        self.lock = lock
        self.batch = batch
        self.changes = changes
    }

    /// Throws the first thing wrong with the request that the JSON's types do not say.
    public func validate() throws(SyncProtocolError) {
        try SyncProtocolError.check(format: format, client: client)
        guard batch >= 1 else { throw SyncProtocolError("the field 'batch' must be at least 1, not \(batch)") }
        guard changes.count <= SyncLimits.changesPerPush else {
            throw SyncProtocolError("a push holds at most \(SyncLimits.changesPerPush) changes, not \(changes.count)")
        }
    }
}

/// The answer to a push.
public struct PushResponse: Codable, Hashable, Sendable {
    /// ``SyncFormat/current``.
    public var format: Int
    /// The last batch of this client the server has applied.
    public var applied: Int64
    /// The server's latest clock reading, which the client's clock receives.
    public var clock: SyncTimestamp
    /// The content's epoch: a new one when the server removed the content and started it again.
    public var epoch: String
    /// The account the request's token belongs to.
    public var account: String

    /// An answer saying `applied`.
    public init(applied: Int64, clock: SyncTimestamp, epoch: String, account: String) {
        self.format = SyncFormat.current
        self.applied = applied
        self.clock = clock
        self.epoch = epoch
        self.account = account
    }
}

/// A request for the changes logged after a checkpoint.
public struct PullRequest: Codable, Hashable, Sendable {
    /// ``SyncFormat/current`` when the client made it.
    public var format: Int
    /// The client's ID.
    public var client: String
    /// The model the client runs.
    public var model: String
    /// The model version's name.
    public var version: String
    /// The version's lock (see ``PushRequest/lock``).
    public var lock: String?
    /// The last server sequence number the client has applied (0 for none).
    public var after: Int64
    /// The most changes to answer with.
    public var limit: Int
    /// When nothing is logged after `after`, how long the server may wait for a change before it
    /// answers with none, in milliseconds (a live pull); nil or 0 answers at once.
    public var wait: Int?
    /// An older version the client ran before its app was updated: the page then holds only what
    /// that version could not see (entities and properties added since), so an updated device
    /// fetches those and nothing it has already.
    public var since: String?
    /// Whether the answer's ``PullResponse/remaining`` counts every change logged after the page
    /// (nil or true), or only up to `limit` of them (false): a full count reads the log to its
    /// end, which a client needs once (for an initial import's progress), not for every page.
    public var count: Bool?

    /// A pull in the current format.
    public init(client: String, model: String, version: String, lock: String? = nil, after: Int64, limit: Int, wait: Int? = nil, since: String? = nil,
                count: Bool? = nil) {
        self.format = SyncFormat.current
        self.client = client
        self.model = model
        self.version = version
        self.lock = lock
        self.since = since
        self.after = after
        self.limit = limit
        self.wait = wait
        self.count = count
    }

    /// Throws the first thing wrong with the request that the JSON's types do not say.
    public func validate() throws(SyncProtocolError) {
        try SyncProtocolError.check(format: format, client: client)
        guard after >= 0 else { throw SyncProtocolError("the field 'after' must be at least 0, not \(after)") }
        guard (1...SyncLimits.changesPerPull).contains(limit) else {
            throw SyncProtocolError("the field 'limit' must be from 1 to \(SyncLimits.changesPerPull), not \(limit)")
        }
        if let wait, !(0...SyncLimits.longestWait).contains(wait) {
            throw SyncProtocolError("the field 'wait' must be from 0 to \(SyncLimits.longestWait) milliseconds, not \(wait)")
        }
    }
}

/// A page of logged changes.
public struct PullResponse: Codable, Hashable, Sendable {
    /// One logged change and its server sequence number.
    public struct Entry: Codable, Hashable, Sendable {
        /// The server's sequence number: the log's order, the same on every app server.
        public var sequence: Int64
        /// The change.
        public var change: SyncChange

        /// The change logged as `sequence`.
        public init(sequence: Int64, change: SyncChange) {
            self.sequence = sequence
            self.change = change
        }
    }

    /// ``SyncFormat/current``.
    public var format: Int
    /// The changes, by sequence number.
    public var entries: [Entry]
    /// The checkpoint to pull after next: the last entry's sequence, or the request's `after`.
    public var checkpoint: Int64
    /// How many changes are logged after this page (the progress of an initial import); when
    /// the request's ``PullRequest/count`` was false, counted only up to its `limit`, so 0
    /// still means the page ended the log.
    public var remaining: Int64
    /// The server's latest clock reading.
    public var clock: SyncTimestamp
    /// The content's epoch (see ``PushResponse/epoch``).
    public var epoch: String
    /// The account the request's token belongs to.
    public var account: String

    /// A page of `entries`.
    public init(entries: [Entry], checkpoint: Int64, remaining: Int64, clock: SyncTimestamp, epoch: String, account: String) {
        self.format = SyncFormat.current
        self.entries = entries
        self.checkpoint = checkpoint
        self.remaining = remaining
        self.clock = clock
        self.epoch = epoch
        self.account = account
    }
}

/// What is wrong with a sync message, in words a client can show.
public struct SyncProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The message.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }

    static func check(format: Int, client: String) throws(SyncProtocolError) {
        guard format == SyncFormat.current else {
            throw SyncProtocolError("this server speaks sync format \(SyncFormat.current), and the client sent format \(format)")
        }
        guard !client.isEmpty else { throw SyncProtocolError("the field 'client' is empty; each client sends its own ID") }
    }
}

/// The body of every refusal a sync server answers with (any status but 200); the device
/// reads the same type.
public struct SyncErrorBody: Codable, Sendable, Equatable {
    /// What was wrong, in words.
    public var error: String
    /// In a 426 (a model version the server cannot serve): the client's version.
    public var clientVersion: String?
    /// In a 426: the server's version.
    public var serverVersion: String?
    /// In a 426: what stands between the two versions.
    public var reason: String?

    /// A body saying `error`.
    public init(error: String) {
        self.error = error
    }
}
