import Foundation
import Strata
@testable import StrataCodegen
import StrataSchema
import Testing

/// Older versions reach the runtime as text (`ModelVersion(text:earlier:)`), the current one as
/// Swift code. Each model here is built by the plugin, so its current version's descriptors are
/// the Swift path's; the same version written as text by the generator must read back equal, for
/// every attribute type, default, key, flag and relationship these models hold.
@Suite("Older versions as text")
struct VersionTextTests {
    static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Models")

    static let histories: [(folder: String, history: SchemaHistory)] = [
        ("Clinic", Clinic.schemaHistory), ("Exact", Exact.schemaHistory), ("Farm", Farm.schemaHistory), ("Feed", Feed.schemaHistory),
        ("Garden", Garden.schemaHistory), ("Hostile", Hostile.schemaHistory), ("Notes", Notes.schemaHistory), ("Shop", Shop.schemaHistory),
        ("Weather", Weather.schemaHistory), ("Wide", Wide.schemaHistory), ("where", `where`.schemaHistory),
    ]

    @Test(arguments: histories.map(\.folder))
    func theCurrentVersionReadsBackFromItsTextAsItsSwiftDescribesIt(folder: String) throws {
        let history = try #require(Self.histories.first { $0.folder == folder }?.history)
        let model = try #require(ModelLoader.load(directory: Self.models.appendingPathComponent(folder).path).model)
        let current = try #require(model.currentVersion)
        let text = SchemaContext.text(of: current, in: model)
        let read = ModelVersion(text: text, earlier: { _ in nil })
        #expect(read.entities.count == history.currentVersion.entities.count)
        for entity in history.currentVersion.entities {
            #expect(read.entity(named: entity.name) == entity, "\(folder).\(entity.name)")
        }
        #expect(read.configurations == history.currentVersion.configurations)
        #expect(read.migrations.map(\.sourceVersion) == history.currentVersion.migrations.map(\.sourceVersion))
        #expect(Set(read.migrations.flatMap(\.entities)) == Set(history.currentVersion.migrations.flatMap(\.entities)))
        #expect(read.versionLock == history.currentVersion.versionLock)
    }

    /// `same` lines stand for an earlier version's description of an entity; names of any bytes
    /// survive their escapes.
    @Test func sameLinesAndEscapedNamesRead() throws {
        let first = ModelVersion(text: """
            version V%201
            entity Caf%C3%A9 lock=1,2,3,f
            attribute na%3Dme String key=the%20name default=a%20b%25 optional
            relationship pets Dog owner kind=ordered delete=deny min=1 max=3
            uniqueness the%20name
            """, earlier: { _ in nil })
        #expect(first.name == "V 1")
        let café = try #require(first.entity(named: "Café"))
        #expect(café.lock == [1, 2, 3, 15])
        #expect(café.attributes == [AttributeDescription("na=me", .string, storageKey: "the name", optional: true, default: .text("a b%"))])
        #expect(café.relationships == [RelationshipDescription("pets", destination: "Dog", inverse: "owner", kind: .ordered, deleteRule: .deny,
                                                                minCount: 1, maxCount: 3)])
        #expect(café.uniqueness == [["the name"]])
        let second = ModelVersion(text: "version V2\nsame Caf%C3%A9 V%201\nmigration V%201\nhint Caf%C3%A9 custom rename=a:b", earlier: { $0 == "V 1" ? first : nil })
        #expect(second.entities == first.entities)
        #expect(second.migrations == [MigrationDescription(from: "V 1", entities: [EntityMigrationHint("Café", custom: true, renamedProperties: ["a": "b"])])])
        #expect(VersionTextCode.token("na=me é%") == "na%3Dme%20%C3%A9%25")
    }

    /// What a model says about syncing reaches the runtime, through Swift and through text alike.
    @Test func syncOwnersAndCountersReachTheRuntime() throws {
        let version = Notes.schemaHistory.currentVersion
        let notebook = try #require(version.entity(named: "Notebook"))
        let note = try #require(version.entity(named: "Note"))
        let draft = try #require(version.entity(named: "Draft"))
        #expect(notebook.isSynced && note.isSynced && !draft.isSynced)
        #expect(note.owner == "account" && notebook.owner == nil)
        #expect(notebook.attributes.first { $0.name == "opens" }?.merge == .add)
        #expect(notebook.attributes.first { $0.name == "title" }?.merge == nil)
        let read = ModelVersion(text: "version V1\nentity Note sync owner=account lock=1,2,3,4\nattribute hits Int64 default=0 merge=add",
                                earlier: { _ in nil })
        let entity = try #require(read.entity(named: "Note"))
        #expect(entity.isSynced && entity.owner == "account")
        #expect(entity.attributes == [AttributeDescription("hits", .int64, default: .integer(0), merge: .add)])
    }
}
