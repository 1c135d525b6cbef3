import Foundation

/// Finds other processes' commits to a SQLite file, through a read-only connection of its own.
///
/// SQLite has no cross-process notification, and file-system events differ by platform (Linux's
/// inotify, Darwin's kqueue) and say nothing about what was committed. So the probe asks for
/// `PRAGMA data_version`, which changes exactly when another connection committed, and only then
/// reads the store's commit count.
struct SQLiteFileProbe: CommitProbe {
    let path: String
    private var connection: SQLiteConnection?
    private var dataVersion: Int64?
    private var counts = CommitCountComparison()
    private var hasMoved = false

    init(path: String) {
        self.path = path
    }

    /// Polls the file. One that cannot be read is reported, and tried again at the next poll.
    mutating func poll(knownCount: Int64?) -> CommitProbeFinding {
        guard !hasMoved else { return .nothing }
        if connection == nil, !FileManager.default.fileExists(atPath: path) {
            // Gone before this probe first opened it.
            hasMoved = true
            return .moved
        }
        do {
            let connection = try connection ?? SQLiteConnection(path: path, readOnly: true)
            self.connection = connection
            if connection.fileHasMoved {
                hasMoved = true
                return .moved
            }
            let statement = try connection.cachedStatement("PRAGMA data_version")
            defer { statement.reset() }
            guard try statement.step() else { return .nothing }
            let version = statement.row.int64(0)
            guard version != dataVersion else { return .nothing }
            dataVersion = version
            return try counts.read(connection, knownCount: knownCount)
        } catch {
            connection = nil
            return .unreachable
        }
    }
}
