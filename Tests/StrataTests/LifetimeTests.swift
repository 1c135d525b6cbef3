import Foundation
import StrataTestSupport
import Testing
@testable import Strata

@Suite("Lifetimes")
struct LifetimeTests {
    @MainActor
    @Test func theMainContextDropsObjectsNobodyHolds() async throws {
        let stack = try makeStack()
        let ids = try await addPeople((0..<5_000).map { "p\($0)" }, to: stack)
        let kept = try #require(stack.fetchExisting(ids[0]))
        do {
            let all = try stack.fetchAll(From<Person>())
            #expect(all.count == 5_000)
            // An optimized build may let go of `all` after its last use: it is held to here.
            withExtendedLifetime(all) {
                stack.main.context.purge()
                #expect(stack.main.context.registered.count == 5_000)
            }
        }
        // Once the map passes its threshold (twice what was live at the last purge), it drops what
        // only the map still holds: the 4,999 dropped people go, the kept one and the 6,000 just
        // fetched (still held by the fetch's result) stay.
        try await addPeople((0..<6_000).map { "q\($0)" }, to: stack)
        _ = try stack.fetchAll(From<Person>().where(.beginsWith(\.name, "q")))
        #expect(stack.main.context.registered.count == 6_001)
        #expect(withExtendedLifetime(kept) { stack.fetchExisting(ids[0]) === kept })
        #expect(stack.fetchExisting(ids.prefix(3)).map(\.name) == ["p0", "p1", "p2"])
    }

    /// On the main actor, the commit's delivery block (which holds the stack's main context) has
    /// finished before the test goes on, so the stack really is gone at the end of the scope.
    @MainActor
    @Test(.sqliteOnly("about the temporary file an in-memory store keeps"))
    func inMemoryStoresLeaveNoFileBehind() async throws {
        let path: String
        do {
            let stack = try makeStack()
            try await addPeople(["Ann"], to: stack)
            path = try #require(stack.core.storages.first?.path)
            #expect(FileManager.default.fileExists(atPath: path))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
