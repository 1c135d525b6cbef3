import Testing
@testable import Strata

@Suite("Identity map")
struct RegistryTests {
    @Test func insertsFindsRemovesAndGrows() {
        var registry = Registry(capacity: 4)
        var objects: [ObjectKey: StrataObject] = [:]
        for row in 1...5_000 {
            let key = ObjectKey(storage: Int32(row % 3), table: Int32(row % 7), rowID: Int64(row))
            let object = StrataObject()
            registry[key] = object
            objects[key] = object
        }
        #expect(registry.count == 5_000)
        for (key, object) in objects { #expect(registry[key] === object) }
        for (key, _) in objects where key.rowID % 2 == 0 { registry[key] = nil }
        #expect(registry.count == 2_500)
        for (key, object) in objects {
            #expect(key.rowID % 2 == 0 ? registry[key] == nil : registry[key] === object)
        }
        // Reinserting over tombstones keeps every entry findable.
        for (key, object) in objects where key.rowID % 4 == 0 { registry[key] = object }
        #expect(registry.count == 3_750)
        #expect(Set(registry.allKeys) == Set(objects.keys.filter { $0.rowID % 2 == 1 || $0.rowID % 4 == 0 }))
        #expect(registry[ObjectKey(storage: 9, table: 9, rowID: 9)] == nil)
    }

    @Test func filteringDropsWhatTheCallerRejects() {
        var registry = Registry()
        let kept = StrataObject()
        registry[ObjectKey(storage: 0, table: 0, rowID: 1)] = kept
        registry[ObjectKey(storage: 0, table: 0, rowID: 2)] = StrataObject()
        registry.filter { !isKnownUniquelyReferenced(&$0) }
        #expect(registry.count == 1)
        #expect(registry[ObjectKey(storage: 0, table: 0, rowID: 1)] === kept)
    }

    /// Objects registered one at a time and in batches join the table in the order they came,
    /// so a later registration under a key replaces an earlier one whichever way each came.
    @Test func singlesAndBatchesJoinInTheOrderTheyCame() {
        func object(_ row: Int64) -> StrataObject {
            let object = StrataObject()
            object.rowID = row
            return object
        }
        func key(_ row: Int64) -> ObjectKey { ObjectKey(storage: -1, table: -1, rowID: row) }
        var registry = Registry()
        let first = object(1), second = object(2), replacement = object(1), third = object(3), later = object(2)
        #expect(registry.isEmpty)
        registry.insertLater(first)
        #expect(!registry.isEmpty)
        #expect(registry.countUpperBound == 1)
        registry.insert([second, replacement])
        registry.insertLater(third)
        registry.insertLater(later)
        #expect(registry.countUpperBound == 5)
        // Compared by identity (describing a bare StrataObject in a failure message would trap).
        func found(_ row: Int64) -> ObjectIdentifier? { registry[key(row)].map(ObjectIdentifier.init) }
        #expect(found(1) == ObjectIdentifier(replacement))
        #expect(found(2) == ObjectIdentifier(later))
        #expect(found(3) == ObjectIdentifier(third))
        #expect(registry.count == 3)
    }
}
