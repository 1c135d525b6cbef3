import Foundation
import Testing
@testable import StrataSchema

@Suite("The PetStore sample model")
struct SampleModelTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/PetStore/Sources/PetStore/Models/PetStore").path

    @Test func isValidSealedAndVerified() {
        let report = VerifyReport(directory: Self.directory)
        #expect(report.diagnostics.isEmpty)
        #expect(report.exitCode == 0)
        #expect(report.text == "PetStore: 3 versions, 3 sealed; verified\n")
    }

    @Test func usesEveryAttributeType() throws {
        let model = try #require(ModelLoader.load(directory: Self.directory).model)
        let current = try #require(model.currentVersion)
        let types = Set(current.entities.flatMap(\.attributes).map(\.type))
        #expect(types == Set(AttributeType.allCases))
    }
}
