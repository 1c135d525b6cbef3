import Strata
import StrataSyncCore
import StrataSyncEngine
import Testing

/// Translating changes between a server's current model version and a client's older one, and
/// refusing the versions that cannot be translated, with exact reasons.
@Suite("Version translation")
struct VersionTranslationTests {
    static func dog(_ attributes: [AttributeDescription], lock: UInt64) -> EntityDescription {
        EntityDescription("Dog", attributes: attributes, relationships: [RelationshipDescription("owner", destination: "Person", inverse: "dogs")],
                          sync: true, lock: [lock, 0, 0, 0])
    }

    static func person(lock: UInt64) -> EntityDescription {
        EntityDescription("Person", attributes: [AttributeDescription("name", .string)],
                          relationships: [RelationshipDescription("dogs", destination: "Dog", inverse: "owner", kind: .unordered)],
                          sync: true, lock: [lock, 0, 0, 0])
    }

    /// V1: Dog(name, nickname, weight Int16, visits counter); V2 renames nickname to callName,
    /// widens weight to Int32, adds age and the entity Toy; V3 makes Toy with a custom step.
    static let v1 = ModelVersion("V1", entities: [
        dog([AttributeDescription("name", .string), AttributeDescription("nickname", .string, optional: true),
             AttributeDescription("weight", .int16), AttributeDescription("visits", .int64, merge: .add)], lock: 1),
        person(lock: 2),
    ], versionLock: VersionLock(["Dog": [1, 0, 0, 0], "Person": [2, 0, 0, 0]]))
    static let v2 = ModelVersion("V2", entities: [
        dog([AttributeDescription("name", .string), AttributeDescription("callName", .string, optional: true),
             AttributeDescription("weight", .int32), AttributeDescription("visits", .int64, merge: .add),
             AttributeDescription("age", .int32, default: .integer(0))], lock: 3),
        person(lock: 2),
        EntityDescription("Toy", attributes: [AttributeDescription("label", .string)], sync: true, lock: [4, 0, 0, 0]),
    ], versionLock: VersionLock(["Dog": [3, 0, 0, 0], "Person": [2, 0, 0, 0], "Toy": [4, 0, 0, 0]]),
    migrations: [MigrationDescription(from: "V1", entities: [EntityMigrationHint("Dog", renamedProperties: ["callName": "nickname"])])])
    static let v3 = ModelVersion("V3", entities: v2.entities, versionLock: VersionLock(["Dog": [3, 0, 0, 0], "Person": [2, 0, 0, 0], "Toy": [5, 0, 0, 0]]),
                                 migrations: [MigrationDescription(from: "V2", entities: [EntityMigrationHint("Toy", custom: true)])])

    static func history(current: String) -> SchemaHistory {
        SchemaHistory(model: "Kennel", versions: [v1, v2, v3], migrationChain: ["V1", "V2", "V3"], current: current, entityTypes: [])
    }

    static let stamp = SyncTimestamp(milliseconds: 5, counter: 0, node: "a")
    static let id = GlobalID("0193a0b2-5c1e-7d3a-9f00-1b2c3d4e5f60")!

    static func change(_ entity: String, _ values: [String: SyncValue]) -> SyncChange {
        var state = SyncedObject()
        for (name, value) in values { state.set(name, to: value, at: stamp) }
        return SyncChange(entity: entity, id: id, state: state)
    }

    @Test func theServersOwnVersionNeedsNoTranslation() throws {
        #expect(try VersionTranslation.plan(history: Self.history(current: "V2"), clientVersion: "V2", clientLock: Self.v2.versionLock) == nil)
    }

    @Test func pullsGoDownWithTheOlderNamesAndWithoutWhatItLacks() throws {
        let translation = try #require(try VersionTranslation.plan(history: Self.history(current: "V2"), clientVersion: "V1", clientLock: nil))
        var server = Self.change("Dog", ["name": .text("Rex"), "callName": .text("Rexy"), "weight": .integer(30), "age": .integer(4)])
        server.state.add(2, to: "visits", by: "b")
        server.state.insert("toy-1", into: "toys", at: Self.stamp)
        let down = try #require(translation.down(server))
        #expect(down.entity == "Dog")
        #expect(Set(down.state.attributes.keys) == ["name", "nickname", "weight"])
        #expect(down.state.value(of: "nickname") == .text("Rexy"))
        #expect(down.state.value(of: "visits") == .integer(2))
        #expect(down.state.sets.isEmpty, "Dog has no relationship 'toys' at V1")
        #expect(translation.down(Self.change("Toy", ["label": .text("ball")])) == nil, "V1 has no Toy")
        #expect(translation.hidesSomething, "V2 adds age and Toy, which V1 cannot see")
    }

    @Test func aValueTheOlderTypeCannotHoldIsLeftOut() throws {
        let translation = try #require(try VersionTranslation.plan(history: Self.history(current: "V2"), clientVersion: "V1", clientLock: nil))
        let down = try #require(translation.down(Self.change("Dog", ["weight": .integer(40_000), "name": .text("Big")])))
        #expect(down.state.value(of: "weight") == nil)
        #expect(down.state.value(of: "name") == .text("Big"))
    }

