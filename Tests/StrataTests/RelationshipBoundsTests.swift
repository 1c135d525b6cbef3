import Foundation
import Testing
import Strata

// A team must have one or two members: the minimum and maximum counts of a to-many relationship,
// checked at commit for objects created in the transaction.

final class Team: StrataObject {
    override class var entityName: String { "Team" }

    private var _name: String = ""
    var name: String { get { _name } set { willSet(0, "name"); _name = newValue } }
    var members: [Member] { get { toMany(0) } set { setToMany(0, "members", newValue) } }

    override func readColumns(_ reader: inout RowReader) {
        super.readColumns(&reader)
        _name = reader.string()
    }

    override func bindColumns(to binder: inout ColumnBinder) {
        super.bindColumns(to: &binder)
        binder.bind(string: _name)
    }
}

final class Member: StrataObject {
    override class var entityName: String { "Member" }

    private var _name: String = ""
    private var _team: Int64?
    var name: String { get { _name } set { willSet(0, "name"); _name = newValue } }
    var team: Team? { get { toOne(0) } set { setToOne(0, "team", newValue) } }

    override func readColumns(_ reader: inout RowReader) {
        super.readColumns(&reader)
        _name = reader.string()
        _team = reader.optionalInt64()
    }

    override func bindColumns(to binder: inout ColumnBinder) {
        super.bindColumns(to: &binder)
        binder.bind(string: _name)
        binder.bind(value: _team)
    }

    override func foreignKey(_ ordinal: Int) -> Int64? { ordinal == 1 ? _team : super.foreignKey(ordinal) }

    override func setForeignKey(_ ordinal: Int, _ value: Int64?) {
        if ordinal == 1 { _team = value } else { super.setForeignKey(ordinal, value) }
    }
}

enum League {
    static let team = EntityDescription("Team", attributes: [AttributeDescription("name", .string)], relationships: [
        RelationshipDescription("members", destination: "Member", inverse: "team", kind: .unordered, minCount: 1, maxCount: 2),
    ])
    static let member = EntityDescription("Member", attributes: [AttributeDescription("name", .string)], relationships: [
        RelationshipDescription("team", destination: "Team", inverse: "members"),
    ])
    static let v1 = ModelVersion("V1", entities: [team, member], versionLock: ["Member": [0x1, 0x2, 0x3, 0x4], "Team": [0x5, 0x6, 0x7, 0x8]])
    static let schemaHistory = SchemaHistory(model: "League", versions: [v1], migrationChain: ["V1"], current: "V1",
                                             entityTypes: [Team.self, Member.self])
}

@Suite("Relationship counts of created objects") @MainActor
struct RelationshipBoundsTests {
    private func makeLeague() throws -> DataStack {
        let stack = DataStack(League.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: temporaryStoreURL("League.sqlite")))
        return stack
    }

    /// A created team without a member is refused with the count and both bounds, and nothing
    /// of the transaction is saved.
    @Test func aCreatedObjectBelowItsMinimumIsRefused() async throws {
        let stack = try makeLeague()
        await #expect(throws: StrataError.relationshipCount(entity: "Team", relationship: "members", count: 0, minimum: 1, maximum: 2)) {
            try await stack.perform { transaction in
                let member = transaction.create(Into<Member>())
                member.name = "Ann"
                let team = transaction.create(Into<Team>())
                team.name = "Empty"
            }
        }
        #expect(try stack.fetchCount(From<Team>()) == 0)
        #expect(try stack.fetchCount(From<Member>()) == 0)
    }

    /// Teams and members created in turns are each checked: the teams that meet their bounds
    /// commit; a later team with three members is refused, naming its count.
    @Test func createdObjectsOfSeveralEntitiesInTurnsAreEachChecked() async throws {
        let stack = try makeLeague()
        try await stack.perform { transaction in
            for index in 0..<4 {
                let member = transaction.create(Into<Member>())
                member.name = "Member \(index)"
                let team = transaction.create(Into<Team>())
                team.name = "Team \(index)"
                member.team = team
            }
        }
        #expect(try stack.fetchCount(From<Team>()) == 4)
        await #expect(throws: StrataError.relationshipCount(entity: "Team", relationship: "members", count: 3, minimum: 1, maximum: 2)) {
            try await stack.perform { transaction in
                let fine = transaction.create(Into<Team>())
                fine.name = "Fine"
                let first = transaction.create(Into<Member>())
                first.team = fine
                let crowded = transaction.create(Into<Team>())
                crowded.name = "Crowded"
                crowded.members = (0..<3).map { _ in transaction.create(Into<Member>()) }
            }
        }
        #expect(try stack.fetchCount(From<Team>()) == 4)
    }
}
