import Foundation

/// Where the server listens and which database it serves.
public struct PetServerOptions: Sendable {
    /// The address to bind: `127.0.0.1` serves this machine only, `0.0.0.0` every interface.
    public var hostname: String
    /// The TCP port; 0 lets the system pick a free one (the server prints which).
    public var port: Int
    /// A `postgres://` URL: the server keeps its data in that database, which several server
    /// processes may share. Nil keeps it in a SQLite file in ``storeFolder``.
    public var databaseURL: String?
    /// The folder of the SQLite store (`PetServer.sqlite`) when there is no ``databaseURL``.
    public var storeFolder: URL
    /// Who may sync at `/sync`: each bearer token and the account it signs in. A stand-in for
    /// real sign-in (see ``SyncAccounts``); empty, every sync request is a 401.
    public var accounts: SyncAccounts

    /// Options with the usual defaults: port 8080 on the loopback address, SQLite in the
    /// current folder.
    public init(hostname: String = "127.0.0.1", port: Int = 8080, databaseURL: String? = nil,
                storeFolder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath), accounts: SyncAccounts = SyncAccounts()) {
        self.hostname = hostname
        self.port = port
        self.databaseURL = databaseURL
        self.storeFolder = storeFolder
        self.accounts = accounts
    }
}
