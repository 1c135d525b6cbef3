import Foundation
import StrataTestSupport
import Testing
@testable import StrataCodegen
import StrataSchema

/// `strata openapi`'s document, compared with committed references for the sample and the
/// end-to-end test models (CI also validates them with openapi-spec-validator). After an
/// intended change, regenerate them with `strata openapi MODEL --output
/// Tests/StrataCodegenTests/OpenAPIReference/NAME.json` (Exact-deferred with `--dates deferred`).
@Suite("OpenAPI documents")
struct OpenAPIDocumentTests {
    static let reference = CodegenTests.root.appendingPathComponent("Tests/StrataCodegenTests/OpenAPIReference")
    static let models = CodegenTests.root.appendingPathComponent("Tests/StrataEndToEndTests/Models")

    private func document(_ folder: String, dates: OpenAPIDateFormat = .iso8601) throws -> String {
        let model = try #require(ModelLoader.load(directory: folder).model)
        let version = try #require(model.currentVersion)
        return OpenAPIDocument(model: model, version: version, dates: dates).text
    }

    @Test(arguments: ["PetStore", "Shop", "Exact", "Clinic", "Hostile", "Exact-deferred"])
    func documentMatchesItsReference(name: String) throws {
        let folder = name == "PetStore" ? CodegenTests.sample : Self.models.appendingPathComponent(name.replacingOccurrences(of: "-deferred", with: "")).path
        let text = try document(folder, dates: name.hasSuffix("-deferred") ? .deferred : .iso8601)
        let expected = try String(contentsOf: Self.reference.appendingPathComponent(name + ".json"), encoding: .utf8)
        #expect(text == expected, "\(name).json differs from the document")
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
    }

    /// The generated constant holds the same document as the command writes.
    @Test func theGeneratedConstantIsTheDocument() throws {
        let model = try #require(ModelLoader.load(directory: CodegenTests.sample).model)
        let file = try #require(try CodeGenerator(access: .public).generate(model).first { $0.name == "PetStoreOpenAPI.swift" })
        let document = try document(CodegenTests.sample)
        #expect(file.contents.contains("public static let openAPIDocument: String = " + SwiftSyntax.stringLiteral(document) + "\n"))
    }

    @Test func namesOutsideWhatComponentsAllowAreSpelledOut() {
        #expect(OpenAPIDocument.componentName("Dog") == "Dog")
        #expect(OpenAPIDocument.componentName("class") == "class")
        #expect(OpenAPIDocument.componentName("Hund🐶") == "Hund_u1F436")
        #expect(OpenAPIDocument.componentName("a.b c") == "a_u2Eb_u20c")
    }

    @Test func textIsEscapedAsJSON() {
        #expect(JSONText.quoted("a\"b\\c\nd\u{1}\u{2028}🧪") == #""a\"b\\c\nd\u0001\u2028🧪""#)
        #expect(JSONText.object([("k", .array([])), ("o", .object([]))]).text == "{\n  \"k\": [],\n  \"o\": {}\n}\n")
    }
}
