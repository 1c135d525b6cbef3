import Foundation
import StrataSchema
import Testing
@testable import StrataConvert

/// Core Data's transient attributes become Strata's transient ones, and a `versionHashModifier`
/// becomes a `hashModifier` that enters the version lock, so a version that differs from the one
/// before only by a modifier is a version of its own with a step.
@Suite("Transient attributes and hash modifiers")
struct TransientAndHashModifierTests {
    static func reading(_ modifiers: (entity: String, attribute: String, relationship: String)) -> String {
        """
            <entity name="Reading" representedClassName="Reading" syncable="YES"\(modifiers.entity)>
                <attribute name="temperature" attributeType="Double" defaultValueString="0" usesScalarValueType="YES"\(modifiers.attribute)/>
                <attribute name="label" optional="YES" transient="YES" attributeType="String" defaultValueString="new"/>
                <attribute name="draft" transient="YES" indexed="YES" attributeType="Integer 32" defaultValueString="0" versionHashModifier="x"/>
                <relationship name="station" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Station" inverseName="readings" inverseEntity="Station"\(modifiers.relationship)/>
            </entity>
            <entity name="Station" representedClassName="Station" syncable="YES">
                <relationship name="readings" toMany="YES" deletionRule="Cascade" destinationEntity="Reading" inverseName="station" inverseEntity="Reading"/>
            </entity>
        """
    }

    @Test func transientAttributesKeepTheirTypeAndDefault() throws {
        let (path, _) = try BundleFixture.write("Weather", versions: [("Weather", Self.reading(("", "", "")))], current: "Weather.xcdatamodel")
        defer { BundleFixture.remove(path) }
        let converted = try ModelConverter.convert(try ModelBundle.read(path: path))
        let version = try #require(converted.files.first { $0.name == "Weather.yml" }?.contents)
        #expect(version.contains("      label: {type: String, optional: true, default: \"new\", transient: true}\n"))
        #expect(version.contains("      draft: {type: Int32, default: 0, transient: true}\n"))
        let contents = path + "/Weather.xcdatamodel/contents"
        #expect(converted.warnings.map(\.description) == [
            "\(contents):6:9: warning: 'Reading.draft' is transient, so its index and uniqueness are left out: only stored attributes have them",
            "\(contents):6:9: warning: versionHashModifier \"x\" of 'Reading.draft' is not carried over: a transient attribute is not part of the version lock",
        ])
        let output = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: output) }
        #expect(try ConvertedModelWriter.write(converted, to: output + "/Weather") == ["Weather"])
    }

    @Test(arguments: [
        ((" versionHashModifier=\"2\"", "", ""), "~ Reading: hashModifier none → 2"),
        (("", " versionHashModifier=\"celsius\"", ""), "~ Reading.temperature: hashModifier none → celsius"),
        (("", "", " versionHashModifier=\"kept &amp; moved\""), "~ Reading.station: hashModifier none → kept & moved"),
    ])
    func aModifierAloneMakesAVersionWithAStep(modifiers: (String, String, String), step: String) throws {
        let (path, _) = try BundleFixture.write("Weather", versions: [("Weather", Self.reading(("", "", ""))), ("Weather 2", Self.reading(modifiers))],
                                                current: "Weather 2.xcdatamodel")
        defer { BundleFixture.remove(path) }
        let converted = try ModelConverter.convert(try ModelBundle.read(path: path))
        let output = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: output) }
        #expect(try ConvertedModelWriter.write(converted, to: output + "/Weather") == ["Weather", "Weather2"])
        let loaded = ModelLoader.load(directory: output + "/Weather")
        let model = try #require(loaded.model)
        #expect(loaded.diagnostics.isEmpty)
        let first = try #require(model.versions.first)
        let second = try #require(model.versions.last)
        #expect(EntityShape.shapes(of: first).mapValues { LockFormat.current.lock($0) }["Reading"]
                != EntityShape.shapes(of: second).mapValues { LockFormat.current.lock($0) }["Reading"])
        let plan = VersionDiff.plan(model: model, from: first, to: second)
        #expect(plan.steps.map(\.description) == [
            step + " [lightweight: nothing stored changes; the step exists so that a custom transform can rework the values]",
        ])
    }
}
