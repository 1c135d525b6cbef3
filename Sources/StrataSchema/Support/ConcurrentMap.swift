import Dispatch
import Synchronization

extension Array where Element: Sendable {
    /// `map` with the elements transformed on all cores at once, results in the elements' order.
    ///
    /// For independent, CPU-bound pieces of work (the version files of a model, the generated
    /// files): each element goes to the next free thread, so put the longest work first.
    package func concurrentMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        let results = Mutex<[Result?]>(Array<Result?>(repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let result = transform(self[index])
            results.withLock { $0[index] = result }
        }
        // concurrentPerform returns once every iteration has run, so every slot is filled.
        return results.withLock { $0.compactMap { $0 } }
    }
}
