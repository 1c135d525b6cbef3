/// Who a ``CloudStore`` syncs for: the credential each request carries.
public enum CloudAccount: Sendable, Hashable, CustomStringConvertible {
    /// A bearer token (`Authorization: Bearer <token>`), which the server's `authenticate`
    /// closure maps to an account.
    case bearer(String)

    /// The token.
    var token: String {
        switch self {
        case .bearer(let token): return token
        }
    }

    /// `bearer(…)`, never the token itself.
    public var description: String { "bearer(…)" }
}

/// How a ``CloudStore`` treats its local file and its account.
public struct CloudStorageOptions: OptionSet, Sendable, Hashable {
    /// The options' bits.
    public let rawValue: Int

    /// Options from their bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// When the local file holds another model, or a version no migration leads from, delete it
    /// and start empty: the server holds the content, and the device downloads it again.
    public static let recreateLocalStoreOnModelMismatch = CloudStorageOptions(rawValue: 1 << 0)
    /// When the account is removed (set to nil), erase the synced objects from the device too;
    /// without it they stay, read-only in spirit, until another account replaces them.
    public static let eraseLocalContentOnSignOut = CloudStorageOptions(rawValue: 1 << 1)
    /// Sync only when ``CloudStore/sync()`` is called: no background pushes, no live pulls.
    public static let syncOnlyWhenAsked = CloudStorageOptions(rawValue: 1 << 2)
}
