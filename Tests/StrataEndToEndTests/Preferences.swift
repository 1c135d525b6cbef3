import Foundation

/// The Codable type the Shop model stores in `Customer.preferences`.
struct Preferences: Codable, Hashable, Sendable {
    var newsletter: Bool
    var language: String
}

extension Customer: CustomerVirtualAttributes {
    /// The `virtual` attribute the model asks the app to supply.
    var initials: String { String(name.split(separator: " ").compactMap(\.first)) }
}
