import Foundation
import Testing
@testable import StrataSchema

@Suite("Model diagrams")
struct GraphTests {
    static let v1 = """
        version: V1
        entities:
          Animal:
            abstract: true
            attributes:
              name: {type: String, default: "Rex \\"the\\" dog"}
          Dog:
            parent: Animal
            relationships:
              owner: {destination: Person, inverse: pets}
          Person:
            attributes:
              email: {type: String, unique: true}
              age: {type: Int16, optional: true}
            relationships:
              pets: {destination: Dog, inverse: owner, toMany: ordered, min: 1}
              friends: {destination: Person, inverse: friends, toMany: unordered}
          Cat: {}

        """

    static let v2 = """
        version: V2
        entities:
          Animal:
            abstract: true
            attributes:
              name: {type: String, default: "Rex \\"the\\" dog"}
          Dog:
            parent: Animal
            relationships:
              owner: {destination: Human, inverse: pets}
          Human:
            attributes:
              email: {type: String, unique: true}
              years: {type: Int64, optional: true}
              phone: {type: String, optional: true}
            relationships:
              pets: {destination: Dog, inverse: owner, toMany: ordered, min: 1}
          Fish: {}
        migration:
          from: V1
          entities:
            Human:
              renamedFrom: Person
              attributes:
                years: {renamedFrom: age}

        """

    private func model() throws -> Model {
        let fixture = try ModelFixture(["model.yml": "model: Zoo\nmigrationChain: [V1, V2]\n", "V1.yml": Self.v1, "V2.yml": Self.v2])
        let loaded = fixture.load()
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        return try #require(loaded.model)
    }

    @Test func aVersionAsMermaid() throws {
        let model = try model()
        let text = MermaidDiagram.render(ModelGraph(model: model, version: try #require(model.version(named: "V1"))))
        #expect(text == """
            ---
            title: Zoo V1
            ---
            erDiagram
                Animal {
                    abstract entity "abstract"
                    String name "default 'Rex 'the' dog'"
                }
                Dog
                Person {
                    String email UK
                    Int16 age "optional"
                }
                Cat
                Dog |o..|| Animal : "is a"
                Dog }|--o| Person : "owner / pets"
                Person }o--o{ Person : "friends / friends"

            """)
    }

    @Test func aVersionAsDot() throws {
        let model = try model()
        let text = DotDiagram.render(ModelGraph(model: model, version: try #require(model.version(named: "V1"))))
        #expect(text.hasPrefix("digraph \"Zoo V1\" {\n"))
        #expect(text.contains(##"    "Animal" [label=<<table border="0" cellborder="1" cellspacing="0" cellpadding="4"><tr><td bgcolor="#e5e7eb"><b>Animal</b> <i>(abstract)</i></td></tr><tr><td align="left">name: String <i>(default 'Rex &quot;the&quot; dog')</i></td></tr></table>>];"##))
        #expect(text.contains(#"    "Dog" -> "Animal" [style=dashed, dir=forward, arrowhead=empty];"#))
        #expect(text.contains(#"    "Dog" -> "Person" [label="owner / pets", arrowhead=teeodot, arrowtail=crowtee];"#))
        #expect(text.contains(#"    "Person" -> "Person" [label="friends / friends", arrowhead=crowodot, arrowtail=crowodot];"#))
        #expect(text.hasSuffix("}\n"))
    }

    @Test func aStepMarksWhatItChanges() throws {
        let model = try model()
        let graph = ModelGraph(model: model, from: try #require(model.version(named: "V1")), to: try #require(model.version(named: "V2")))
        #expect(graph.title == "V1 → V2")
        let marks = Dictionary(uniqueKeysWithValues: graph.boxes.map { ($0.name, $0.mark) })
        #expect(marks == ["Animal": .none, "Dog": .none, "Human": .renamed(from: "Person", changes: []), "Fish": .added, "Cat": .removed])
        let human = try #require(graph.boxes.first { $0.name == "Human" })
        #expect(human.attributes.map { "\($0.name): \($0.mark.text ?? "-")" }
            == ["email: -", "years: renamed from age; type Int16 → Int64", "phone: added"])
        #expect(graph.lines.map { "\($0.from.entity).\($0.from.relationship): \($0.mark.text ?? "-")" }
            == ["Dog.owner: -", "Person.friends: removed"])
        let text = MermaidDiagram.render(graph)
        #expect(text.contains("    style Fish fill:#dcfce7,stroke:#15803d\n"))
        #expect(text.contains("    style Cat fill:#fee2e2,stroke:#b91c1c\n"))
        #expect(text.contains("    style Human fill:#fef9c3,stroke:#a16207\n"))
        #expect(text.contains("        Int64 years \"renamed from age; type Int16 → Int64, optional\"\n"))
        #expect(text.contains("    Person }o--o{ Person : \"friends / friends (removed)\"\n"))
        let dot = DotDiagram.render(graph)
        #expect(dot.contains("<s>age: Int16") == false)
        #expect(dot.contains(##"color="#b91c1c", style=dashed"##))
    }

    @Test func namesAndTextCannotBreakTheDiagram() {
        #expect(MermaidDiagram.name("Café") == "\"Café\"")
        #expect(MermaidDiagram.name("Person") == "Person")
        #expect(MermaidDiagram.token("9lives") == "x9lives")
        #expect(MermaidDiagram.comment("say \"hi\"\nnow") == "say 'hi' now")
        #expect(DotDiagram.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(DotDiagram.html("<b>&\"") == "&lt;b&gt;&amp;&quot;")
    }

    /// The command line reference shows the sample's diagram; it must be what `strata graph`
    /// prints for it today.
    @Test func theReferenceShowsTheSamplesCurrentDiagram() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("Sources/Strata/Strata.docc/CommandLineReference.md"), encoding: .utf8)
        let marker = "<!-- graph: Samples/PetStore/Sources/PetStore/Models/PetStore -->\n```mermaid\n"
        let start = try #require(readme.range(of: marker))
        let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
        let model = try #require(ModelLoader.load(directory: SampleModelTests.directory).model)
        let rendered = MermaidDiagram.render(ModelGraph(model: model, version: try #require(model.currentVersion)))
        #expect(String(readme[start.upperBound..<end.lowerBound]) == rendered, "run: strata graph Samples/PetStore/Sources/PetStore/Models/PetStore")
    }
}
