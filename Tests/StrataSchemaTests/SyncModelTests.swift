import Testing
@testable import StrataSchema

/// `sync:`, `owner:` and `merge: add` in version files: how they resolve, what they must name,
/// and how they seal into the locks.
@Suite("Model files: syncing")
struct SyncModelTests {
    static let synced = """
    version: V1
    sync: true
    entities:
      Animal:
        abstract: true
        attributes:
          species: {type: String, default: ""}
      Dog:
        parent: Animal
        attributes:
          visits: {type: Int64, default: 0, merge: add}
        relationships:
          master: {destination: Person, inverse: pets}
      Person:
        attributes:
          name: {type: String, default: ""}
        relationships:
          pets: {destination: Dog, inverse: master, toMany: unordered}
      Note:
        owner: account
        attributes:
          account: {type: String, optional: true}
          text: {type: String, default: ""}
      Cache:
        sync: false
        attributes:
          key: {type: String, default: ""}
    """

    private func version(_ text: String) throws -> SchemaVersion {
        let loaded = try ModelFixture(v1: text).load()
        #expect(loaded.diagnostics.map(\.description) == [])
        return try #require(loaded.model?.versions.first)
    }

    @Test func entitiesFollowTheirOwnSettingThenTheirParentsThenTheVersions() throws {
        let version = try version(Self.synced)
        let synced = Dictionary(uniqueKeysWithValues: version.entities.map { ($0.name, $0.isSynced) })
        #expect(synced == ["Animal": true, "Dog": true, "Person": true, "Note": true, "Cache": false])
        let alone = try self.version(Self.synced.replacingOccurrences(of: "sync: true\n", with: "")
            .replacingOccurrences(of: "  Animal:\n    abstract: true\n", with: "  Animal:\n    abstract: true\n    sync: true\n")
            .replacingOccurrences(of: "  Person:\n", with: "  Person:\n    sync: true\n")
            .replacingOccurrences(of: "    owner: account\n", with: ""))
        #expect(alone.entities.filter(\.isSynced).map(\.name) == ["Animal", "Dog", "Person"])
    }

    @Test func everyMisuseIsNamed() throws {
        let messages = try ModelFixture(v1: """
        version: V1
        sync: true
        entities:
          Animal:
            abstract: true
            attributes:
              species: {type: String, default: ""}
          Dog:
            parent: Animal
            sync: false
            attributes:
              visits: {type: Int64, default: 0, merge: add}
              tag: {type: String, merge: add}
          Vet:
            sync: false
            owner: account
            attributes:
              name: {type: String, default: ""}
              count: {type: Int32, default: 0, merge: add}
            relationships:
              clinic: {destination: Clinic, inverse: vets}
          Clinic:
            relationships:
              vets: {destination: Vet, inverse: clinic, toMany: unordered}
          Note:
            owner: acount
            attributes:
              account: {type: String, optional: true}
              hits: {type: Int, default: 0, merge: add, unique: true}
              size: {type: Int, default: 0, merge: plus}
          Memo:
            owner: body
            sync: yes
            attributes:
              body: {type: String}
        """).messages()
        #expect(messages == [
            "V1.yml:10:11: error: entity 'Dog' says sync: false, but its parent 'Animal' syncs; a class hierarchy syncs as one, so set sync: on its root",
            "V1.yml:12:7: error: 'merge: add' of attribute 'Dog.visits' says how changes from several devices combine, but 'Dog' does not sync (add sync: true)",
            "V1.yml:13:7: error: 'merge: add' of attribute 'Dog.tag' makes it a counter, which must be a stored integer (Int16, Int32, Int64 or Int); it is a String",
            "V1.yml:16:12: error: entity 'Vet' names an owner, but it does not sync; owners are the accounts that sync it (add sync: true)",
            "V1.yml:19:7: error: 'merge: add' of attribute 'Vet.count' says how changes from several devices combine, but 'Vet' does not sync (add sync: true)",
            "V1.yml:24:7: error: relationship 'Clinic.vets' leads to 'Vet', which does not sync, from 'Clinic', which does; "
                + "a synced object can only relate to synced ones (give 'Vet' sync: true)",
            "V1.yml:26:12: error: owner 'acount' of entity 'Note' is not an attribute of 'Note'; did you mean 'account'?",
            "V1.yml:29:7: error: attribute 'Note.hits' cannot be both unique and a counter ('merge: add'): increments made apart would clash",
            "V1.yml:30:44: error: 'merge' of attribute 'Note.size' must be add, not 'plus'",
            "V1.yml:32:12: error: owner 'body' of entity 'Memo' must be a stored String attribute that is optional or has a default, "
                + "which the server fills with the account; it is a String without a default",
            "V1.yml:33:11: error: 'sync' of entity 'Memo' must be true or false, not 'yes'",
        ].sorted())
    }

    @Test func syncOwnerAndMergeSealIntoTheLocksOnlyWhenSet() throws {
        let version = try version(Self.synced)
        let shapes = EntityShape.shapes(of: version)
        let text = { (entity: String) in String(decoding: LockFormat.v1.encode(shapes[entity]!), as: UTF8.self) }
        #expect(text("Note") == """
        strata-lock/1
        entity name=4:Note abstract=5:false parent=- sync=4:true owner=7:account
        attribute key=7:account type=6:String optional=4:true default=- initial=- indexed=5:false unique=5:false coder=-
        attribute key=4:text type=6:String optional=5:false default=0: initial=- indexed=5:false unique=5:false coder=-

        """)
        #expect(text("Dog").contains("attribute key=6:visits type=5:Int64 optional=5:false default=1:0 initial=- indexed=5:false unique=5:false coder=- merge=3:add\n"))
        #expect(text("Cache").contains("entity name=5:Cache abstract=5:false parent=-\n"), "an entity that does not sync locks as before")

        let unsynced = try self.version(Self.synced.replacingOccurrences(of: "sync: true\n", with: "")
            .replacingOccurrences(of: ", merge: add", with: "").replacingOccurrences(of: "    owner: account\n", with: ""))
        let before = EntityShape.shapes(of: unsynced)
        #expect(shapes["Dog"]!.changes(since: before["Dog"]!).map(\.description) == [
            "~ entity: sync false → true", "~ attribute 'visits': merge none → add",
        ])
        #expect(shapes["Note"]!.changes(since: before["Note"]!).map(\.description) == [
            "~ entity: sync false → true", "~ entity: owner none → account",
        ])
        for name in ["Dog", "Note", "Person"] {
            #expect(LockFormat.v1.lock(shapes[name]!) != LockFormat.v1.lock(before[name]!), "\(name)'s lock did not change")
        }
        #expect(LockFormat.v1.lock(shapes["Cache"]!) == LockFormat.v1.lock(before["Cache"]!))
    }
}
