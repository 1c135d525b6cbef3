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

/// The model's custom migration step (V2 marks `Dog` as `transform: custom`): without this type the
/// app does not compile.
enum PetStoreMigrator: PetStoreMigrations {
    static func migrateDog(from old: PetStoreV1.DogView) throws -> PetStoreV2.DogValues? {
        PetStoreV2.DogValues(species: old.species, nickname: old.nickname, weight: 0, age: 0, legs: 4)
    }
}
