import Foundation
import StrataTestSupport
import Testing

/// `strata convert` as a user runs it.
@Suite("strata convert")
struct ConvertCommandTests {
    static let garden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("StrataConvertTests/Fixtures/Garden.xcdatamodeld").path

    private func temporaryFolder() -> String {
        TestFolders.url("strata-convert-cli").path
    }

    @Test func convertsSealsAndListsWhatDidNotCarryOver() throws {
        let parent = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let output = parent + "/Garden"
        let run = try runStrata(["convert", Self.garden, output])
        #expect(run.status == 0)
        #expect(run.out == "converted 3 versions of Garden into \(output), sealed: Garden, Garden2, Garden3; 30 warnings\n")
        #expect(run.err.split(separator: "\n").count == 30)
        #expect(run.err.contains("\(Self.garden)/Garden 3.xcdatamodel/contents:87:5: warning: fetch request 'BigPlots' of 'Plot' is not carried over"))
        let verify = try runStrata(["verify", output])
        #expect(verify.status == 0)
    }

    @Test func badInputWritesNothingAndExits2() throws {
        let parent = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let missing = try runStrata(["convert", parent + "/Nothing.xcdatamodeld", parent + "/Out"])
        #expect(missing.status == 2)
        #expect(missing.err == "error: \(parent)/Nothing.xcdatamodeld is not a folder; give a .xcdatamodeld bundle or a .xcdatamodel\n")
        let chain = try runStrata(["convert", Self.garden, parent + "/Out", "--chain", "Garden, Garden 3", "--current", "Garden 2"])
        #expect(chain.status == 2)
        #expect(chain.err == "error: --current names 'Garden 2', but --chain ends at 'Garden 3'; the current version ends the chain\n")
        #expect(!FileManager.default.fileExists(atPath: parent + "/Out"))
    }

    @Test func currentEndsTheChainWithWarnings() throws {
        let parent = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let output = parent + "/Garden"
        let run = try runStrata(["convert", Self.garden, output, "--current", "Garden 2"])
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("converted 2 versions of Garden into \(output), sealed: Garden, Garden2; "))
        #expect(run.err.contains("warning: version 'Garden 3' comes after the current version 'Garden 2' (--current), so it is not converted\n"))
        #expect(run.err.contains("\(Self.garden)/.xccurrentversion:6:2: warning: .xccurrentversion names 'Garden 3' as the current version; "
                                 + "--current makes it 'Garden 2'\n"))
        #expect(try runStrata(["verify", output]).status == 0)
    }
}
