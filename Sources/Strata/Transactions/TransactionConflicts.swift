extension StrataError {
    /// The SQLSTATE and message of a serialization failure or deadlock, after which running the
    /// whole transaction again can succeed; nil for any other error.
    package var conflict: (code: String, message: String)? {
        switch self {
        case .server(let code, let message, _) where code == "40001" || code == "40P01":
            return (code, message)
        case .transactionConflict(let code, let message, _):
            return (code, message)
        default:
            return nil
        }
    }
}

extension DataStack {
    /// How many times `perform` runs a transaction's closure when the database server reports a
    /// serialization failure or a deadlock (PostgreSQL's SQLSTATE `40001` and `40P01`, which
    /// CockroachDB and YugabyteDB report whenever concurrent transactions collide) before it
    /// reports ``StrataError/transactionConflict(code:message:attempts:)``. SQLite never reports
    /// either, so on SQLite a closure runs once. Between attempts it waits a random while that
    /// doubles each time (up to 64 milliseconds), so that colliding writers spread out.
    public static let conflictAttempts = 20
}
