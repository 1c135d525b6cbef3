import Foundation
import StrataTestSupport
import Strata
import StrataTesting
import Testing

/// The model `strata convert` made from `Tests/StrataConvertTests/Fixtures/Garden.xcdatamodeld`,
/// built by the plugin and used as any model is.
@Suite("A converted Core Data model")
@MainActor
struct GardenTests {
    @Test func theConvertedModelStoresEveryKindOfAttributeAndRelationship() async throws {
        let stack = DataStack(Garden.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        try stack.addStorageAndWait(InMemoryStore(configuration: "Shed"))
        #expect(Garden.schemaHistory.currentVersion.name == "Garden3")
        try await stack.perform { transaction in
            let ann = transaction.create(Into<Gardener>())
            ann.email = "ann@example.com"
            let plot = transaction.create(Into<Plot>())
            plot.code = 7
            plot.soil = "loam"
            let other = transaction.create(Into<Plot>())
            plot.adjacent = [other]
            ann.plots = [plot, other]
            let herb = transaction.create(Into<Herb>())
            herb.plot = plot
            let tree = transaction.create(Into<Tree>())
            tree.height = Decimal(string: "2.25")!
            tree.plot = plot
            let crop = transaction.create(Into<Crop>())
            crop.takenAt = Date(timeIntervalSince1970: 0)
            crop.plot = plot
            transaction.create(Into<Spade>("Shed")).label = "small"
        }
        let ann = try #require(try stack.fetchOne(From<Gardener>()))
        #expect(ann.fullName == "Anon & \"friends\"" && ann.rating == 0.5 && ann.plotCount == 0)
        #expect(ann.joined == ISO8601DateFormatter().date(from: "2024-01-02T00:00:00Z"))
        let plot = try #require(ann.plots.first)
        #expect(plot.displayName == nil, "a transient attribute is not saved")
        #expect(plot.adjacent.count == 1 && plot.adjacent.first?.adjacent.contains(plot) == true)
        #expect(Set(plot.plants.map(\.species)) == ["unknown"] && plot.plants.count == 2)
        #expect(plot.harvestPlot.first?.token == UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF"))
        #expect(try stack.fetchAll(From<Plant>().orderBy(.ascending(\.species))).count == 2)
        #expect(try stack.fetchOne(From<Tree>())?.height == Decimal(string: "2.25"))
        #expect(try stack.fetchOne(From<Herb>())?.fragrant == true)
        #expect(try stack.fetchOne(From<Spade>())?.size == 3)
        #expect(stack.configuration(of: try #require(try stack.fetchOne(From<Crate>("Shed")))) == "Shed")
    }

    /// `Plot.displayName` is transient in the Core Data model, and so in the converted one: each
    /// object keeps it in memory, in any context, it is never saved, and it starts over whenever
    /// the object's stored values are read anew.
    @Test func aTransientAttributeLivesWithTheObjectOnly() async throws {
        let stack = DataStack(Garden.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        let kept = try await stack.perform { transaction in
            let plot = transaction.create(Into<Plot>())
            plot.code = 7
            #expect(plot.displayName == nil)
            plot.displayName = "plot 7"
            return plot.displayName
        }
        #expect(kept == "plot 7")
        let plot = try #require(try stack.fetchOne(From<Plot>()))
        #expect(plot.displayName == nil)
        // The main context is read-only, but a transient value is the object's own.
        plot.displayName = "shown"
        #expect(plot.displayName == "shown")
        #expect(try stack.fetchOne(From<Plot>())?.displayName == "shown", "the same live object")
        try await stack.perform { transaction in try #require(try transaction.fetchOne(From<Plot>())).soil = "clay" }
        #expect(plot.soil == "clay")
        #expect(plot.displayName == nil, "the commit's values were read into the object, which starts its transient values over")
        let error = #expect(throws: StrataError.self) { try stack.fetchAll(From<Plot>().where(\.displayName == "shown")) }
        #expect(error.map { "\($0)" }?.hasPrefix("invalid query: ReferenceWritableKeyPath<Plot, Optional<String>> does not name a stored "
                                                  + "property of 'Plot'") == true)
    }

    /// A store of the first Core Data version migrates through the renames the renaming
    /// identifiers became: an attribute, an entity that a relationship points at, and a
    /// many-to-many relationship, every link kept.
    @Test func aFirstVersionStoreMigratesThroughTheRenames() async throws {
        let url = TestFolders.url("strata-garden").appendingPathComponent("Garden.sqlite")
        try StoreSeeding.seedStore(at: url, history: Garden.schemaHistory, version: "Garden", objects: [
            SeedObject("Gardener", id: 1, ["name": "Ann", "email": "ann@example.com"], relationships: ["plots": [1, 2]]),
            SeedObject("Plot", id: 1, ["code": Int32(1)], relationships: ["neighbours": [2]]),
            SeedObject("Plot", id: 2, ["code": Int32(2)]),
            SeedObject("Harvest", id: 1, ["weight": 2.5, "takenAt": Date(timeIntervalSince1970: 0)], relationships: ["plot": [1]]),
        ])
        let stack = DataStack(Garden.schemaHistory)
        #expect(try stack.requiredMigrations(for: SQLiteStore(fileURL: url)).count == 2)
        try await stack.addStorage(SQLiteStore(fileURL: url))
        let ann = try #require(try stack.fetchOne(From<Gardener>()))
        #expect(ann.fullName == "Ann" && ann.plots.map(\.code) == [1, 2])
        let crop = try #require(try stack.fetchOne(From<Crop>()))
        #expect(crop.weight == 2.5 && crop.plot?.code == 1)
        let first = try #require(try stack.fetchOne(From<Plot>().where(\.code == 1)))
        #expect(first.adjacent.map(\.code) == [2] && first.harvestPlot.map(\.weight) == [2.5])
    }
}
