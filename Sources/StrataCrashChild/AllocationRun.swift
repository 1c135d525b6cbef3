#if os(Linux)
import CMallocInfo
import Foundation
import Observation
import Strata
import StrataTesting

/// `allocations PATH N`: heap bytes per object that a fetch of N objects holds, measured in a
/// process of its own (`mallinfo2`, bytes in use, exact rather than timed) so that nothing else
/// allocates meanwhile. Prints `MAIN READER READING REGISTRAR OBJECT`:
///
/// - MAIN: per object fetched into the main context (whose objects are observable), held;
/// - READER: the same in a read context (whose objects never report to Observation);
/// - READING: what reading every attribute of every main-context object, untracked, added;
/// - REGISTRAR: what one `ObservationRegistrar` holds, which a registrar per object would add to MAIN;
/// - OBJECT: the heap block of one object itself (the rest of MAIN is the context's registry and
///   the result array).
@MainActor
enum AllocationRun {
    static func measure(_ count: Int, at url: URL) async throws -> String {
        try StoreSeeding.seedStore(at: url, history: Ledger.schemaHistory, version: "V1", objects: (1...count).map {
            SeedObject("Entry", id: Int64($0), ["commit": Int64($0), "amount": Int64($0 % 1_000)])
        })
        // No timer checking for other processes' commits: it would allocate while this measures.
        let stack = DataStack(Ledger.schemaHistory, externalCommitCheckInterval: nil)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        // A first, short fetch in each kind of context warms what the process keeps anyway.
        let warm = From<Entry>().tweak { $0.limit = 100 }
        _ = try stack.fetchAll(warm).map { $0.amount }
        _ = try await stack.read { reader in try reader.fetchAll(warm).map { $0.amount } }

        var mark = heapBytes()
        let registrars = (0..<1_000).map { _ in ObservationRegistrar() }
        let registrar = perObject(heapBytes() - mark, registrars.count)

        mark = heapBytes()
        let objects = try stack.fetchAll(From<Entry>())
        let main = perObject(heapBytes() - mark, count)

        mark = heapBytes()
        var sum: Int64 = 0
        for entry in objects { sum &+= entry.commit &+ entry.amount }
        let reading = perObject(heapBytes() - mark, count)

        let reader = try await stack.read { reader in
            let mark = heapBytes()
            let objects = try reader.fetchAll(From<Entry>())
            return withExtendedLifetime(objects) { perObject(heapBytes() - mark, count) }
        }

        let object = objects.first.map { malloc_usable_size(Unmanaged.passUnretained($0).toOpaque()) } ?? 0
        withExtendedLifetime((objects, registrars, sum)) {}
        return "\(main) \(reader) \(reading) \(registrar) \(object)"
    }

    nonisolated private static func heapBytes() -> Int { Int(mallinfo2().uordblks) }

    nonisolated private static func perObject(_ bytes: Int, _ count: Int) -> String {
        String(format: "%.1f", Double(bytes) / Double(count))
    }
}
#endif
