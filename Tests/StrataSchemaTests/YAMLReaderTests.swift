import Testing
@testable import StrataSchema

@Suite("YAML reader")
struct YAMLReaderTests {
    private func read(_ text: String, limits: YAMLLimits = .standard) -> YAMLReader.Result {
        YAMLReader.read(Array(text.utf8), file: "m.yml", limits: limits)
    }

    private func messages(_ text: String, limits: YAMLLimits = .standard) -> [String] {
        read(text, limits: limits).diagnostics.map(\.description)
    }

    @Test func nodesKnowTheirPositions() throws {
        let result = read("model: Pets\nchain:\n  - V1\n  - \"V2\"\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.root)
        #expect(root["model"]?.location == SourceLocation(file: "m.yml", line: 1, column: 8))
        let items = try #require(root["chain"]?.items)
        #expect(items.map(\.location.line) == [3, 4])
        #expect(items.map(\.location.column) == [5, 5])
        guard case .scalar(let quoted) = items[1].kind else { Issue.record("expected a scalar"); return }
        #expect(quoted.text == "V2")
        #expect(!quoted.isPlain)
    }

    @Test func spansCountUnicodeScalars() throws {
        let root = try #require(read("é: [1, 2]\n").root)
        let value = try #require(root["é"])
        #expect(value.span == 3..<9)
        #expect(value.isFlow)
    }

    @Test func duplicateKeysAreReportedAtTheSecondKey() {
        #expect(messages("a: 1\nb: 2\na: 3\n") == [
            "m.yml:3:1: error: duplicate key 'a' (first defined at line 1, column 1)"
        ])
    }

    @Test func tabsUsedForIndentationAreNamed() {
        #expect(messages("a:\n\tb: 1\n") == ["m.yml:2:1: error: a tab character cannot indent YAML; use spaces"])
    }

    @Test func invalidUTF8IsPositioned() {
        let bytes: [UInt8] = Array("a: ok\nb: ".utf8) + [0xC3, 0x28] + Array("\n".utf8)
        let result = YAMLReader.read(bytes, file: "m.yml")
        #expect(result.diagnostics.map(\.description) == ["m.yml:2:4: error: file is not valid UTF-8 (byte 0xC3 at offset 9)"])
        #expect(result.root == nil)
    }

    @Test func controlCharactersAreRejected() {
        #expect(messages("a: b\u{0}c\n") == ["m.yml:1:5: error: control character U+0000 is not allowed in a YAML file"])
    }

    @Test func emptyAndCommentOnlyFilesAreErrors() {
        #expect(messages("") == ["m.yml:1:1: error: file is empty; expected a mapping of keys"])
        #expect(messages("# nothing here\n\n") == ["m.yml:1:1: error: file is empty; expected a mapping of keys"])
    }

    @Test func aSecondDocumentIsAnError() {
        #expect(messages("a: 1\n---\nb: 2\n") == ["m.yml:2:1: error: a model file holds one YAML document; a second one starts here"])
    }

    @Test func syntaxErrorsCarryLibyamlsWords() {
        #expect(messages("a: [1, 2\n") == [
            "m.yml:2:1: error: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence)"
        ])
    }

    @Test func aliasesAndMergeKeysExpand() throws {
        let root = try #require(read("base: &b {type: String, optional: true}\nname:\n  <<: *b\n  optional: false\n").root)
        let name = try #require(root["name"])
        #expect(name["type"]?.scalarText == "String")
        #expect(name["optional"]?.scalarText == "false")
        #expect(name.entries?.count == 2)
    }

    @Test func undefinedAliasIsAnError() {
        #expect(messages("a: *nope\n") == ["m.yml:1:4: error: alias '*nope' refers to no anchor defined before it"])
    }

    @Test func billionLaughsStopsAtTheBudget() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let refs = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(refs)]\n"
        }
        let result = read(text)
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.location) == [SourceLocation(file: "m.yml", line: 6, column: 45)])
        #expect(result.diagnostics.first?.message == "aliases expand this document past 1000000 nodes; a model file never needs that many")
    }

    @Test func deepNestingStopsAtTheLimit() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(messages(text) == ["m.yml:1:65: error: nesting is deeper than 64 levels"])
    }

    @Test func oversizedFilesAreRefusedBeforeParsing() {
        let limits = YAMLLimits(maximumFileSize: 10, maximumDepth: 64, maximumExpandedNodes: 100)
        #expect(messages("abcdefghijkl: 1\n", limits: limits) == [
            "m.yml:1:1: error: file is 16 bytes; a model file may be at most 10 bytes"
        ])
    }

    @Test func nonScalarKeysAreErrors() {
        #expect(messages("? [a, b]\n: 1\n") == ["m.yml:1:3: error: mapping keys must be plain names, not a sequence"])
    }
}
