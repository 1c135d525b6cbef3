import Foundation
import Testing

/// The README's Swift blocks compile: each is marked `<!-- snippet: NAME -->` and is, word for word,
/// a region `// snippet: NAME` … `// end snippet` of a Swift file the build compiles (the sample
/// app, built and run by CI, or a test target), or is a file of the Quick start
/// (`<!-- quick start: PATH -->`, which `Scripts/quick-start.py` writes, builds and runs in CI), or
/// it is marked `<!-- not compiled: why -->`. Its shell blocks are run: by the Quick start script
/// (`<!-- quick start: run -->`) or, line for line, by `.ci/run` (`<!-- run by .ci/run -->`), or
/// they say why not (`<!-- not run: why -->`).
@Suite("README code")
struct ReadmeCodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Lines without the indentation they all share, blank lines at either end dropped.
    static func dedented(_ lines: [String]) -> [String] {
        var lines = lines.map { $0.trimmingCharacters(in: .newlines) }
        while lines.first?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeFirst() }
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        let indent = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? "" : String($0.dropFirst(indent)) }
    }

    /// The README's Swift blocks: the marker before each, and its lines.
    /// The README and the reference articles it moved into the documentation catalog, whose
    /// Swift blocks are checked alike.
    static func documents() throws -> [URL] {
        [root.appendingPathComponent("README.md")] + ["Runtime", "ModelFolderReference", "CommandLineReference", "GeneratedCode", "ModelsOnTheWire", "SyncingAcrossDevices"]
            .map { root.appendingPathComponent("Sources/Strata/Strata.docc/\($0).md") }
    }

    /// The Swift blocks of the README and of every article.
    static func documentedSwiftBlocks() throws -> [(marker: String, lines: [String])] {
        try documents().flatMap { try readmeBlocks("swift", in: $0) }
    }

    static func readmeBlocks(_ language: String = "swift", in file: URL? = nil) throws -> [(marker: String, lines: [String])] {
        let lines = try String(contentsOf: file ?? root.appendingPathComponent("README.md"), encoding: .utf8).components(separatedBy: "\n")
        var blocks: [(String, [String])] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```" + language else { index += 1; continue }
            let marker = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.trimmingCharacters(in: .whitespaces) ?? ""
            var body: [String] = []
            index += 1
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(lines[index])
                index += 1
            }
            blocks.append((marker, body))
            index += 1
        }
        return blocks
    }

    /// Every `// snippet: NAME` region of the Swift files under Tests/ and Samples/.
    static func compiledSnippets() throws -> [String: [String]] {
        var snippets: [String: [String]] = [:]
        for folder in ["Tests", "Samples"] {
            let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                if url.lastPathComponent.hasPrefix(".build") { enumerator?.skipDescendants(); continue }
                guard url.pathExtension == "swift" else { continue }
                let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
                var name: String?
                var body: [String] = []
                for line in lines {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    if trimmed.hasPrefix("// snippet: ") {
                        name = String(trimmed.dropFirst("// snippet: ".count))
                        body = []
                    } else if trimmed == "// end snippet", let current = name {
                        snippets[current] = dedented(body)
                        name = nil
                    } else if name != nil {
                        body.append(line)
                    }
                }
            }
        }
        return snippets
    }

    @Test func everySwiftBlockIsCompiledCode() throws {
        let blocks = try Self.documentedSwiftBlocks()
        let compiled = try Self.compiledSnippets()
        #expect(blocks.count >= 12)
        for (marker, lines) in blocks {
            if marker.hasPrefix("<!-- not compiled: ") || marker.hasPrefix("<!-- quick start: ") { continue }
            guard marker.hasPrefix("<!-- snippet: "), marker.hasSuffix(" -->") else {
                Issue.record("a README Swift block starting \(lines.first ?? "") has no <!-- snippet: NAME --> or <!-- not compiled: why --> before it")
                continue
            }
            let name = String(marker.dropFirst("<!-- snippet: ".count).dropLast(" -->".count))
            // A block may show the imports its code needs; the compiled file has them at its top.
            let shown = Self.dedented(lines.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("import ") })
            #expect(compiled[name] != nil, "README snippet '\(name)' is in no compiled file")
            #expect(compiled[name] == shown, "README snippet '\(name)' differs from the compiled one")
        }
    }

    /// `.ci/run`'s lines, continuations joined and runs of spaces made one. The words
    /// `"${shared[@]}"` are left out: `.ci/run` adds them (its shared scratch folder) to README
    /// commands it runs as written otherwise.
    static func ciLines() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(".ci/run"), encoding: .utf8).replacingOccurrences(of: "\\\n", with: " ")
        return text.components(separatedBy: "\n").map { line in
            line.split(separator: " ", omittingEmptySubsequences: true).filter { $0 != "\"${shared[@]}\"" }.joined(separator: " ")
        }
    }

    @Test func everyShellBlockIsRun() throws {
        let blocks = try Self.readmeBlocks("sh")
        let ci = try Self.ciLines()
        #expect(blocks.count >= 8)
        var quickStart = 0
        for (marker, lines) in blocks {
            switch marker {
            case "<!-- quick start: run -->":
                quickStart += 1
            case "<!-- run by .ci/run -->":
                for line in Self.dedented(lines) where !line.isEmpty {
                    for command in line.components(separatedBy: " && ") {
                        let words = command.split(separator: " ").joined(separator: " ")
                        #expect(ci.contains { $0.contains(words) }, "README command '\(words)' is not run by .ci/run")
                    }
                }
            default:
                #expect(marker.hasPrefix("<!-- not run: "), "a README shell block starting \(lines.first ?? "") says neither who runs it nor why not")
            }
        }
        #expect(quickStart >= 5)
    }

    @Test func theQuickStartScriptIsRunByCI() throws {
        #expect(try Self.ciLines().contains("python3 Scripts/quick-start.py"))
    }
}
