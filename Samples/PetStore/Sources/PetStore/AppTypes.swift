import Foundation

/// What the model stores in `Person.settings` (a `Codable` attribute).
struct PersonSettings: Codable, Hashable, Sendable {
    var theme: String
    var notifications: Bool
}

extension Person {
    /// The model's `virtual` attribute: computed by the app, never stored.
    var initials: String { String(displayName.split(separator: " ").compactMap(\.first)) }
}
