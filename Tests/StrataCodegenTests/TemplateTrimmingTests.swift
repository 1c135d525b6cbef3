import Stencil
import Testing
@testable import StrataCodegen

/// Trimming a template's source once must render exactly what Stencil's smart trimming renders.
@Suite("Template trimming")
struct TemplateTrimmingTests {
    /// A small deterministic generator (SplitMix64), so a failure reproduces.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((value ^ (value >> 31)) % UInt64(bound))
        }
    }

    private func render(_ template: String, smart: Bool) throws -> String {
        let source = smart ? template : TemplateTrimming.trimmed(template)
        let environment = Environment(loader: DictionaryLoader(templates: ["t": source]), trimBehaviour: smart ? .smart : .nothing)
        return try environment.renderTemplate(name: "t", context: ["flag": true, "off": false, "items": ["a", "b"], "name": "N"])
    }

    /// Random text of spaces, tabs, line feeds, letters and braces between random tags.
    private func randomTemplate(_ random: inout Random) -> String {
        let texts = [" ", "  ", "\t", "\n", " \n", "\t \n  ", "x", "y z", "{ ", " }", "\n\n", "a  \n  b"]
        var template = ""
        var open: [String] = []
        for _ in 0..<(1 + random.next(12)) {
            for _ in 0..<random.next(3) { template += texts[random.next(texts.count)] }
            switch random.next(6) {
            case 0: template += "{{ name }}"
            case 1: template += "{% if flag %}"; open.append("{% endif %}")
            case 2: template += "{% if off %}"; open.append("{% else %}Q{% endif %}")
            case 3: template += "{% for item in items %}{{ item }}"; open.append("{% endfor %}")
            case 4: if let last = open.popLast() { template += last }
            default: template += "{# note #}"
            }
        }
        for _ in 0..<random.next(2) { template += texts[random.next(texts.count)] }
        while let last = open.popLast() { template += last + texts[random.next(texts.count)] }
        return template
    }

    @Test func randomTemplatesRenderTheSameAsSmartTrimming() throws {
        var random = Random(state: 0x5EED)
        for _ in 0..<1_000 {
            let template = randomTemplate(&random)
            let expected: String
            do { expected = try render(template, smart: true) } catch { Issue.record("\(error) in \(template.debugDescription)"); return }
            let actual: String
            do { actual = try render(template, smart: false) } catch { Issue.record("\(error) in \(template.debugDescription)"); return }
            #expect(actual == expected, "template: \(template.debugDescription)")
        }
    }

    @Test func theBuiltInTemplatesKeepTheirOutput() throws {
        for (name, template) in BuiltinTemplates.all {
            #expect(TemplateTrimming.trimmed(template).count < template.count, "\(name)")
        }
        #expect(TemplateTrimming.trimmed("a\n    {% if x %}\n    b\n    {% endif %}\nc") == "a\n{% if x %}    b\n{% endif %}c")
        #expect(TemplateTrimming.trimmed("{{ a }}  {# c #}  \n") == "{{ a }}  {# c #}  \n")
    }

    @Test func tidyFoldsBlankLinesAndTrailingSpaces() {
        #expect(CodeGenerator.tidy("\n\nA  \n\n\n B \n\n") == "A\n\n B\n")
        #expect(CodeGenerator.tidy("") == "\n")
        #expect(CodeGenerator.tidy(" \n \n") == "\n")
        #expect(CodeGenerator.tidy("é  \n🐶") == "é\n🐶\n")
    }
}
