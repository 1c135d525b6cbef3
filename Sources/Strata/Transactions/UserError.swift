/// An error the app threw inside a transaction or read, carried unchanged in
/// ``StrataError/userError(_:)`` for the completion-handler APIs: `underlying` is the very value
/// thrown, so `underlying as? MyError` (or a `catch` of it, from the `async` and synchronous
/// `perform`, which rethrow it as it was) can match it.
public struct UserError: Error, Hashable, CustomStringConvertible {
    /// The error the closure threw.
    public let underlying: any Error

    /// Carries an error.
    public init(_ underlying: any Error) {
        self.underlying = underlying
    }

    /// Errors are equal when they have the same type and the same reflected value.
    public static func == (lhs: UserError, rhs: UserError) -> Bool {
        type(of: lhs.underlying) == type(of: rhs.underlying) && String(reflecting: lhs.underlying) == String(reflecting: rhs.underlying)
    }

    /// Hashes the type and the reflected value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type(of: underlying)))
        hasher.combine(String(reflecting: underlying))
    }

    /// The error, as Swift prints it.
    public var description: String { String(describing: underlying) }
}

extension StrataError {
    /// The error to throw from an API that rethrows the app's own errors: the app's error itself
    /// for ``userError(_:)``, else this error.
    var rethrown: any Error {
        if case .userError(let wrapped) = self { return wrapped.underlying }
        return self
    }
}
