import Foundation
import StrataTestSupport
import Testing

/// `strata openapi` as a user runs it.
@Suite("strata openapi")
struct OpenAPICommandTests {
    @Test func writesTheDocumentToStandardOutputOrAFile() throws {
        let printed = try runStrata(["openapi", GraphCommandTests.sample])
        #expect(printed.status == 0 && printed.err.isEmpty)
        #expect(printed.out.hasPrefix("{\n  \"openapi\": \"3.1.0\",\n  \"info\": {\n    \"title\": \"PetStore\",\n    \"version\": \"V3\","))
        let old = try runStrata(["openapi", GraphCommandTests.sample, "--version", "V1"])
        #expect(old.status == 0 && old.out.contains("\"version\": \"V1\""))
        let seconds = try runStrata(["openapi", GraphCommandTests.sample, "--dates", "seconds-since-1970"])
        #expect(!seconds.out.contains("date-time") && seconds.out.contains("Seconds since 1970-01-01T00:00:00Z."))
        let file = TestFolders.url("strata-openapi").appendingPathComponent("docs/petstore.json")
        let written = try runStrata(["openapi", GraphCommandTests.sample, "--output", file.path])
        #expect(written.status == 0 && written.out.isEmpty && written.err.isEmpty)
        #expect(try String(contentsOf: file, encoding: .utf8) == printed.out)
    }

    @Test func badInputExits2AndWritesNothing() throws {
        let file = TestFolders.url("strata-openapi-bad").appendingPathComponent("out.json")
        let unknown = try runStrata(["openapi", GraphCommandTests.sample, "--version", "V9", "--output", file.path])
        #expect(unknown.status == 2 && unknown.err == "error: the model has no version 'V9'; it has V1, V2, V3\n")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let dates = try runStrata(["openapi", GraphCommandTests.sample, "--dates", "rfc1123"])
        #expect(dates.status != 0 && dates.out.isEmpty)
        #expect(dates.err.contains("The value 'rfc1123' is invalid for '--dates <dates>'"))
        let broken = try modelFolder("strata-openapi-broken", [
            "model.yml": "model: Shop\nmigrationChain: [V1]\n",
            "V1.yml": "version: V1\nentities:\n  Item:\n    attributes:\n      name: {type: Strng}\n",
        ])
        let invalid = try runStrata(["openapi", broken, "--output", file.path])
        #expect(invalid.status == 2 && invalid.out.isEmpty)
        #expect(invalid.err == "\(broken)/V1.yml:5:20: error: unknown type 'Strng' for attribute 'Item.name'; did you mean 'String'?\n")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let unwritable = try runStrata(["openapi", GraphCommandTests.sample, "--output", "/proc/strata/out.json"])
        #expect(unwritable.status == 2 && unwritable.err.hasPrefix("error: cannot write /proc/strata/out.json: "))
    }
}
