import Foundation
import Strata
import StrataTesting
import StrataTestSupport
import Testing

/// The model `strata convert` made from `Tests/StrataConvertTests/Fixtures/Weather.xcdatamodeld`,
/// a bundle shaped like those of apps that pick their model version at run time: its
/// `.xccurrentversion` names the older version, the newer one differs only by a
/// `versionHashModifier`, and both have transient attributes. Built by the plugin with no code
/// added by hand.
@Suite("A converted model with a hash modifier and transient attributes")
@MainActor
struct WeatherTests {
    @Test func aFirstVersionStoreTakesTheModifiersStepAndFetches() async throws {
        let url = TestFolders.url("strata-weather").appendingPathComponent("Weather.sqlite")
        try StoreSeeding.seedStore(at: url, history: Weather.schemaHistory, version: "Weather", objects: [
            SeedObject("Station", id: 1, ["name": "Pier"], relationships: ["readings": [1, 2]]),
            SeedObject("Reading", id: 1, ["temperature": 12.5, "takenAt": Date(timeIntervalSince1970: 0)]),
            SeedObject("Reading", id: 2, ["temperature": 14.0, "takenAt": Date(timeIntervalSince1970: 60)]),
        ])
        #expect(Weather.schemaHistory.currentVersion.name == "Weather2")
        let stack = DataStack(Weather.schemaHistory)
        #expect(try stack.requiredMigrations(for: SQLiteStore(fileURL: url)).count == 1)
        try await stack.addStorage(SQLiteStore(fileURL: url))
        let readings = try stack.fetchAll(From<Reading>().orderBy(.ascending(\.takenAt)))
        #expect(readings.map(\.temperature) == [12.5, 14.0])
        #expect(readings.map(\.label) == ["unread", "unread"] && readings.allSatisfy { !$0.isSelected })
        #expect(readings.first?.station?.name == "Pier")
        readings[0].isSelected = true
        #expect(try stack.fetchOne(From<Reading>().where(\.temperature == 12.5))?.isSelected == true)
    }
}
