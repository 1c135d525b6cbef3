import Foundation
import StrataTestSupport
import Testing

/// What a run of `strata` printed and how it ended.
struct Run {
    var status: Int32
    var out: String
    var err: String
}

/// Runs the built `strata` with arguments, as a user would from a shell.
func runStrata(_ arguments: [String]) throws -> Run {
    let process = Process()
    process.executableURL = CLITests.executable
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData, as: UTF8.self))
}

/// Runs the built `strata` binary as a user would and checks its output and exit status.
@Suite("strata command line")
struct CLITests {
    /// The `strata` executable built beside the test bundle (as the product, or as the build
    /// plugin's host tool).
    static let executable: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while folder.path != "/" {
            for name in ["strata", "strata-tool"] where FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent(name).path) {
                return folder.appendingPathComponent(name)
            }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "strata")
    }()

    private func strata(_ arguments: String...) throws -> Run {
        try runStrata(arguments)
    }


    private func folder(_ files: [String: [UInt8]]) throws -> String {
        let path = TestFolders.url("strata-cli").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, bytes) in files {
            try Data(bytes).write(to: URL(fileURLWithPath: path + "/" + name))
        }
        return path
    }

    private func model(version: String) throws -> String {
        try folder(["model.yml": Array("model: Shop\nmigrationChain: [V1]\n".utf8), "V1.yml": Array(version.utf8)])
    }

    static let item = "version: V1\nentities:\n  Item:\n    attributes:\n      name: String\n"

    @Test func verifyLockVerifyRoundTrip() throws {
        let dir = try model(version: Self.item)
        let unsealed = try strata("verify", dir)
        #expect(unsealed.status == 1)
        #expect(unsealed.out == "\(dir)/V1.yml:1:10: error: version 'V1' has no lock; run 'strata lock \(dir)' to seal it\nShop: 1 version, 1 unsealed; not verified\n")
        let locked = try strata("lock", dir)
        #expect(locked.status == 0)
        #expect(locked.out == "V1: sealed (\(dir)/V1.yml)\n")
        #expect(try strata("lock", dir).out == "V1: already sealed (\(dir)/V1.yml)\n")
        let verified = try strata("verify", dir)
        #expect(verified.status == 0)
        #expect(verified.out == "Shop: 1 version, 1 sealed; verified\n")
    }

    @Test func editingASealedVersionFailsVerifyAndLock() throws {
        let dir = try model(version: Self.item)
        _ = try strata("lock", dir)
        let path = dir + "/V1.yml"
        let edited = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "name: String", with: "name: Int64")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: path))
        let verify = try strata("verify", dir)
        #expect(verify.status == 1)
        #expect(verify.out.contains("    ~ attribute 'name': type String → Int64\n"))
        let lock = try strata("lock", dir)
        #expect(lock.status == 1)
        #expect(lock.err.contains("version 'V1' was already sealed"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == edited)
        #expect(try strata("lock", dir, "--force").status == 0)
        #expect(try strata("verify", dir).status == 0)
    }

    @Test func verifyAsJSON() throws {
        let dir = try model(version: Self.item)
        let run = try strata("verify", "--format", "json", dir)
        #expect(run.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(json["exitCode"] as? Int == 1)
        let models = try #require(json["models"] as? [[String: Any]])
        let versions = try #require(models.first?["versions"] as? [[String: Any]])
        #expect(versions.first?["state"] as? String == "unsealed")
    }

    @Test func modelErrorsExitWithTwo() throws {
        let dir = try model(version: "version: V1\nentities:\n  Item: {attributes: {name: Strng}}\n")
        let run = try strata("verify", dir)
        #expect(run.status == 2)
        #expect(run.out == "\(dir)/V1.yml:3:29: error: unknown type 'Strng' for attribute 'Item.name'; did you mean 'String'?\nShop: 1 error; locks not checked\n")
        let lock = try strata("lock", dir)
        #expect(lock.status == 2)
        #expect(lock.err.hasSuffix("the model has errors; nothing was locked\n"))
        #expect(try strata("diff", dir, "V1", "V1").status == 2)
    }

    @Test func diffPrintsThePlan() throws {
        let dir = try folder([
            "model.yml": Array("model: Shop\nmigrationChain: [V1, V2]\n".utf8),
            "V1.yml": Array(Self.item.utf8),
            "V2.yml": Array((Self.item.replacingOccurrences(of: "V1", with: "V2") + "      price: {type: Double, optional: true}\n").utf8),
        ])
        let run = try strata("diff", dir, "V1", "V2")
        #expect(run.status == 0)
        #expect(run.out == """
        Shop V1 → V2: lightweight, 1 step
          + attribute Item.price [lightweight]
          (no migration block from V1 in V2: renames are not inferred, so renamed names show as removed and added)
          how the runtime runs it (strata sql --from V1 --to V2 prints the SQL):
            Item: changed in place, rows untouched (added price)

        """)
        let json = try strata("diff", dir, "V1", "V2", "--format", "json")
        #expect(json.out.contains("\"action\" : \"addAttribute\""))
        let unknown = try strata("diff", dir, "V1", "V7")
        #expect(unknown.status == 2)
        #expect(unknown.err == "error: the model has no version 'V7'; it has V1, V2\n")
    }

    @Test func hostileFilesFailCleanly() throws {
        let manifest = Array("model: Shop\nmigrationChain: [V1]\n".utf8)
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let nested = Array((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8)
        var bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { bomb += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        let large = Array(repeating: UInt8(ascii: "#"), count: 10 * 1024 * 1024)
        let cases: [(String, [UInt8], String)] = [
            ("binary", [0xFF, 0xFE, 0x00, 0x01] + garbage, "V1.yml:1:1: error: file is not valid UTF-8 (byte 0xFF at offset 0)"),
            ("nesting", nested, "V1.yml:1:65: error: nesting is deeper than 64 levels"),
            ("bomb", Array(bomb.utf8), "V1.yml:6:45: error: aliases expand this document past 1000000 nodes; a model file never needs that many"),
            ("large", large, "V1.yml:1:1: error: file is 10485760 bytes; a model file may be at most 8388608 bytes"),
        ]
        for (name, bytes, message) in cases {
            let dir = try folder(["model.yml": manifest, "V1.yml": bytes])
            let run = try strata("verify", dir)
            #expect(run.status == 2, "\(name)")
            #expect(run.out.hasPrefix(dir + "/" + message + "\n"), "\(name): \(run.out)")
            #expect(try strata("lock", dir).status == 2, "\(name)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/V1.yml")) == Data(bytes), "\(name) was modified")
        }
    }
}

@Suite("strata generate")
struct GenerateCommandTests {
    private func strata(_ arguments: String...) throws -> Run {
        try runStrata(arguments)
    }

    private func model(_ version: String) throws -> String {
        let path = TestFolders.url("strata-gen").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data("model: Shop\nmigrationChain: [V1]\n".utf8).write(to: URL(fileURLWithPath: path + "/model.yml"))
        try Data(version.utf8).write(to: URL(fileURLWithPath: path + "/V1.yml"))
        return path
    }

    @Test func writesOnlyWhatChanged() throws {
        let dir = try model(CLITests.item)
        let out = dir + "/out"
        #expect(try strata("generate", dir, "--output", out).status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        let shards = (1...64).map { "ShopEntities\($0).swift" }  // GeneratedFileNames.shardCount
        #expect(files == (shards + ["ShopImporters.swift", "ShopMigrations.swift", "ShopOpenAPI.swift", "ShopSchemaHistory.swift", "ShopSchemaVersions.swift"]).sorted())
        let entities = out + "/ShopSchemaHistory.swift"
        let before = try FileManager.default.attributesOfItem(atPath: entities)[.modificationDate] as? Date
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: entities)
        #expect(try strata("generate", dir, "--output", out).status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: entities)[.modificationDate] as? Date == Date(timeIntervalSince1970: 0))
        #expect(before != nil)
        #expect(try strata("generate", dir, "--output", out, "--file-prefix", "App").status == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/AppEntities1.swift"))
        #expect(FileManager.default.fileExists(atPath: out + "/AppSchemaVersions.swift"))
    }

    /// Snapshots once had files of their own: an output folder an earlier Strata wrote still holds
    /// them, and they would declare every snapshot twice. Files of the app's own stay.
    @Test func filesAnEarlierStrataGeneratedAreDeletedAndReportedByCheck() throws {
        let dir = try model(CLITests.item)
        let out = dir + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let header = "// Generated by strata 0.1.0 from model Shop, version V1. Do not edit.\nimport Foundation\n"
        let own = ["ShopSnapshots2.swift": "// the app's own\n", "ShopSnapshotsHelpers.swift": header, "OtherSnapshots1.swift": header]
        let leftovers = ["ShopSnapshots1.swift": header, "ShopEntities70.swift": header, "ShopEntities.swift": header]
        for (name, text) in own.merging(leftovers, uniquingKeysWith: { $1 }) {
            try Data(text.utf8).write(to: URL(fileURLWithPath: out + "/" + name))
        }
        let check = try strata("generate", dir, "--output", out, "--check")
        #expect(check.status == 1)
        #expect(check.err.contains("""
            error: \(out)/ShopEntities.swift was generated by an earlier Strata and is no longer written
            error: \(out)/ShopEntities70.swift was generated by an earlier Strata and is no longer written
            error: \(out)/ShopSnapshots1.swift was generated by an earlier Strata and is no longer written

            """))
        #expect(FileManager.default.fileExists(atPath: out + "/ShopSnapshots1.swift"), "--check deleted a file")

        #expect(try strata("generate", dir, "--output", out).status == 0)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        #expect(files.isDisjoint(with: ["ShopSnapshots1.swift", "ShopEntities70.swift", "ShopEntities.swift"]))
        for (name, text) in own {
            #expect(try String(contentsOfFile: out + "/" + name, encoding: .utf8) == text, "\(name) was touched")
        }
        #expect(try strata("generate", dir, "--output", out, "--check").status == 0)
    }

    @Test func modelErrorsAndChangedLocksWriteNothing() throws {
        let broken = try model("version: V1\nentities:\n  Item: {attributes: {name: Strng}}\n")
        let run = try strata("generate", broken, "--output", broken + "/out")
        #expect(run.status == 2)
        #expect(run.err.contains("unknown type 'Strng' for attribute 'Item.name'; did you mean 'String'?"))
        #expect(!FileManager.default.fileExists(atPath: broken + "/out"))

        let sealed = try model(CLITests.item)
        #expect(try strata("lock", sealed).status == 0)
        let path = sealed + "/V1.yml"
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "name: String", with: "name: Int64")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let changed = try strata("generate", sealed, "--output", sealed + "/out")
        #expect(changed.status == 1)
        #expect(changed.err.contains("version 'V1' no longer matches its lock"))
        #expect(!FileManager.default.fileExists(atPath: sealed + "/out"))
    }
}

@Suite("strata init")
struct InitCommandTests {
    private func strata(_ arguments: String...) throws -> Run {
        try runStrata(arguments)
    }

    @Test func scaffoldsAValidModelANewcomerCanBuildOn() throws {
        let parent = TestFolders.url("strata-init").path
        let created = try strata("init", "Notes", "--directory", parent)
        #expect(created.status == 0)
        #expect(created.out.hasPrefix("created \(parent)/Notes/model.yml and \(parent)/Notes/V1.yml\n"))
        let verify = try strata("verify", parent + "/Notes")
        #expect(verify.status == 1)
        #expect(verify.out.hasSuffix("Notes: 1 version, 1 unsealed; not verified\n"))
        #expect(try strata("generate", parent + "/Notes", "--output", parent + "/out").status == 0)
        let again = try strata("init", "Notes", "--directory", parent)
        #expect(again.status == 2)
        #expect(again.err == "error: \(parent)/Notes already exists; nothing was written\n")
        let invalid = try strata("init", "my-model", "--directory", parent)
        #expect(invalid.status == 2)
        #expect(invalid.err == "error: 'my-model' is not a valid model name; names start with a letter or '_' and go on with letters, digits or '_'\n")
    }
}

@Suite("strata sql")
struct SQLCommandTests {
    @Test func printsTheRuntimesDDL() throws {
        let folder = TestFolders.url("strata-sql").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("model: Shop\nmigrationChain: [V1]\n".utf8).write(to: URL(fileURLWithPath: folder + "/model.yml"))
        try Data("""
        version: V1
        entities:
          Item:
            attributes:
              name: {type: String, indexed: true}
              "code": {type: String, unique: true, storageKey: "we\\"ird"}
            relationships:
              tags: {destination: Tag, inverse: items, toMany: unordered}
          Tag:
            relationships:
              items: {destination: Item, inverse: tags, toMany: ordered}

        """.utf8).write(to: URL(fileURLWithPath: folder + "/V1.yml"))
        let run = try runStrata(["sql", folder])
        let text = run.out
        #expect(run.status == 0)
        #expect(text == """
        -- Shop V1
        CREATE TABLE "strata_metadata" (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
        CREATE TABLE "strata_sequence" (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
        CREATE TABLE "Item" ("strata_id" INTEGER PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, "we""ird" TEXT NOT NULL);
        CREATE INDEX "strata_index_Item_1" ON "Item" ("name");
        CREATE UNIQUE INDEX "strata_unique_Item_2" ON "Item" ("we""ird");
        CREATE TABLE "Tag" ("strata_id" INTEGER PRIMARY KEY NOT NULL);
        CREATE TABLE "strata_link_Item_4_tags" (owner INTEGER NOT NULL, target INTEGER NOT NULL, position INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (owner, target)) WITHOUT ROWID;
        CREATE INDEX "strata_link_Item_4_tags_target" ON "strata_link_Item_4_tags" (target);
        CREATE TABLE "strata_link_Tag_3_items" (owner INTEGER NOT NULL, target INTEGER NOT NULL, position INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (owner, target)) WITHOUT ROWID;
        CREATE INDEX "strata_link_Tag_3_items_target" ON "strata_link_Tag_3_items" (target);

        """)
    }

    /// A two-version model whose second version renames an attribute and adds a required one.
    private func migratingModel(added: String) throws -> String {
        let folder = TestFolders.url("strata-sql").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let files = [
            "model.yml": Array("model: Shop\nmigrationChain: [V1, V2]\n".utf8),
            "V1.yml": Array("version: V1\nentities:\n  Item:\n    attributes:\n      name: String\n".utf8),
            "V2.yml": Array(("version: V2\nentities:\n  Item:\n    attributes:\n      title: String\n      \(added)\n"
                             + "migration:\n  from: V1\n  entities:\n    Item:\n      attributes:\n        title: {renamedFrom: name}\n").utf8),
        ]
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        return folder
    }

    @Test func sqlPrintsTheMigrationBetweenTwoVersions() throws {
        let dir = try migratingModel(added: "count: {type: Int32, default: 7}")
        let run = try runStrata(["sql", dir, "--from", "V1"])
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("""
        -- Shop V1 → V2 (lightweight)
        ALTER TABLE "Item" RENAME COLUMN "name" TO "title";
        ALTER TABLE "Item" ADD COLUMN "count" INTEGER NOT NULL DEFAULT 7;
        UPDATE "strata_metadata" SET value = ? WHERE key = 'version'; -- bound: 'V2'

        """))
    }

    @Test func aStepTheRuntimeCannotInferIsAModelError() throws {
        let dir = try migratingModel(added: "count: Int32")
        let run = try runStrata(["sql", dir, "--from", "V1", "--to", "V2"])
        #expect(run.status == 2)
        #expect(run.out == "")
        #expect(run.err == "\(dir)/V2.yml:8:3: error: V1 → V2 cannot be inferred: attribute Item.count (existing rows need a value: make it optional "
                + "or give it a default); mark Item 'transform: custom' in the migration block from V1 and implement its step\n")
        let verify = try runStrata(["verify", dir])
        #expect(verify.status == 2)
        #expect(verify.out.contains("V1 → V2 cannot be inferred: attribute Item.count"))
    }

    @Test func sqlNamesAVersionTheModelDoesNotHaveOrAPathTheChainLacks() throws {
        let dir = try migratingModel(added: "count: {type: Int32, default: 7}")
        let unknown = try runStrata(["sql", dir, "--from", "V0"])
        #expect(unknown.status == 2)
        #expect(unknown.err == "error: the model has no version 'V0'; it has V1, V2\n")
        let backwards = try runStrata(["sql", dir, "--from", "V2", "--to", "V1"])
        #expect(backwards.status == 2)
        #expect(backwards.err == "error: the migration chain does not lead from V2 to V1\n")
    }
}
