import Foundation
import Testing

/// `strata graph` as a user runs it.
@Suite("strata graph")
struct GraphCommandTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/PetStore/Sources/PetStore/Models/PetStore").path

    @Test func printsMermaidDotAndSteps() throws {
        let mermaid = try runStrata(["graph", Self.sample])
        #expect(mermaid.status == 0 && mermaid.out.hasPrefix("---\ntitle: PetStore V3\n---\nerDiagram\n"))
        let dot = try runStrata(["graph", Self.sample, "V1", "--format", "dot"])
        #expect(dot.status == 0 && dot.out.hasPrefix("digraph \"PetStore V1\" {\n"))
        let step = try runStrata(["graph", Self.sample, "--diff", "V2", "V3"])
        #expect(step.status == 0 && step.out.contains("    style Vet fill:#dcfce7,stroke:#15803d\n"))
        #expect(step.out.contains("    Dog }o--o| Vet : \"vet / patients (added)\"\n"))
        #expect(step.out.contains("        URL website \"renamed from homepage, optional\"\n"))
    }

    @Test func badArgumentsExit2() throws {
        let unknown = try runStrata(["graph", Self.sample, "V9"])
        #expect(unknown.status == 2 && unknown.err == "error: the model has no version 'V9'; it has V1, V2, V3\n")
        let one = try runStrata(["graph", Self.sample, "--diff", "V2"])
        #expect(one.status == 2 && one.err == "error: --diff takes two versions, and no version argument beside them\n")
        let both = try runStrata(["graph", Self.sample, "V1", "--diff", "V2", "V3"])
        #expect(both.status == 2)
        let missing = try runStrata(["graph", Self.sample, "--diff", "V2", "V7"])
        #expect(missing.status == 2 && missing.err == "error: the model has no version 'V7'; it has V1, V2, V3\n")
        #expect(missing.out.isEmpty)
    }
}
