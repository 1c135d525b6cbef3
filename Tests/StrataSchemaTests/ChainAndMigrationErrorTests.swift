import Foundation
import Testing
@testable import StrataSchema

@Suite("Model files: migration chain, migration hints, configurations")
struct ChainAndMigrationErrorTests {
    /// A model whose versions are empty files named in `versions`.
    private func messages(manifest: String, versions: [String]) throws -> [String] {
        var files = ["model.yml": manifest]
        for version in versions { files["\(version).yml"] = "version: \(version)\nentities: {}\n" }
        return try ModelFixture(files).messages()
    }

    @Test func aVersionListedTwice() throws {
        #expect(try messages(manifest: "model: Shop\nmigrationChain: [V1, V2, V1]\n", versions: ["V1", "V2"]) == [
            "model.yml:2:26: error: version 'V1' appears twice in 'migrationChain' (first at line 2, column 18)",
        ])
    }

    @Test func aLoop() throws {
        #expect(try messages(manifest: "model: Shop\nmigrationChain: {V1: V2, V2: V3, V3: V2}\n", versions: ["V1", "V2", "V3"]) == [
            "model.yml:2:17: error: 'migrationChain' loops: V2 → V3 → V2",
        ])
    }

    @Test func ambiguousBranches() throws {
        #expect(try messages(manifest: "model: Shop\nmigrationChain: {V1: V2, V3: V4}\n", versions: ["V1", "V2", "V3", "V4"]) == [
            "model.yml:2:17: error: 'migrationChain' ends in several versions (V2, V4); every version must lead to one current version",
        ])
    }

    @Test func versionFilesAndChainEntriesMustMatch() throws {
        #expect(try messages(manifest: "model: Shop\nmigrationChain: [V1, V2, V3]\n", versions: ["V1", "V2", "V4"]) == [
            "V4.yml:1:10: error: version 'V4' has no place in 'migrationChain' of model.yml",
            "model.yml:2:26: error: 'migrationChain' names version 'V3', but no version file declares it",
        ])
    }

    @Test func aTreeIsAValidChain() throws {
        let fixture = try ModelFixture(["model.yml": "model: Shop\nmigrationChain: {V1: V3, V2: V3}\n",
                                        "V1.yml": "version: V1\nentities: {}\n", "V2.yml": "version: V2\nentities: {}\n",
                                        "V3.yml": "version: V3\nentities: {}\n"])
        #expect(fixture.messages() == [])
        #expect(fixture.load().model?.currentVersion?.name == "V3")
    }

    @Test func chainShapeErrors() throws {
        #expect(try messages(manifest: "model: Shop\nmigrationChain: []\n", versions: ["V1"]) == [
            "model.yml:2:17: error: 'migrationChain' is empty; list at least one version",
        ])
        #expect(try messages(manifest: "model: Shop\n", versions: ["V1", "V2"]) == [
            "model.yml:1:1: error: model.yml is missing 'migrationChain'; list the versions oldest first, such as [V1, V2]",
        ])
        #expect(try messages(manifest: "model: Shop\nmigrationChain: V1\nconfigurations: {2x: []}\nextra: 1\n", versions: ["V1"]) == [
            "model.yml:2:17: error: 'migrationChain' must be a sequence such as [V1, V2] or a mapping such as {V1: V3, V2: V3}, not a string",
            "model.yml:3:18: error: '2x' is not a valid configuration name; names start with a letter or '_' and go on with letters, digits or '_'",
            "model.yml:4:1: error: unknown key 'extra' in model.yml",
        ])
    }

    @Test func aSingleVersionNeedsNoChain() throws {
        #expect(try messages(manifest: "model: Shop\n", versions: ["V1"]) == [])
    }

    @Test func folderErrors() throws {
        let twice = try ModelFixture(["model.yml": "model: Shop\nmigrationChain: [V1]\n",
                                      "a.yml": "version: V1\nentities: {}\n", "b.yml": "version: V1\nentities: {}\n"])
        #expect(twice.messages() == ["b.yml:1:10: error: version 'V1' is also declared in a.yml"])
        #expect(ModelLoader.load(directory: "/no/such/folder").diagnostics.map(\.description) == [
            "/no/such/folder:1:1: error: no model folder here",
        ])
    }

    @Test func aFolderOfVersionsWithoutAManifestIsAnErrorAtTheFolder() throws {
        let noManifest = try ModelFixture(["V1.yml": "version: V1\nentities: {}\n", "V10.yml": "version: V10\nentities: {}\n",
                                           "V2.yml": "version: V2\nentities: {}\n"])
        let name = (noManifest.directory as NSString).lastPathComponent
        #expect(noManifest.load().diagnostics.map(\.description) == [
            "\(noManifest.directory):1:1: error: this model folder has no model.yml, so none of its files is read; add model.yml naming "
                + "the model and its migration chain (`model: \(name)` and `migrationChain: [V1, V2, V10]`), or start a folder with "
                + "`strata init \(name)`",
        ])
    }

    @Test func aVersionFileGivenAsAFolderNamesItsFolder() throws {
        let fixture = try ModelFixture(v1: "version: V1\nentities: {}\n")
        #expect(ModelLoader.load(directory: fixture.directory + "/V1.yml").diagnostics.map(\.description) == [
            "\(fixture.directory)/V1.yml:1:1: error: this is a file of the model folder '\(fixture.directory)'; name the folder instead",
        ])
        let stray = try ModelFixture(["Stray.yml": "version: V1\nentities: {}\n"])
        #expect(ModelLoader.load(directory: stray.directory + "/Stray.yml").diagnostics.map(\.description) == [
            "\(stray.directory)/Stray.yml:1:1: error: this file belongs to no model: a model folder holds model.yml (naming the model "
                + "and its migration chain) and one file per version; `strata init NAME` starts one",
        ])
    }

    @Test func aVersionFileThatIsNotYAMLIsReportedOnce() throws {
        let fixture = try ModelFixture(v1: "version: V1\nentities: [\n")
        let messages = fixture.messages()
        #expect(messages.count == 1)
        #expect(messages.allSatisfy { $0.hasPrefix("V1.yml:") })
    }

    @Test func migrationHintsMustNameSomething() throws {
        let fixture = try ModelFixture([
            "model.yml": "model: Shop\nmigrationChain: [V1, V2, V3]\n",
            "V1.yml": """
            version: V1
            entities:
              Person:
                attributes:
                  age: Int16
                  name: String
              Cat: {}
              Dog: {}
            """,
            "V2.yml": """
            version: V2
            entities:
              Human:
                attributes:
                  years: Int64
                  fullName: String
                  title: String
              Dog: {}
            migration:
              - from: V1
                entities:
                  Human:
                    renamedFrom: Persn
                    attributes:
                      years: {renamedFrom: age}
                  Dog:
                    attributes:
                      years: {renamedFrom: age}
                    relationships:
                      owner: {renamedFrom: master}
                  Cat: {delete: true, transform: custom}
                  Cow: {delete: true}
                  Horse: {transform: cusstom}
              - from: V1
                entities: {}
              - from: V3
              - from: V9
            """,
            "V3.yml": """
            version: V3
            entities:
              Human:
                attributes:
                  years: Int64
                  fullName: String
                  label: String
              Dog: {}
            migration:
              from: V2
              entities:
                Human:
                  attributes:
                    fullName: {renamedFrom: fulName}
                    label: {renamedFrom: title}
                    years: {renamedFrom: title}
                Dog: {delete: true}
            """,
        ])
        #expect(fixture.messages() == [
            "V2.yml:13:22: error: entity 'Human' is renamed from 'Persn', which is not an entity of version 'V1'; did you mean 'Person'?",
            "V2.yml:18:11: error: migration hint names attribute 'Dog.years', which version 'V2' does not have",
            "V2.yml:20:11: error: migration hint names relationship 'Dog.owner', which version 'V2' does not have",
            "V2.yml:21:13: error: migration hint for entity 'Cat' deletes it, so it can have no other hints",
            "V2.yml:22:7: error: migration hint deletes entity 'Cow', which is not an entity of version 'V1'",
            "V2.yml:23:7: error: migration hint names entity 'Horse', which is not an entity of version 'V2'",
            "V2.yml:23:26: error: 'transform' of migration hint for entity 'Horse' must be custom, not 'cusstom'; did you mean 'custom'?",
            "V2.yml:24:11: error: a second migration block from 'V1' (the first is at line 10, column 11)",
            "V2.yml:26:11: error: migration block of version 'V2' is from 'V3', but the chain does not migrate 'V3' to 'V2'",
            "V2.yml:27:11: error: migration block of version 'V2' is from 'V9', which is not a version of the model",
            "V3.yml:14:33: error: attribute 'Human.fullName' is renamed from 'fulName', which version 'V2' does not have; did you mean 'fullName'?",
            "V3.yml:16:30: error: attributes 'label' and 'years' of 'Human' are both renamed from 'title'",
            "V3.yml:17:5: error: migration hint deletes entity 'Dog', but version 'V3' still has it",
        ])
    }

    @Test func configurationsNameEntitiesAndKeepHierarchiesTogether() throws {
        let fixture = try ModelFixture([
            "model.yml": "model: Shop\nmigrationChain: [V1]\nconfigurations: {Default: [Animal, Persn], Cache: [Dog]}\n",
            "V1.yml": "version: V1\nentities:\n  Animal: {abstract: true}\n  Dog: {parent: Animal}\n  Person: {}\n",
        ])
        #expect(fixture.messages() == [
            "model.yml:3:36: error: configuration 'Default' names 'Persn', which is not an entity of version 'V1'; did you mean 'Person'?",
            "model.yml:3:52: error: entity 'Dog' is in Cache but its root entity 'Animal' is in Default; a hierarchy shares one table, so list them together",
        ])
    }

    @Test func everyProblemOfEveryFileIsReportedSorted() throws {
        let fixture = try ModelFixture([
            "model.yml": "model: Shop\nmigrationChain: [V1, V2]\nextra: 1\n",
            "V1.yml": "version: V1\nentities:\n  A: {attributes: {x: Strin}}\n",
            "V2.yml": "version: V2\nentities:\n  A: {atributes: {}}\n\tB: {}\n",
        ])
        #expect(fixture.messages() == [
            "V1.yml:3:23: error: unknown type 'Strin' for attribute 'A.x'; did you mean 'String'?",
            "V2.yml:4:1: error: a tab character cannot indent YAML; use spaces",
            "model.yml:3:1: error: unknown key 'extra' in model.yml",
        ])
    }
}
