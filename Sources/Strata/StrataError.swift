/// Every error the runtime throws. Each case carries what you need to act on it: the file, the
/// versions, the entity and property, or SQLite's own code, message and SQL.
public enum StrataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// SQLite refused something: its (extended) result code, its message, and the SQL if any.
    case sqlite(code: Int32, message: String, sql: String?)
    /// The file exists but is not a SQLite database (or is not readable as one).
    case notAStore(file: String, reason: String)
    /// Another connection or process held the store's write lock for longer than the storage's
    /// `busyTimeout`; the transaction was rolled back.
    case storeBusy(file: String, milliseconds: Int)
    /// A write found the disk full, or the store at its size limit; the transaction was rolled back.
    case storeFull(file: String)
    /// The store's file was deleted or moved while the stack had it open; nothing was saved.
    case storeMoved(file: String)
    /// SQLite could not open or set up the file: its folder cannot be written, it is read-only, or
    /// another process holds it locked.
    case cannotOpenStore(file: String, reason: String)
    /// The store was written for another model.
    case differentModel(file: String, storeModel: String, expectedModel: String)
    /// The store is at an older (or other) version of this model and must be migrated first.
    case migrationRequired(file: String, storeVersion: String, currentVersion: String)
    /// The store's locks match no version of this model's history.
    case unknownStoreVersion(file: String, model: String, storeVersion: String)
    /// The store records a version this model's history does not have: most often a newer release
    /// of the app wrote it (or the model no longer lists an old version).
    case newerStoreVersion(file: String, storeVersion: String, currentVersion: String)
    /// The store's version is known, but the migration chain leads from it to no current version
    /// (the store comes from a newer app, or from a branch of the chain that ends elsewhere).
    case noMigrationPath(file: String, storeVersion: String, currentVersion: String)
    /// A migration step could not be planned or run; the store is unchanged.
    case migrationFailed(file: String, from: String, to: String, reason: String)
    /// A configuration name the model does not define.
    case unknownConfiguration(String, available: [String])
    /// A storage of a type Strata cannot open (only `SQLiteStore` and `InMemoryStore` can be);
    /// nothing was added.
    case unsupportedStorage(String)
    /// An entity lives in several added storages and the clause did not say which.
    case ambiguousConfiguration(entity: String, configurations: [String])
    /// No storage added to the stack holds this entity.
    case noStorage(entity: String)
    /// A storage for this configuration was already added.
    case storageAlreadyAdded(configuration: String)
    /// Deleting an object was refused by a `deny` rule: it still has `count` related objects.
    case deleteDenied(entity: String, relationship: String, count: Int)
    /// A transaction related objects of two storages (`configurations`: the source's, then the
    /// destination's); SQLite cannot keep a relationship across files, so nothing was saved.
    case crossStorageRelationship(entity: String, relationship: String, configurations: [String])
    /// A required attribute was never given a value.
    case missingValue(entity: String, attribute: String)
    /// Saving would break a `unique` attribute or uniqueness group.
    case uniquenessViolation(entity: String, attributes: [String])
    /// A to-many relationship holds fewer or more objects than its `min` / `max`.
    case relationshipCount(entity: String, relationship: String, count: Int, minimum: Int?, maximum: Int?)
    /// A clause that cannot be turned into SQL, with the reason.
    case invalidQuery(String)
    /// `perform(synchronous:)` was called from inside a transaction, which would deadlock.
    case synchronousPerformInsideTransaction
    /// The transaction was cancelled by `try transaction.cancel()`.
    case userCancelled
    /// A file-system operation failed.
    case fileSystem(path: String, message: String)
    /// A value of an imported source does not fit the attribute it is imported into.
    case importFailed(entity: String, attribute: String, key: String, reason: String)
    /// A source cannot become an `ImportPayload`: `source` says where it is in the document
    /// (`[3]`, `[3].pets[1]`, empty for the top), `key` which key is at fault (nil when the
    /// source is not an object at all).
    case invalidImportSource(entity: String, source: String, key: String?, reason: String)
    /// An unsafe transaction changed attributes that another commit changed after the transaction
    /// read them (each entry: `Entity #id (attribute, ...)`, or `(deleted)`), and its merge policy
    /// is `.error`; nothing was saved.
    case mergeConflict(objects: [String])
    /// A `Codable` attribute's value threw while being encoded; nothing was saved.
    case encodingFailed(type: String, coder: String, reason: String)
    /// The app's decode function of a `coder: custom` attribute threw on the stored bytes of an
    /// object (its description, `Person #3`), so the object could not be read; nothing was changed.
    case decodingFailed(entity: String, attribute: String, object: String, reason: String)
    /// A clause names a configuration that does not hold the entity (and the ones that do).
    case notInConfiguration(entity: String, configuration: String, holding: [String])
    /// A monitored object does not exist: deleted, or never saved (its description, `Person #3`).
    case objectNotFound(String)
    /// The transaction's closure threw an error of its own, carried unchanged (the `async` and
    /// synchronous `perform` and `read` rethrow it as it was; completion handlers receive it here).
    case userError(UserError)
    /// The database server refused a statement: its SQLSTATE code (`23505`, `42P01`, ...), its
    /// message, and the SQL if any.
    case server(code: String, message: String, sql: String?)
    /// The database server could not be reached or refused the connection (down, wrong password,
    /// no such database): the server as `host:port` (or its socket folder), the database, and why.
    case serverUnavailable(server: String, database: String, reason: String)
    /// The connection to the database server was lost while it was in use (a restart, a failover,
    /// a network failure, a terminated backend). The server rolled back the transaction it was in,
    /// so nothing of it was committed; the next transaction or fetch connects again.
    case connectionLost(server: String, database: String)
    /// The database server could not fit the transaction in with concurrent ones: a serialization
    /// failure (SQLSTATE `40001`) or a deadlock (`40P01`), what the server said, and how many times
    /// the transaction ran. Nothing of it was committed. `perform` runs its closure again before
    /// reporting this (up to ``DataStack/conflictAttempts`` times in all); an unsafe transaction's
    /// commit reports it at once, since only its caller can redo its work.
    case transactionConflict(code: String, message: String, attempts: Int)
    /// The stack was closed with ``DataStack/close()``, so it takes no more work: nothing was
    /// read or saved. `model` names the stack's model.
    case stackClosed(model: String)
    /// Syncing a store with its server failed: `reason` says why (the server's words when it
    /// refused a request). Local commits are kept; the next sync tries again.
    case syncFailed(String)
    /// The sync server refused this device's model version: `clientVersion` is the device's,
    /// `serverVersion` the server's current one, and `reason` names the step between them that
    /// cannot be translated (or why the versions do not match). Nothing was sent or written; the
    /// device syncs again once the app (or the server) is updated.
    case syncVersionRefused(clientVersion: String, serverVersion: String, reason: String)

    /// One sentence saying what happened and what to do.
    public var description: String {
        switch self {
        case .sqlite(let code, let message, let sql):
            return "SQLite error \(code): \(message)" + (sql.map { " (in: \($0))" } ?? "")
        case .notAStore(let file, let reason):
            return "'\(file)' is not a Strata store: \(reason)"
        case .storeBusy(let file, let milliseconds):
            return "'\(file)' stayed locked by another connection or process for \(milliseconds) ms, so the transaction was rolled back; "
                + "try again, or give the storage a longer busyTimeout"
        case .storeFull(let file):
            return "'\(file)' is full: its disk has no room left (or the store reached its size limit), so nothing of the transaction "
                + "was saved; free some space and try again"
        case .storeMoved(let file):
            return "'\(file)' was deleted or moved while the stack had it open, so nothing was saved; "
                + "add the storage to a new stack to create or reopen it"
        case .cannotOpenStore(let file, let reason):
            return "cannot open '\(file)': \(reason)"
        case .differentModel(let file, let storeModel, let expectedModel):
            return "'\(file)' holds a store of model '\(storeModel)', not '\(expectedModel)'"
        case .migrationRequired(let file, let storeVersion, let currentVersion):
            return "'\(file)' is at version '\(storeVersion)' and must be migrated to '\(currentVersion)' before it can be opened; "
                + "add it with 'try await stack.addStorage(_:)', which migrates it (addStorageAndWait migrates only lightweight steps, "
                + "and only with .allowSynchronousLightweightMigration)"
        case .unknownStoreVersion(let file, let model, let storeVersion):
            return "'\(file)' says it is version '\(storeVersion)' of '\(model)', but its locks match no version of this model's history"
        case .newerStoreVersion(let file, let storeVersion, let currentVersion):
            return "'\(file)' is at version '\(storeVersion)', which this app's model does not have (its newest is '\(currentVersion)'); "
                + "a newer version of the app wrote it, or the model no longer lists that version"
        case .noMigrationPath(let file, let storeVersion, let currentVersion):
            return "'\(file)' is at version '\(storeVersion)', from which the migration chain does not lead to '\(currentVersion)'; "
                + "it may come from a newer version of the app"
        case .migrationFailed(let file, let from, let to, let reason):
            return "migrating '\(file)' from '\(from)' to '\(to)' failed, and the store was left as it was: \(reason)"
        case .unknownConfiguration(let name, let available):
            return "the model has no configuration '\(name)'; it has \(available.joined(separator: ", "))"
        case .unsupportedStorage(let type):
            return "a storage of type '\(type)' cannot be opened: Strata opens SQLiteStore and InMemoryStore; nothing was added"
        case .ambiguousConfiguration(let entity, let configurations):
            return "'\(entity)' is stored in configurations \(configurations.joined(separator: ", ")); name one, as in Into<\(entity)>(\"\(configurations[0])\")"
        case .noStorage(let entity):
            return "no storage added to the stack holds '\(entity)'; add one with addStorage first"
        case .storageAlreadyAdded(let configuration):
            return "a storage for configuration '\(configuration)' was already added"
        case .deleteDenied(let entity, let relationship, let count):
            return "cannot delete a '\(entity)': its relationship '\(relationship)' denies deletion while it has related objects (\(count))"
        case .crossStorageRelationship(let entity, let relationship, let configurations):
            return "'\(entity).\(relationship)' cannot relate an object stored in configuration '\(configurations.first ?? "?")' "
                + "to one stored in '\(configurations.last ?? "?")': a relationship cannot cross storages, so nothing was saved; "
                + "create related objects in one storage"
        case .missingValue(let entity, let attribute):
            return "'\(entity).\(attribute)' is required but was never given a value"
        case .uniquenessViolation(let entity, let attributes):
            return "saving would give two '\(entity)' objects the same \(attributes.joined(separator: ", "))"
        case .relationshipCount(let entity, let relationship, let count, let minimum, let maximum):
            let bounds = [minimum.map { "at least \($0)" }, maximum.map { "at most \($0)" }].compactMap { $0 }.joined(separator: " and ")
            return "'\(entity).\(relationship)' holds \(count) objects but must hold \(bounds)"
        case .invalidQuery(let reason):
            return "invalid query: \(reason)"
        case .synchronousPerformInsideTransaction:
            return "perform(synchronous:) was called from inside a transaction; that would wait for itself forever"
        case .userCancelled:
            return "the transaction was cancelled"
        case .fileSystem(let path, let message):
            return "'\(path)': \(message)"
        case .importFailed(let entity, let attribute, let key, let reason):
            return "cannot import '\(entity).\(attribute)' from key '\(key)': \(reason)"
        case .invalidImportSource(let entity, let source, let key, let reason):
            return "cannot import '\(entity)' from " + (source.isEmpty ? "the source" : "source \(source)")
                + (key.map { ", key '\($0)'" } ?? "") + ": \(reason)"
        case .mergeConflict(let objects):
            return "the commit conflicts with changes committed since these objects were read, so nothing was saved: "
                + objects.joined(separator: "; ") + "; call refreshAndMergeAllObjects() before changing them, or choose another merge policy"
        case .encodingFailed(let type, let coder, let reason):
            return "a \(type) value could not be encoded as \(coder), so nothing was saved: \(reason)"
        case .decodingFailed(let entity, let attribute, let object, let reason):
            return "cannot read \(object): the app's decode function of '\(entity).\(attribute)' threw: \(reason)"
        case .notInConfiguration(let entity, let configuration, let holding):
            return "configuration '\(configuration)' does not hold '\(entity)'; it is stored in \(holding.joined(separator: ", "))"
        case .objectNotFound(let object):
            return "\(object) does not exist: it was deleted, or never saved; monitor an object the store holds"
        case .userError(let error):
            return "the transaction threw: \(error.description)"
        case .server(let code, let message, let sql):
            return "the database server refused a statement (SQLSTATE \(code)): \(message)" + (sql.map { " (in: \($0))" } ?? "")
        case .serverUnavailable(let server, let database, let reason):
            return "cannot connect to database '\(database)' on \(server): \(reason)"
        case .transactionConflict(let code, let message, let attempts):
            return "the database server could not apply the transaction alongside concurrent ones (SQLSTATE \(code): \(message)) "
                + "after \(attempts) attempt\(attempts == 1 ? "" : "s"); nothing of it was committed: run it again"
        case .connectionLost(let server, let database):
            return "the connection to database '\(database)' on \(server) was lost; the server rolled back "
                + "what it had not committed, and the next transaction or fetch connects again"
        case .stackClosed(let model):
            return "the stack of model '\(model)' was closed, so it takes no more work and nothing was done; "
                + "add the storage to a new DataStack to use the store again"
        case .syncFailed(let reason):
            return "sync failed: \(reason)"
        case .syncVersionRefused(let clientVersion, let serverVersion, let reason):
            return "sync refused: this device's model version \(clientVersion) cannot sync with the server's \(serverVersion): \(reason)"
        }
    }
}
