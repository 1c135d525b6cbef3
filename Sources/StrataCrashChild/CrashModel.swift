import Strata

// The model the crash tests migrate: barns with cows with tags, then a version that rebuilds the
// cow table (a type change), then one whose custom step rewrites every cow.

final class CrashBarn: StrataObject { override class var entityName: String { "Barn" } }
final class CrashCow: StrataObject { override class var entityName: String { "Cow" } }
final class CrashTag: StrataObject { override class var entityName: String { "Tag" } }

/// What the custom step of V3 writes for a cow.
struct CrashCowValues: MigrationValues {
    var name: String
    var grams: Int64

    func bindColumns(to binder: inout ColumnBinder) {
        binder.bind(string: name)
        binder.bind(int64: grams)
    }
}

enum CrashModel {
    static let barn = EntityDescription("Barn", attributes: [AttributeDescription("name", .string)],
                                        relationships: [RelationshipDescription("cows", destination: "Cow", inverse: "barn", kind: .unordered)])
    static let tag = EntityDescription("Tag", attributes: [AttributeDescription("label", .string)],
                                       relationships: [RelationshipDescription("cows", destination: "Cow", inverse: "tags", kind: .unordered)])
    static let cowRelationships = [
        RelationshipDescription("barn", destination: "Barn", inverse: "cows"),
        RelationshipDescription("tags", destination: "Tag", inverse: "cows", kind: .unordered),
    ]

    static func version(_ name: String, cow attributes: [AttributeDescription], mark: UInt64, migrations: [MigrationDescription] = []) -> ModelVersion {
        let cow = EntityDescription("Cow", attributes: attributes, relationships: cowRelationships)
        let lock = VersionLock(["Barn": [mark, 1, 0, 0], "Cow": [mark, 2, 0, 0], "Tag": [mark, 3, 0, 0]])
        return ModelVersion(name, entities: [barn, cow, tag], versionLock: lock, migrations: migrations)
    }

    static let v1 = version("V1", cow: [AttributeDescription("name", .string), AttributeDescription("weight", .int32)], mark: 1)
    /// Weight widened to Double: the cow table is rebuilt.
    static let v2 = version("V2", cow: [AttributeDescription("name", .string), AttributeDescription("weight", .double)], mark: 2)
    /// A custom step: names in capitals, weights in grams; cows named "skip…" are left out.
    static let v3 = version("V3", cow: [AttributeDescription("name", .string), AttributeDescription("grams", .int64)], mark: 3,
                            migrations: [MigrationDescription(from: "V2", entities: [EntityMigrationHint("Cow", custom: true)])])

    static let step = CustomMigrationStep(from: "V2", to: "V3", entity: "Cow") { old in
        guard case .text(let name) = old["name"], !name.hasPrefix("skip"), case .real(let weight) = old["weight"] else { return nil }
        return CrashCowValues(name: name.uppercased(), grams: Int64(weight * 1_000))
    }

    /// The history of an app at `current`.
    static func history(current: String) -> SchemaHistory {
        let versions = [v1, v2, v3].prefix { $0.name <= current }
        let types: [StrataObject.Type] = [CrashBarn.self, CrashCow.self, CrashTag.self]
        return SchemaHistory(model: "Crash", versions: Array(versions), migrationChain: ["V1", "V2", "V3"], current: current,
                             entityTypes: types, customSteps: [step])
    }
}
