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
}
