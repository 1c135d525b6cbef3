import Stencil
import Testing
@testable import StrataCodegen

@Suite("Template filters")
struct TemplateFiltersTests {
    private func render(_ template: String, _ context: [String: Any]) throws -> String {
        let environment = Environment(extensions: [TemplateFilters.makeExtension()])
        return try environment.renderTemplate(string: template, context: context)
    }

    @Test func linesIndentsEveryLineAfterTheFirst() throws {
        let text = try render("    {{ items|lines:4 }}\n", ["items": ["a = 1", "b = 2", "c = 3"]])
        #expect(text == "    a = 1\n    b = 2\n    c = 3\n")
    }

    @Test func linesEndsEveryLineWithTheGivenText() throws {
        let text = try render("[\n  {{ items|lines:2,\",\" }}\n]", ["items": ["x", "y"]])
        #expect(text == "[\n  x,\n  y,\n]")
    }

    @Test func linesWritesTheSameTextAsALoop() throws {
        let items = ["one", "two", "three"]
        let loop = try render("{% for item in items %}        {{ item }}\n{% endfor %}", ["items": items])
        let filter = try render("        {{ items|lines:8 }}\n", ["items": items])
        #expect(loop == filter)
    }

    @Test func linesOfAnEmptyArrayIsEmpty() throws {
        #expect(try render("{{ items|lines:8 }}", ["items": [String]()]) == "")
    }

    @Test func linesRefusesWhatIsNotAnArray() throws {
        #expect {
            _ = try render("{{ name|lines:8 }}", ["name": "text"])
        } throws: { error in
            "\(error)" == "'lines' expects an array of lines, not Optional(\"text\")"
        }
    }

    @Test(arguments: ["{{ items|lines }}", "{{ items|lines:\"eight\" }}", "{{ items|lines:-1 }}", "{{ items|lines:1,\",\",\";\" }}"])
    func linesRefusesABadIndentation(template: String) throws {
        #expect {
            _ = try render(template, ["items": ["x"]])
        } throws: { error in
            "\(error)" == "'lines' expects the indentation in spaces and an optional line ending, such as lines:8 or lines:8,\",\""
        }
    }
}
