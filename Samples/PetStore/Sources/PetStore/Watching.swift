import Foundation
import Strata

extension Demo {
    /// Imports the fixture twice in a background task while a list monitor of the people, on
    /// the main actor, prints each change set it receives: what a table view would apply.
    static func importWhileWatching(_ stack: DataStack) async throws {
        let monitor = try stack.monitorList(From<Person>().orderBy(.ascending(\.name)))
        let watching = Task {
            for try await update in monitor.updates {
                let changes = update.changes
                print("people list: \(changes.inserted.count) inserted, \(changes.updated.count) updated, \(changes.moved.count) moved,",
                      "\(changes.deleted.count) deleted; now \(update.snapshot.count):",
                      monitor.objects.map(\.name).joined(separator: ", "))
            }
        }
        // People are uniqued by `personID`, so importing twice updates instead of duplicating.
        let importing = Task.detached {
            for _ in 1...2 {
                try await stack.perform { transaction in
                    let people = try JSONSerialization.jsonObject(with: Fixture.json) as? [[String: Any]] ?? []
                    _ = try transaction.importUniqueObjects(Into<Person>(), sourceArray: people)
                }
            }
        }
        try await importing.value
        // Every commit reached the monitor before its `perform` returned: the watcher prints what
        // is left, then stops.
        watching.cancel()
        try await watching.value
    }
}
