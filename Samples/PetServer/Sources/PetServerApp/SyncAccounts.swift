/// The sample's stand-in for sign-in: a fixed list of accounts and their bearer tokens, from
/// `--accounts alice:TOKEN1,bob:TOKEN2`.
///
/// A production app puts its real sign-in here instead: the `authenticate` closure a
/// `SyncServer` takes receives each request's bearer token and returns the account it belongs
/// to, by checking a session store, verifying a signed token (a JWT's signature, expiry and
/// subject), or asking an identity provider; nil refuses the request with a 401.
public struct SyncAccounts: Sendable, Equatable {
    /// Each token's account.
    public let accountsByToken: [String: String]

    /// No account: every sync request is refused.
    public init() {
        accountsByToken = [:]
    }

    /// Reads `alice:TOKEN1,bob:TOKEN2`; throws a message naming the first entry it cannot read.
    public init(parsing list: String) throws(AccountListError) {
        var accounts: [String: String] = [:]
        for entry in list.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = entry.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw AccountListError(message: "'\(entry)' is not ACCOUNT:TOKEN; write --accounts alice:TOKEN1,bob:TOKEN2")
            }
            guard accounts[String(parts[1])] == nil else {
                throw AccountListError(message: "two accounts have the token of '\(parts[0])'; each account needs a token of its own")
            }
            accounts[String(parts[1])] = String(parts[0])
        }
        accountsByToken = accounts
    }

    /// The account a token signs in, or nil.
    public func account(for token: String) -> String? {
        accountsByToken[token]
    }
}

/// What is wrong with an `--accounts` list.
public struct AccountListError: Error, Equatable, CustomStringConvertible {
    /// The message.
    public let message: String

    public var description: String { message }
}
