import Foundation
import StrataTestSupport
import StrataSchema
import Testing
@testable import StrataConvert

/// The fixtures folder and the converted model the end-to-end tests build with the plugin.
enum Paths {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let garden = tests.appendingPathComponent("StrataConvertTests/Fixtures/Garden.xcdatamodeld").path
    static let convertedGarden = tests.appendingPathComponent("StrataEndToEndTests/Models/Garden").path
    static let weather = tests.appendingPathComponent("StrataConvertTests/Fixtures/Weather.xcdatamodeld").path
    static let convertedWeather = tests.appendingPathComponent("StrataEndToEndTests/Models/Weather").path

    static func temporaryFolder() -> String {
        TestFolders.url("strata-convert").path
    }

    /// Every file below a folder, by relative path.
    static func files(in folder: String) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                result[path] = FileManager.default.contents(atPath: folder + "/" + path)
            }
        }
        return result
    }
}

@Suite("Converting Core Data models")
struct ConversionTests {
    @Test func theFixtureConvertsToTheModelThePluginBuilds() throws {
        let bundle = try ModelBundle.read(path: Paths.garden)
        #expect(bundle.versions.map(\.name) == ["Garden", "Garden 2", "Garden 3"])
        #expect(bundle.currentVersion == "Garden 3")
        let converted = try ModelConverter.convert(bundle)
        let output = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: output) }
        #expect(try ConvertedModelWriter.write(converted, to: output) == ["Garden", "Garden2", "Garden3"])
        let written = Paths.files(in: output)
        let expected = Paths.files(in: Paths.convertedGarden)
        #expect(written.keys.sorted() == [".strata/strata-model.schema.json", ".strata/strata-version.schema.json", "Garden.yml", "Garden2.yml",
                                          "Garden3.yml", "model.yml", "sealed/Garden.json", "sealed/Garden2.json", "sealed/Garden3.json"])
        for (path, contents) in expected {
            #expect(written[path] == contents, "\(path) differs from Tests/StrataEndToEndTests/Models/Garden; reconvert it with strata convert")
        }
        let loaded = ModelLoader.load(directory: output)
        #expect(loaded.isValid)
        #expect(loaded.diagnostics.isEmpty)
    }

    /// The bundle whose `.xccurrentversion` names its older version, whose newer version differs
    /// only by a hash modifier, and whose attributes include transient ones, converts to the
    /// model the plugin builds for `WeatherTests`.
    @Test func theWeatherFixtureConvertsToTheModelThePluginBuilds() throws {
        let converted = try ModelConverter.convert(try ModelBundle.read(path: Paths.weather))
        #expect(converted.warnings.map(\.description) == [
            "\(Paths.weather)/.xccurrentversion:6:2: warning: .xccurrentversion names 'Weather' as the current version, but versions come after "
                + "it in name order: all are converted, 'Weather 2' as the current one; --current 'Weather' ends the chain there, --chain gives another order",
            "warning: version 'Weather 2' is named 'Weather2': version names are Swift identifiers",
        ])
        let output = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: output) }
        #expect(try ConvertedModelWriter.write(converted, to: output) == ["Weather", "Weather2"])
        let written = Paths.files(in: output)
        let expected = Paths.files(in: Paths.convertedWeather)
        #expect(written.keys.sorted() == expected.keys.sorted())
        for (path, contents) in expected {
            #expect(written[path] == contents, "\(path) differs from Tests/StrataEndToEndTests/Models/Weather; reconvert it with strata convert")
        }
    }

    @Test func everythingNotCarriedOverIsAWarningAtItsPlace() throws {
        let converted = try ModelConverter.convert(try ModelBundle.read(path: Paths.garden))
        let v3 = Paths.garden + "/Garden 3.xcdatamodel/contents"
        let text = converted.warnings.map(\.description)
        #expect(converted.warnings.count == 30)
        for message in [
            "warning: version 'Garden 2' is named 'Garden2': version names are Swift identifiers",
            "\(v3):6:5: warning: class 'GardenerMO' of entity 'Gardener' becomes 'Gardener': generated classes take their entity's name",
            "\(v3):21:9: warning: fetched property 'Gardener.recentPlots' is not carried over: fetch it in code",
            "\(v3):14:9: warning: 'Gardener.plotCount' is derived (plots.@count) in Core Data; it becomes a stored attribute the app sets",
            "\(v3):15:9: warning: validation minValueString 0 of 'Gardener.rating' is not carried over: check it in the app",
            "\(v3):16:9: warning: user info mappedKeyName of 'Gardener.plots' is not carried over: 'Plot' has no import information (relatedByAttribute or mappedKeyName) to import its objects with",
            "\(v3):33:5: warning: uniqueness constraint (takenAt, plot) of 'Crop' is not carried over: 'plot' is not an attribute of 'Crop'",
            "\(v3):40:9: warning: 'Crop.plot' has no inverse; Strata keeps both sides, so 'Plot.harvestPlot' (to-many, from 'Crop') is added as its inverse",
            "\(v3):40:9: warning: 'Crop.plot' deletes with 'No Action'; Strata keeps both sides of a relationship, so it nullifies",
            "\(v3):56:9: warning: 'Plant.notes' is transformable (class 'NSAttributedString', transformer 'NSSecureUnarchiveFromData'), which has no counterpart: it becomes Data, the bytes the transformer wrote; decode them in the app, or declare a Codable attribute with its swiftType",
            "\(v3):59:9: warning: 'Plant.plot' is a required to-one; Strata's to-one relationships may be nil, so the app must ensure it is set",
            "\(v3):61:5: warning: index 'byCodeAndArea' (code, area) of 'Plot' is not carried over: Strata indexes single attributes ('indexed: true')",
            "\(v3):61:5: warning: user info 'color' of 'Plot' is not carried over",
            "\(v3):65:9: warning: 'Plot.scratch' is not carried over: Core Data's 'Undefined' attributes have no counterpart",
            "\(v3):87:5: warning: fetch request 'BigPlots' of 'Plot' is not carried over: write it as a fetch in code",
            "\(v3):88:5: warning: 'Spade' joins configuration 'Shed' with 'Crate': a hierarchy shares one table, so it is stored whole",
        ] {
            #expect(text.contains(message), "missing: \(message)")
        }
        // Every warning about an element says where it is; only the names of versions are not in a contents file.
        #expect(converted.warnings.filter { $0.position == nil }.map(\.message) == [
            "version 'Garden 2' is named 'Garden2': version names are Swift identifiers",
            "version 'Garden 3' is named 'Garden3': version names are Swift identifiers",
        ])
    }

    @Test func aChainGivenPicksAndOrdersTheVersions() throws {
        let bundle = try ModelBundle.read(path: Paths.garden)
        let converted = try ModelConverter.convert(bundle, chain: ["Garden", "Garden3"])
        #expect(converted.versions == ["Garden", "Garden3"])
        #expect(converted.warnings.map(\.description).contains("warning: version 'Garden 2' is not in --chain, so it is not converted"))
        #expect(converted.files[0].contents.contains("migrationChain: [Garden, Garden3]"))
    }

    @Test func aSingleModelVersionConvertsToOneVersion() throws {
        let bundle = try ModelBundle.read(path: Paths.garden + "/Garden 2.xcdatamodel")
        #expect(bundle.name == "Garden 2" && bundle.currentVersion == nil && bundle.source == "Garden 2.xcdatamodel")
        let converted = try ModelConverter.convert(bundle)
        #expect(converted.name == "Garden2" && converted.versions == ["Garden2"])
        #expect(converted.files[0].contents.contains("# Converted by strata convert from Garden 2.xcdatamodel.\nmodel: Garden2\nmigrationChain: [Garden2]\n"))
        #expect(converted.warnings.map(\.description).prefix(2) == [
            "warning: model 'Garden 2' is named 'Garden2': model names are Swift identifiers",
            "warning: version 'Garden 2' is named 'Garden2': version names are Swift identifiers",
        ])
    }

    @Test func aBadChainIsAnError() throws {
        let bundle = try ModelBundle.read(path: Paths.garden)
        #expect(throws: ConversionDiagnostic(.error, "--chain names 'Garden 4', which is not a version of Garden; its versions are 'Garden', 'Garden 2', 'Garden 3'")) {
            try ModelConverter.convert(bundle, chain: ["Garden", "Garden 4"])
        }
        #expect(throws: ConversionDiagnostic(.error, "--chain names 'Garden2' twice")) {
            try ModelConverter.convert(bundle, chain: ["Garden 2", "Garden2"])
        }
        #expect(throws: ConversionDiagnostic(.error, "--chain names no version")) {
            try ModelConverter.convert(bundle, chain: [])
        }
    }

    @Test func aFolderThatIsNotEmptyIsLeftAlone() throws {
        let output = Paths.temporaryFolder()
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: output) }
        try Data("keep".utf8).write(to: URL(fileURLWithPath: output + "/mine.txt"))
        let converted = try ModelConverter.convert(try ModelBundle.read(path: Paths.garden))
        #expect(throws: ConvertedModelWriter.Failure.outputNotEmpty(output)) { try ConvertedModelWriter.write(converted, to: output) }
        #expect(Paths.files(in: output) == ["mine.txt": Data("keep".utf8)])
        #expect(ConvertedModelWriter.Failure.outputNotEmpty(output).description
            == "error: \(output) exists and is not empty; nothing was written (give a new folder)")
    }

    @Test func anInvalidResultWritesNothing() throws {
        // Two versions whose step Strata cannot infer: a String becomes an Int16.
        let bundle = ModelBundle(name: "Lossy", versions: [
            .init(name: "V1", file: "V1/contents", model: Self.model(type: "String")),
            .init(name: "V2", file: "V2/contents", model: Self.model(type: "Integer 16")),
        ], currentVersion: "V2")
        let converted = try ModelConverter.convert(bundle)
        let parent = Paths.temporaryFolder()
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        #expect(throws: ConvertedModelWriter.Failure.invalidModel([
            "V2.yml:3:10: error: V1 → V2 cannot be inferred: Item.code: type String → Int16 (existing values could lose information); mark Item 'transform: custom' in the migration block from V1 and implement its step",
        ])) {
            try ConvertedModelWriter.write(converted, to: parent + "/Lossy")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).isEmpty)
    }

    static func model(type: String) -> CoreDataModel {
        let position = SourceLocation(file: "contents", line: 1, column: 1)
        var entity = CoreDataEntity(name: "Item", position: position)
        entity.attributes = [CoreDataAttribute(name: "code", type: type, isOptional: true, position: position)]
        var model = CoreDataModel()
        model.entities = [entity]
        return model
    }

    @Test func unreadableInputIsAnError() throws {
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: ConversionDiagnostic(.error, "\(folder) is not a folder; give a .xcdatamodeld bundle or a .xcdatamodel")) {
            try ModelBundle.read(path: folder)
        }
        let version = folder + "/Bad.xcdatamodeld/Bad.xcdatamodel"
        try FileManager.default.createDirectory(atPath: version, withIntermediateDirectories: true)
        try Data("<model>\n  <entity name=\"A\">\n</model>".utf8).write(to: URL(fileURLWithPath: version + "/contents"))
        #expect(throws: ConversionDiagnostic(.error, "not well-formed XML: '</model>' does not close '<entity>' of line 2",
                                             at: SourceLocation(file: version + "/contents", line: 3, column: 1))) {
            try ModelBundle.read(path: folder + "/Bad.xcdatamodeld")
        }
        try Data("<plist/>".utf8).write(to: URL(fileURLWithPath: version + "/contents"))
        #expect(throws: ConversionDiagnostic(.error, "not a Core Data model: the root element is <plist>, not <model>",
                                             at: SourceLocation(file: version + "/contents", line: 1, column: 1))) {
            try ModelBundle.read(path: version)
        }
        try Data("<model><entity/></model>".utf8).write(to: URL(fileURLWithPath: version + "/contents"))
        #expect(throws: ConversionDiagnostic(.error, "<entity> has no name", at: SourceLocation(file: version + "/contents", line: 1, column: 8))) {
            try ModelBundle.read(path: version)
        }
        try Data("<model><entity name=\"A\"><attribute name=\"x\"/>\n<relationship name=\"x\" destinationEntity=\"A\"/></entity></model>".utf8)
            .write(to: URL(fileURLWithPath: version + "/contents"))
        #expect(throws: ConversionDiagnostic(.error, "entity 'A' has two properties named 'x'", at: SourceLocation(file: version + "/contents", line: 2, column: 1))) {
            try ModelBundle.read(path: version)
        }
        try Data("<model><entity name=\"A\"><attribute name=\"a b\" attributeType=\"String\"/></entity></model>".utf8)
            .write(to: URL(fileURLWithPath: version + "/contents"))
        #expect(throws: ConversionDiagnostic(.error, "<attribute> name 'a b' is not a valid name; names start with a letter or '_' and go on with "
                                             + "letters, digits or '_', at most 255 characters",
                                             at: SourceLocation(file: version + "/contents", line: 1, column: 25))) {
            try ModelBundle.read(path: version)
        }
        try Data("<model><entity name=\"A\"/><entity name=\"A\"/></model>".utf8).write(to: URL(fileURLWithPath: version + "/contents"))
        #expect(throws: ConversionDiagnostic(.error, "two entities are named 'A'", at: SourceLocation(file: version + "/contents", line: 1, column: 26))) {
            try ModelBundle.read(path: version)
        }
        #expect(throws: ConversionDiagnostic(.error, "\(folder) is neither a .xcdatamodeld bundle nor a .xcdatamodel")) {
            try ModelBundle.read(path: folder)
        }
    }
}
