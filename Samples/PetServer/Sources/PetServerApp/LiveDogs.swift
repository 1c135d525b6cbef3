import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import Strata

/// `GET /dogs/live`: the list of dogs (by nickname, then creation) as server-sent events. The
/// first event, `list`, holds every dog; then each change of the list, whichever app server
/// committed it, arrives as events of one change set, in the order a client applies them:
///
/// - `deleted`: `{"index": old index, "objectID": …}`, highest index first;
/// - `moved`: `{"from": old index, "to": new index, "dog": {…}}` (each dog a `Dog.Snapshot`);
/// - `inserted`: `{"index": new index, "dog": {…}}`, lowest index first;
/// - `updated`: `{"index": new index, "dog": {…}}`.
///
/// One list monitor, on the main actor, serves every client; each client's stream has its own
/// buffer, and a client that falls behind gets the changes it missed merged. On a graceful
/// shutdown the streams end.
@MainActor
final class LiveDogs {
    let stack: DataStack
    private var monitor: ListMonitor<Dog>?

    nonisolated init(stack: DataStack) {
        self.stack = stack
    }

    /// The fetch the live list shows.
    nonisolated static var fetch: FetchChainBuilder<Dog> {
        From<Dog>().orderBy(.ascending(\.nickname), .ascending(\.createdAt))
    }

    /// The list's `list` event, and a new consumer of its updates from this state on (both taken
    /// in one turn of the main actor, so no change falls between them).
    private func subscribe() throws -> (list: String, updates: MonitorEvents<ListUpdate<Dog>>) {
        let monitor = try self.monitor ?? stack.monitorList(Self.fetch)
        self.monitor = monitor
        let dogs = monitor.objects.map(Dog.Snapshot.init)
        return (Self.event("list", try APIJSON.line(dogs)), monitor.updates)
    }

    /// The event stream's response.
    nonisolated func response() async throws -> Response {
        let (list, updates) = try await subscribe()
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                        body: ResponseBody { writer in
            try await writer.write(ByteBuffer(string: list))
            do {
                for try await update in updates.cancelOnGracefulShutdown() {
                    let text = try await self.events(for: update.changes)
                    if !text.isEmpty { try await writer.write(ByteBuffer(string: text)) }
                }
            } catch StrataError.stackClosed {
                // The server is shutting down: the stream ends as on a graceful shutdown.
            }
            try await writer.finish(nil)
        })
    }

    /// The text of the events of one change set.
    private func events(for changes: ListChangeSet<Dog>) throws -> String {
        var text = ""
        for item in changes.deleted.reversed() {
            text += Self.event("deleted", try APIJSON.line(Removal(index: item.indexPath.item, objectID: item.objectID.rowID)))
        }
        for move in changes.moved {
            text += Self.event("moved", try APIJSON.line(Move(from: move.from.item, to: move.to.item, dog: dog(move.objectID))))
        }
        for item in changes.inserted {
            text += Self.event("inserted", try APIJSON.line(Placement(index: item.indexPath.item, dog: dog(item.objectID))))
        }
        for change in changes.updated {
            text += Self.event("updated", try APIJSON.line(Placement(index: change.to.item, dog: dog(change.objectID))))
        }
        return text
    }

    /// A dog's snapshot as the main context has it now; nil for one deleted since.
    private func dog(_ id: ObjectID<Dog>) -> Dog.Snapshot? {
        stack.fetchExisting(id).map(Dog.Snapshot.init)
    }

    private static func event(_ name: String, _ data: String) -> String {
        "event: \(name)\ndata: \(data)\n\n"
    }

    private struct Removal: Encodable { var index: Int, objectID: Int64 }
    private struct Move: Encodable { var from: Int, to: Int, dog: Dog.Snapshot? }
    private struct Placement: Encodable { var index: Int, dog: Dog.Snapshot? }
}
