import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// Observation costs nothing per fetched object: the registrar belongs to the context, and
/// nothing is recorded for objects whose accessors nobody read.
@Suite("Observation cost")
@MainActor
struct ObservationCostTests {
    @Test func fetchedObjectsShareTheirContextsRegistrar() async throws {
        let stack = try makeStack()
        try await stack.perform { transaction in
            for index in 0..<1_000 { transaction.create(Into<Person>()).name = "P\(index)" }
        }
        let people = try stack.fetchAll(From<Person>())
        #expect(people.count == 1_000)
        #expect(Set(people.compactMap { $0.token?.registrar }).count == 1)
        #expect(!people.contains { $0.isObserved })
        _ = people[0].isDeleted
        #expect(people[0].isObserved)
        #expect(people.dropFirst().allSatisfy { !$0.isObserved })
    }

    #if os(Linux)
    /// A fetch of objects nobody tracks allocates no observation state: counted in a child
    /// process (heap bytes in use, exact), the main context's observable objects hold no more
    /// than a read context's objects and a registry entry, no more than the object itself, its
    /// registry entry and its array slot, and reading every attribute untracked allocates nothing. A registrar per
    /// object, made at once or on first read, would add what one registrar holds (136 bytes).
    @Test(Sanitizers.absent) func aFetchNobodyTracksAllocatesNoObservationState() async throws {
        let url = temporaryStoreURL("Ledger.sqlite")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let printed = try await CrashChild.run(["allocations", url.path, "10000"])
        let bytes = printed.split(separator: " ").compactMap { Double($0) }
        try #require(bytes.count == 5, "the child printed \(printed)")
        let (main, reader, reading, registrar, object) = (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4])
        #expect(registrar >= 64, "one ObservationRegistrar holds \(registrar) bytes")
        // The main context builds its registry table at once (a read context only when it needs it):
        // at most a table entry more per object, far less than a registrar.
        #expect(main - reader < registrar / 2, "a main-context object holds \(main) bytes, a read context's \(reader)")
        #expect(reading < 1, "reading every attribute added \(reading) bytes per object")
        // Besides the object itself: its entry in the context's registry and its place in the array.
        #expect(main - object <= 96, "a fetched object of \(object) bytes holds \(main) bytes in all")
        // An Entry stores three 8-byte columns (commit, amount, the account's key) after the 16-byte
        // object header and Strata's own 37 bytes (home, row id, a column word, extras, five flags):
        // 80 bytes, an 88-byte heap block. Every field added to `StrataObject` shows here.
        #expect(object <= 88, "an Entry takes a heap block of \(object) bytes")
    }
    #endif
}
