/// The format of a store's layout, recorded in its metadata under `layout`, and the upgrade of a
/// store written in an older format.
///
/// - 1: dates stored as seconds since 1970.
/// - 2: dates stored as seconds since 2001-01-01 (the interval `Date` holds, so no bit changes);
///   floating-point columns declared without REAL affinity, so -0.0 keeps its sign.
enum LayoutFormat {
    /// The format this version of Strata writes.
    static let current = 2
    /// Seconds between 1970-01-01 and 2001-01-01.
    static let referenceDateOffset = 978_307_200.0

    /// The format a store's metadata records (1 when it records none), or an error naming the file
    /// when it is newer than this version of Strata reads.
    static func recorded(in metadata: [String: String], file: String) throws(StrataError) -> Int {
        guard let text = metadata["layout"] else { return 1 }
        guard let format = Int(text), format >= 1 else {
            throw .notAStore(file: file, reason: "its metadata records an unknown layout format \"\(text)\"")
        }
        guard format <= current else {
            throw .cannotOpenStore(file: file, reason: "it was written in layout format \(format), newer than the format \(current) "
                                   + "this version of Strata reads; open it with the version of Strata that wrote it, or a newer one")
        }
        return format
    }

    /// Brings a store of `version` from `format` to the current format, in one transaction: a
    /// crash leaves it whole in the old format or whole in the new.
    static func upgrade(_ connection: any DatabaseConnection, from format: Int, version: ModelVersion) throws(StrataError) {
        guard format < current else { return }
        let layout = StoreLayout(version: version, types: [:])
        let existing = Set(try StoreOpener.rows(connection, "SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { String(sqlValue: $0[0]) })
        try connection.beginWriteTransaction()
        do {
            // 1 → 2: dates move from seconds since 1970 to seconds since 2001, computed the way
            // `Date(timeIntervalSince1970:)` computes it, so each reads back as the same `Date`.
            for table in layout.tables where existing.contains(table.name) {
                for column in table.columns where column.attribute?.type == .date {
                    let name = SQLFragment.quote(column.name)
                    try connection.execute("UPDATE " + SQLFragment.quote(table.name) + " SET " + name + " = " + name + " - "
                                           + String(referenceDateOffset) + " WHERE typeof(" + name + ") IN ('real', 'integer')")
                }
            }
            try connection.execute("INSERT OR REPLACE INTO " + SQLFragment.quote(SchemaSQL.metadataTable) + " (key, value) VALUES ('layout', '"
                                   + String(current) + "')")
            try connection.commit()
        } catch {
            try? connection.rollback()
            throw error
        }
    }
}
