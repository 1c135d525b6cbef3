import Foundation
import Testing
@testable import StrataConvert

/// Which version is current: `.xccurrentversion` says, unless the user does (`--chain`,
/// `--current`); a bundle whose `.xccurrentversion` names an older version, or none, converts
/// with a warning at its place instead of being refused.
@Suite("The current version")
struct CurrentVersionTests {
    /// A bundle of `Model1` … `Model5` (each adds an attribute) whose `.xccurrentversion` holds
    /// `currentVersion` (a version's file name) or, when nil, an empty dictionary.
    static func bundle(currentVersion: String?) throws -> (path: String, plist: String) {
        try BundleFixture.write("Demo", versions: (1...5).map { number in
            let attributes = (1...number).map { "        <attribute name=\"field\($0)\" optional=\"YES\" attributeType=\"String\"/>" }
            return ("Model\(number)", "    <entity name=\"Note\" representedClassName=\"Note\" syncable=\"YES\">\n"
                    + attributes.joined(separator: "\n") + "\n    </entity>")
        }, current: currentVersion)
    }

    static func remove(_ bundle: String) { BundleFixture.remove(bundle) }

    @Test func anOlderCurrentVersionConvertsEveryVersionWithAWarning() throws {
        let (path, plist) = try Self.bundle(currentVersion: "Model1.xcdatamodel")
        defer { Self.remove(path) }
        let bundle = try ModelBundle.read(path: path)
        #expect(bundle.currentVersion == "Model1")
        let converted = try ModelConverter.convert(bundle)
        #expect(converted.versions == ["Model1", "Model2", "Model3", "Model4", "Model5"])
        #expect(converted.warnings.map(\.description) == [
            "\(plist):5:2: warning: .xccurrentversion names 'Model1' as the current version, but versions come after it in name order: "
                + "all are converted, 'Model5' as the current one; --current 'Model1' ends the chain there, --chain gives another order",
        ])
        try Self.expectValid(converted)
    }

    @Test func aChainGivenWinsOverCurrentVersion() throws {
        let (path, plist) = try Self.bundle(currentVersion: "Model1.xcdatamodel")
        defer { Self.remove(path) }
        let converted = try ModelConverter.convert(try ModelBundle.read(path: path), chain: ["Model1", "Model2", "Model3", "Model4", "Model5"])
        #expect(converted.versions == ["Model1", "Model2", "Model3", "Model4", "Model5"])
        #expect(converted.warnings.map(\.description) == [
            "\(plist):5:2: warning: .xccurrentversion names 'Model1' as the current version, but --chain ends at 'Model5', "
                + "which is converted as the current one",
        ])
        try Self.expectValid(converted)
    }

    @Test func currentEndsTheChain() throws {
        let (path, plist) = try Self.bundle(currentVersion: "Model5.xcdatamodel")
        defer { Self.remove(path) }
        let bundle = try ModelBundle.read(path: path)
        let converted = try ModelConverter.convert(bundle, current: "Model3")
        #expect(converted.versions == ["Model1", "Model2", "Model3"])
        #expect(converted.warnings.map(\.description) == [
            "warning: version 'Model4' comes after the current version 'Model3' (--current), so it is not converted",
            "warning: version 'Model5' comes after the current version 'Model3' (--current), so it is not converted",
            "\(plist):5:2: warning: .xccurrentversion names 'Model5' as the current version; --current makes it 'Model3'",
        ])
        try Self.expectValid(converted)
        // The same as the chain's last: nothing to say.
        #expect(try ModelConverter.convert(bundle, chain: ["Model2", "Model5"], current: "Model5").warnings.map(\.description) == [
            "warning: version 'Model1' is not in --chain, so it is not converted",
            "warning: version 'Model3' is not in --chain, so it is not converted",
            "warning: version 'Model4' is not in --chain, so it is not converted",
        ])
    }

    @Test func anEmptyCurrentVersionTakesTheLastWithAWarning() throws {
        let (path, plist) = try Self.bundle(currentVersion: nil)
        defer { Self.remove(path) }
        let bundle = try ModelBundle.read(path: path)
        #expect(bundle.currentVersion == nil)
        let converted = try ModelConverter.convert(bundle)
        #expect(converted.versions == ["Model1", "Model2", "Model3", "Model4", "Model5"])
        #expect(converted.warnings.map(\.description) == [
            "\(plist):3:1: warning: .xccurrentversion names no current version, so 'Model5', the last of the chain, is converted as the "
                + "current one (--current chooses another)",
        ])
        try Self.expectValid(converted)
        let chained = try ModelConverter.convert(bundle, chain: ["Model1", "Model3"])
        #expect(chained.versions == ["Model1", "Model3"])
        #expect(chained.warnings.last?.description == "\(plist):3:1: warning: .xccurrentversion names no current version, so 'Model3', "
                + "the last of the chain, is converted as the current one (--current chooses another)")
    }

    @Test func currentAndChainThatDisagreeAreAnError() throws {
        let (path, plist) = try Self.bundle(currentVersion: "Model9.xcdatamodel")
        defer { Self.remove(path) }
        let bundle = try ModelBundle.read(path: path)
        #expect(throws: ConversionDiagnostic(.error, "--current names 'Model3', but --chain ends at 'Model2'; the current version ends the chain")) {
            try ModelConverter.convert(bundle, chain: ["Model1", "Model2"], current: "Model3")
        }
        #expect(throws: ConversionDiagnostic(.error, "--current names 'Model 6', which is not a version of Demo; its versions are "
                                             + "'Model1', 'Model2', 'Model3', 'Model4', 'Model5'")) {
            try ModelConverter.convert(bundle, current: "Model 6")
        }
        // A current version that is not in the bundle: an error unless the user says which.
        #expect(throws: ConversionDiagnostic(.error, ".xccurrentversion names 'Model9' as the current version, which is not a version of Demo; "
                                             + "its versions are 'Model1', 'Model2', 'Model3', 'Model4', 'Model5'; give the current one with --current",
                                             at: .init(file: plist, line: 5, column: 2))) {
            try ModelConverter.convert(bundle)
        }
        #expect(try ModelConverter.convert(bundle, current: "Model5").versions.count == 5)
    }

    /// Writes the converted model, which checks and seals it (an invalid one throws).
    static func expectValid(_ converted: ConvertedModel) throws {
        let output = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: output) }
        #expect(try ConvertedModelWriter.write(converted, to: output + "/Demo") == converted.versions)
    }
}
