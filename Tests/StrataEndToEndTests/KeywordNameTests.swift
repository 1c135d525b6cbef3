import Foundation
import StrataTestSupport
import Strata
import Testing

/// A model whose names are Swift keywords wherever the format takes a name (`Models/where`: the
/// model `where`, versions `class` and `in`, configurations `default` and `select`, properties
/// `self`, `Self`, `deinit`, `subscript`, `super`, `Any`, `protocol`, `type`) compiles through the
/// plugin and works: generated Swift escapes every name, and SQL quotes it.
@Suite("Keyword names end to end")
@MainActor
struct KeywordNameTests {
    @Test func everyKeywordNameCompilesAndRoundTrips() async throws {
        let stack = DataStack(`where`.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: TestFolders.url("strata-where")
            .appendingPathComponent("default.sqlite"), configuration: "default"))
        try stack.addStorageAndWait(InMemoryStore(configuration: "select"))
        let moment = Date(timeIntervalSinceReferenceDate: 1)
        try await stack.perform { transaction in
            for configuration in ["default", "select"] {
                let kind = transaction.create(Into<Kind>(configuration))
                kind.`self` = "self in \(configuration)"
                kind.`Self` = false
                kind.`deinit` = 1.5
                kind.`subscript` = "subscript"
                kind.`super` = moment
                kind.`Any` = Data([1, 2])
                let stage = transaction.create(Into<Stage>(configuration))
                stage.`protocol` = "protocol"
                stage.`operator` = 8
                stage.type = kind
            }
        }
        for configuration in ["default", "select"] {
            let kind = try #require(try stack.fetchOne(From<Kind>(configuration).where(\.`self` == "self in \(configuration)")))
            #expect(kind.`Self` == false && kind.`deinit` == 1.5 && kind.`subscript` == "subscript")
            #expect(kind.`super` == moment && kind.`Any` == Data([1, 2]))
            #expect(kind.stages.map(\.`protocol`) == ["protocol"] && kind.stages.map(\.`operator`) == [8])
            #expect(try stack.fetchCount(From<Stage>(configuration).where(\.type?.`self` == "self in \(configuration)")) == 1)
        }
        #expect(`where`.schemaHistory.versionNames == ["class", "in"])
    }
}
