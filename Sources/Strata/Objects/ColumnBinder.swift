import Foundation

/// Writes the stored columns of one object, in the order its entity declares them: into the
/// parameters of an INSERT (every column), of an UPDATE (the selected columns only), or into
/// captured values.
///
/// Generated `bindColumns(to:)` methods call one typed bind per column, ancestors first, the same
/// order `readColumns(_:)` reads them; the binder skips columns that are not selected and numbers
/// the statement parameters itself. Each method has its own argument label, so a large entity's
/// generated method costs the type checker one candidate per call, not a search through overloads.
public struct ColumnBinder {
    enum Target {
        case statement(any DatabaseStatement)
        case capture
    }

    let target: Target
    /// The statement again when it is SQLite's, unretained: a bind then calls it directly, without
    /// the retain and release that reading it out of `target` costs (ten on every inserted row of
    /// five columns). Sound because `target` holds the same statement strongly in every copy of
    /// the binder, so it lives as long as any binder that can reach it.
    private let sqlite: Unmanaged<SQLiteStatement>?
    /// The columns to bind, by lineage ordinal; nil binds every column.
    private let selection: ColumnSet?
    /// The lineage ordinal of the column the next call binds.
    private var ordinal = 0
    /// The statement parameter the next selected column binds to; after `bindColumns(to:)`, the
    /// first parameter past the columns (an UPDATE's row id).
    private(set) var nextParameter: Int32
    /// Every value, in column order, when capturing.
    private(set) var captured: [SQLValue] = []
    /// The first `Codable` value that could not be encoded; the caller throws it after binding.
    private(set) var failure: StrataError?

    /// A binder writing every column to parameters `firstParameter`, `firstParameter + 1`, ...
    init(statement: any DatabaseStatement, firstParameter: Int32) {
        target = .statement(statement)
        sqlite = (statement as? SQLiteStatement).map(Unmanaged.passUnretained)
        selection = nil
        nextParameter = firstParameter
    }

    /// A binder writing the columns in `columns` to parameters 1, 2, ... in ordinal order.
    init(statement: any DatabaseStatement, columns: ColumnSet) {
        target = .statement(statement)
        sqlite = (statement as? SQLiteStatement).map(Unmanaged.passUnretained)
        selection = columns
        nextParameter = 1
    }

    /// A binder capturing every column's value.
    init(capturingColumns count: Int) {
        target = .capture
        sqlite = nil
        selection = nil
        nextParameter = 1
        captured.reserveCapacity(count)
    }

    /// The parameter the current column binds to, or nil when it is skipped; moves to the next column.
    @inline(__always)
    private mutating func advance() -> Int32? {
        defer { ordinal += 1 }
        if let selection, !selection.contains(ordinal) { return nil }
        defer { nextParameter += 1 }
        return nextParameter
    }

    /// Binds an integer.
    public mutating func bind(int64 value: Int64) {
        guard let parameter = advance() else { return }
        if let sqlite { return sqlite._withUnsafeGuaranteedRef { $0.bind(value, at: parameter) } }
        switch target {
        case .statement(let statement): statement.bind(value, at: parameter)
        case .capture: captured.append(.integer(value))
        }
    }

    /// Binds a `Double`.
    public mutating func bind(double value: Double) {
        guard let parameter = advance() else { return }
        if let sqlite { return sqlite._withUnsafeGuaranteedRef { $0.bind(value, at: parameter) } }
        switch target {
        case .statement(let statement): statement.bind(value, at: parameter)
        case .capture: captured.append(.real(value))
        }
    }

    /// Binds a `String`.
    public mutating func bind(string value: String) {
        guard let parameter = advance() else { return }
        if let sqlite { return sqlite._withUnsafeGuaranteedRef { $0.bind(value, at: parameter) } }
        switch target {
        case .statement(let statement): statement.bind(value, at: parameter)
        case .capture: captured.append(.text(value))
        }
    }

    /// Binds an `Int`.
    public mutating func bind(int value: Int) { bind(int64: Int64(value)) }
    /// Binds an `Int32`.
    public mutating func bind(int32 value: Int32) { bind(int64: Int64(value)) }
    /// Binds an `Int16`.
    public mutating func bind(int16 value: Int16) { bind(int64: Int64(value)) }
    /// Binds a `Bool` as 0 or 1.
    public mutating func bind(bool value: Bool) { bind(int64: value ? 1 : 0) }
    /// Binds a `Float` as a `Double`.
    public mutating func bind(float value: Float) { bind(double: Double(value)) }
    /// Binds a `Date` as seconds since 2001-01-01, the interval it holds, so no bit changes.
    public mutating func bind(date value: Date) { bind(double: value.timeIntervalSinceReferenceDate) }

    /// Binds any queryable value, or NULL.
    public mutating func bind<T: QueryableAttributeType>(value: T?) {
        guard let parameter = advance() else { return }
        bindValue(value?.sqlValue ?? .null, at: parameter)
    }

    /// Binds a `Codable` value encoded by `coder`, or NULL.
    public mutating func bind<T: Encodable>(codable value: T?, coder: CodableCoder) {
        guard let parameter = advance() else { return }
        guard let value else { return bindValue(.null, at: parameter) }
        do throws(StrataError) {
            bindValue(.blob(try coder.encode(value)), at: parameter)
        } catch {
            if failure == nil { failure = error }
            bindValue(.null, at: parameter)
        }
    }

    /// Binds a `coder: custom` attribute's value as the bytes the app's `encode` makes, or NULL;
    /// an `encode` that throws fails the commit with `encodingFailed` (coder `custom`).
    public mutating func bind<T>(custom value: T?, encode: (T) throws -> Data) {
        guard let parameter = advance() else { return }
        guard let value else { return bindValue(.null, at: parameter) }
        do {
            bindValue(.blob(Array(try encode(value))), at: parameter)
        } catch {
            if failure == nil { failure = .encodingFailed(type: String(describing: T.self), coder: "custom", reason: "\(error)") }
            bindValue(.null, at: parameter)
        }
    }

    /// Throws the first encoding failure met while binding.
    func checkEncoding() throws(StrataError) {
        if let failure { throw failure }
    }

    private mutating func bindValue(_ value: SQLValue, at parameter: Int32) {
        if let sqlite { return sqlite._withUnsafeGuaranteedRef { $0.bind(value, at: parameter) } }
        switch target {
        case .statement(let statement): statement.bind(value, at: parameter)
        case .capture: captured.append(value)
        }
    }
}
