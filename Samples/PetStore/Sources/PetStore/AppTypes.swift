import Foundation

/// What the model stores in `Person.settings` (a `Codable` attribute).
struct PersonSettings: Codable, Hashable, Sendable {
    var theme: String
    var notifications: Bool
}

extension Person: PersonVirtualAttributes {
    /// The model's `virtual` attribute: computed by the app, never stored.
    var initials: String { String(displayName.split(separator: " ").compactMap(\.first)) }
}

// snippet: migrator
/// The model's custom migration steps (V2 and V3 mark `Dog` as `transform: custom`): without this
/// type, or without one of its methods, the app does not compile.
enum PetStoreMigrator: PetStoreMigrations {
    /// V1 → V2: dogs gain a weight, an age and legs.
    static func migrateDog(from old: PetStoreV1.DogView) throws -> PetStoreV2.DogValues? {
        PetStoreV2.DogValues(species: old.species, nickname: old.nickname, weight: 0, age: 0, legs: 4)
    }

    /// V2 → V3: every dog has a name, and its age is counted in years.
    static func migrateDog(from old: PetStoreV2.DogView) throws -> PetStoreV3.DogValues? {
        PetStoreV3.DogValues(species: old.species, nickname: old.nickname ?? "a \(old.species)", weight: old.weight, years: old.age, legs: old.legs)
    }
}
// end snippet
