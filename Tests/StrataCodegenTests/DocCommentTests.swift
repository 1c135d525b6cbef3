import Foundation
import StrataSchema
import Testing
@testable import StrataCodegen

/// `doc:` keys become the generated declarations' doc comments, one `///` line per line of text,
/// so no text can end the comment.
@Suite("Doc comments from doc: keys")
struct DocCommentTests {
    @Test func textBecomesCommentLines() {
        #expect(SwiftSyntax.docLines(nil) == [])
        #expect(SwiftSyntax.docLines("  \n ") == [])
        #expect(SwiftSyntax.docLines("One line.") == [" One line."])
        #expect(SwiftSyntax.docLines("\nFirst  \n\nthird\n\n") == [" First", "", " third"])
        #expect(SwiftSyntax.docLines("a\r\nb\rc\u{2028}d\u{2029}e\u{85}f\u{0B}g\u{0C}h") == [" a", " b", " c", " d", " e", " f", " g", " h"])
        #expect(SwiftSyntax.docLines("}\nfunc injected() {}") == [" }", " func injected() {}"])
    }

    @Test func theSampleModelsDocsReachItsClasses() throws {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/PetStore/Sources/PetStore/Models/PetStore").path
        let model = try #require(ModelLoader.load(directory: sample).model)
        let files = try CodeGenerator().generate(model)
        let text = files.map(\.contents).joined()
        #expect(text.contains("""
            /// A customer of the store. People are uniqued by `personID` when imported,
            /// so importing the same JSON twice updates them.
            ///
            /// The `Person` entity of PetStore V3.
            public final class Person: StrataObject {
            """))
        #expect(text.contains("""
                /// The customer number the shop's back office gives out.
                ///
                /// `personID`: Int64, unique.
            """))
        #expect(text.contains("    /// The person's dogs; deleting the person deletes them.\n    ///\n    /// `pets`: to-many Dog."))
        #expect(text.contains("/// The pet store's data, from its first release to this one.\n///\n/// The PetStore model:"))
    }
}
