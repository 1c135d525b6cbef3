import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One server-sent event: its name and its data, parsed as JSON.
struct ServerEvent: @unchecked Sendable {
    // (`data` holds what JSONSerialization made of one event's text: arrays, dictionaries,
    // strings and numbers, never mutated after parsing.)
    let name: String
    let data: Any
}

/// A client of `GET /dogs/live`: the events as they arrive, until the server ends the stream.
final class EventStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Sound because URLSession calls the delegate on its delegate queue, which runs one operation
    // at a time (maxConcurrentOperationCount 1), and `pending` is touched only there.
    private var pending = ""
    private let continuation: AsyncStream<ServerEvent>.Continuation
    /// The events, in order; the sequence ends when the server closes the stream.
    let events: AsyncStream<ServerEvent>
    private var session: URLSession!

    init(url: URL) {
        (events, continuation) = AsyncStream.makeStream(of: ServerEvent.self)
        super.init()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = 3_600
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        session.dataTask(with: url).resume()
    }

    /// Closes the connection.
    func close() {
        session.invalidateAndCancel()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        pending += String(decoding: data, as: UTF8.self)
        while let end = pending.range(of: "\n\n") {
            let block = pending[..<end.lowerBound]
            pending.removeSubrange(..<end.upperBound)
            var name = "message"
            var text = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { text += line.dropFirst(6) }
            }
            let parsed = (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) ?? text
            continuation.yield(ServerEvent(name: name, data: parsed))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.finish()
    }
}