    @Test func pushesGoUpWithTheServersNamesAndTouchNothingElse() throws {
        let translation = try #require(try VersionTranslation.plan(history: Self.history(current: "V2"), clientVersion: "V1", clientLock: nil))
        let up = try #require(translation.up(Self.change("Dog", ["nickname": .text("Bo"), "weight": .integer(12)])))
        #expect(up.state.attributes.keys.sorted() == ["callName", "weight"], "no 'age': a V1 device never clears it")
        #expect(up.state.value(of: "callName") == .text("Bo"))
        let unknown = try #require(translation.up(Self.change("Dog", ["colour": .text("red")])))
        #expect(unknown.state.value(of: "colour") == .text("red"), "a name V1 lacks passes, for the server's checks to refuse")
    }

    static let refusals: [(current: String, client: String, lock: VersionLock?, message: String)] = [
        ("V3", "V1", nil, "sync refused: this device's model version V1 cannot sync with the server's V3: the step V2 → V3 makes Toy with a custom "
            + "migration step, which cannot be translated back for devices at V2; they must update the app"),
        ("V2", "V4", nil, "sync refused: this device's model version V4 cannot sync with the server's V2: the server's model Kennel has no version V4 "
            + "(it has V1, V2, V3); a device whose app is newer than the server syncs once the server runs its version"),
        ("V2", "V3", nil, "sync refused: this device's model version V3 cannot sync with the server's V2: V3 comes after V2 in the migration chain; "
            + "the device syncs once the server runs V3"),
        ("V2", "V1", VersionLock(["Dog": [9, 0, 0, 0], "Person": [2, 0, 0, 0], "Cat": [1, 0, 0, 0]]),
         "sync refused: this device's model version V1 cannot sync with the server's V2: the device's V1 is not the V1 the server sealed: "
            + "the entities Cat, Dog differ; a version must never change once an app with it has shipped"),
    ]

    @Test(arguments: refusals)
    func untranslatableVersionsAreRefusedNamingBothAndWhy(current: String, client: String, lock: VersionLock?, message: String) {
        #expect(throws: VersionRefusal.self) { try VersionTranslation.plan(history: Self.history(current: current), clientVersion: client, clientLock: lock) }
        do {
            _ = try VersionTranslation.plan(history: Self.history(current: current), clientVersion: client, clientLock: lock)
        } catch {
            #expect(error.error.description == message)
        }
    }

    @Test func aRenamedEntityTravelsUnderEachVersionsName() throws {
        let owner = EntityDescription("Owner", attributes: [AttributeDescription("name", .string)],
                                      relationships: [RelationshipDescription("dogs", destination: "Dog", inverse: "owner", kind: .unordered)],
                                      sync: true, lock: [8, 0, 0, 0])
        let dog = EntityDescription("Dog", attributes: [AttributeDescription("name", .string)],
                                    relationships: [RelationshipDescription("owner", destination: "Owner", inverse: "dogs")], sync: true, lock: [9, 0, 0, 0])
        let v2 = ModelVersion("V2", entities: [dog, owner], versionLock: VersionLock(["Dog": [9, 0, 0, 0], "Owner": [8, 0, 0, 0]]),
                              migrations: [MigrationDescription(from: "V1", entities: [EntityMigrationHint("Owner", renamedFrom: "Person")])])
        let history = SchemaHistory(model: "Kennel", versions: [Self.v1, v2], migrationChain: ["V1", "V2"], current: "V2", entityTypes: [])
        let translation = try #require(try VersionTranslation.plan(history: history, clientVersion: "V1", clientLock: nil))
        let down = try #require(translation.down(Self.change("Owner", ["name": .text("Ann")])))
        #expect(down.entity == "Person")
        #expect(down.state.value(of: "name") == .text("Ann"))
        #expect(translation.up(Self.change("Person", ["name": .text("Bo")]))?.entity == "Owner")
        #expect(translation.sees(entity: "Owner", property: "name"))
        #expect(!translation.sees(entity: "Dog", property: "weight"), "V2's Dog has no weight")
        #expect(!translation.hidesSomething, "V2 renames and removes, and adds nothing V1 cannot see")
    }

    @Test func aChangeOfTypeThatCannotGoBackIsRefused() {
        let v2 = ModelVersion("V2", entities: [Self.dog([AttributeDescription("name", .data)], lock: 7), Self.person(lock: 2)],
                              versionLock: VersionLock(["Dog": [7, 0, 0, 0], "Person": [2, 0, 0, 0]]))
        let history = SchemaHistory(model: "Kennel", versions: [Self.v1, v2], migrationChain: ["V1", "V2"], current: "V2", entityTypes: [])
        #expect(throws: VersionRefusal(clientVersion: "V1", serverVersion: "V2",
                                       reason: "the step V1 → V2 changes Dog.name from String to Data, which cannot be translated back for devices at V1; they must update the app")) {
            try VersionTranslation.plan(history: history, clientVersion: "V1", clientLock: nil)
        }
    }
}
