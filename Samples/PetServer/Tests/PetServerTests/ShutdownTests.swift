import Foundation
import Synchronization
import Testing

/// SIGTERM under load: the server stops taking requests, finishes those in flight, ends the live
/// streams and exits cleanly; every write it acknowledged is in the store.
@Suite("Shutting down", .timeLimit(.minutes(2)))
struct ShutdownTests {
    @Test func everyAcknowledgedWriteSurvivesSIGTERMUnderLoad() async throws {
        let database = try TestBackend.newDatabase()
        let server = try ServerProcess(database: database)
        let client = HTTPClient(baseURL: server.baseURL)
        let stream = EventStream(url: server.baseURL.appendingPathComponent("dogs/live"))
        defer { stream.close() }
        var events = stream.events.makeAsyncIterator()
        #expect(await events.next()?.name == "list")

        // Eight clients create dogs until the server stops answering; SIGTERM goes out once they
        // have 40 acknowledged between them.
        let acknowledged = Acknowledged()
        let status = try await withThrowingTaskGroup(of: Int32?.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0... {
                        let nickname = "w\(writer)-\(index)"
                        guard let answer = try? await client.post("/dogs", json: ["nickname": nickname]), answer.status == 201 else { return nil }
                        acknowledged.names.withLock { $0.append(nickname) }
                    }
                    return nil
                }
            }
            group.addTask {
                while acknowledged.names.withLock({ $0.count }) < 40 { try await Task.sleep(for: .milliseconds(5)) }
                return server.terminate()
            }
            var status: Int32?
            for try await result in group { status = status ?? result }
            return status
        }
        #expect(status == 0, "the server's output: \(server.log)")
        if !TestBackend.isPostgreSQL {
            // Closed, not merely dropped at exit: the write-ahead log was folded into the file.
            let files = try FileManager.default.contentsOfDirectory(atPath: server.folder.path)
            #expect(!files.contains { $0.hasSuffix("-wal") }, "left in the folder: \(files)")
        }
        // The stream ended (after the events of the writes it had seen).
        while let event = await events.next() { #expect(event.name != "list") }

        let written = acknowledged.names.withLock { $0 }
        let restarted = try ServerProcess(database: database, folder: server.folder)
        var stored = Set<String>()
        var offset = 0
        while true {
            let page = try #require(try await HTTPClient(baseURL: restarted.baseURL).get("/dogs?offset=\(offset)&limit=1000").json() as? [[String: Any]])
            stored.formUnion(page.compactMap { $0["nickname"] as? String })
            guard page.count == 1000 else { break }
            offset += 1000
        }
        let lost = written.filter { !stored.contains($0) }
        #expect(written.count >= 40)
        #expect(lost.isEmpty, "acknowledged but not stored: \(lost)")
        #expect(server.log.contains("the HTTP server has stopped; closing the store"))
        #expect(server.log.contains("the store is closed"))
    }

    /// The dogs the server answered 201 for, from every writer.
    final class Acknowledged: Sendable {
        let names = Mutex<[String]>([])
    }
}
