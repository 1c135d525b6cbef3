@testable import Strata
import Testing

@Suite("Write runs")
struct WriteRunsTests {
    /// Items tagged with their table and their place in the original order.
    private struct Item: Equatable {
        let key: Int
        let place: Int
    }

    @Test func itemsAlreadyInRunsStayAsTheyAre() {
        let items = [0, 0, 1, 1, 1, 2].enumerated().map { Item(key: $1, place: $0) }
        #expect(WriteRuns.grouped(items, by: \.key) == items)
        #expect(WriteRuns.grouped([Item](), by: \.key) == [])
    }

    @Test func interleavedItemsGatherInRunsKeepingTheirOrder() {
        let items = [0, 1, 0, 2, 1, 0].enumerated().map { Item(key: $1, place: $0) }
        #expect(WriteRuns.grouped(items, by: \.key).map(\.place) == [0, 2, 5, 1, 4, 3])
    }

    /// Over random sequences: the result is a permutation, each key one run, runs in the order of
    /// their first item, items of a run in their original order.
    @Test func everyKeyIsOneRunInFirstSeenOrder() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let count = Int.random(in: 0...40, using: &random)
            let keys = Int.random(in: 1...5, using: &random)
            let items = (0..<count).map { Item(key: Int.random(in: 0..<keys, using: &random), place: $0) }
            let grouped = WriteRuns.grouped(items, by: \.key)
            #expect(grouped.map(\.place).sorted() == Array(0..<count), "a permutation of \(items)")
            var firstSeen: [Int] = []
            for item in items where !firstSeen.contains(item.key) { firstSeen.append(item.key) }
            var runs: [Int] = []
            for item in grouped where runs.last != item.key { runs.append(item.key) }
            #expect(runs == firstSeen, "one run per key in first-seen order: \(items)")
            for key in firstSeen {
                #expect(grouped.filter { $0.key == key } == items.filter { $0.key == key }, "order within \(key)'s run: \(items)")
            }
        }
    }
}
