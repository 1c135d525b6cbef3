import Foundation
import Synchronization

/// A small HTTP/1.1 server on a loopback port, for tests that speak real HTTP (a device's
/// `URLSession`, a child process): one thread per connection, keep-alive, bodies by
/// `Content-Length`. Each request goes to an asynchronous handler.
public final class LoopbackHTTPServer: Sendable {
    /// A request as the handler sees it.
    public struct Request: Sendable {
        public let method: String
        public let path: String
        /// Header values by lowercased name.
        public let headers: [String: String]
        public let body: [UInt8]
    }

    /// An answer: its status, content type and body.
    public struct Response: Sendable {
        public let status: Int
        public let contentType: String
        public let body: [UInt8]

        public init(status: Int, contentType: String = "application/json", body: [UInt8]) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }
    }

    public typealias Handler = @Sendable (Request) async -> Response

    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let handler: Handler
    private let stopped = Atomic(false)
    private let connections = Mutex<Set<Int32>>([])

    /// Listens on `127.0.0.1:port` (0: a free port) and answers with `handler`.
    public init(port requested: Int = 0, handler: @escaping Handler) throws {
        self.handler = handler
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(requested).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 64) == 0 else {
            let code = errno
            close(socket)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        port = Int(UInt16(bigEndian: actual.sin_port))
        listener = socket
        let server = self
        Thread.detachNewThread { server.acceptConnections() }
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops listening and closes every connection.
    public func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in connections.withLock({ $0 }) { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }

    private func acceptConnections() {
        while !stopped.load(ordering: .sequentiallyConsistent) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            connections.withLock { _ = $0.insert(connection) }
            let server = self
            Thread.detachNewThread { server.serve(connection) }
        }
    }

    private func serve(_ connection: Int32) {
        defer {
            connections.withLock { _ = $0.remove(connection) }
            close(connection)
        }
        var buffer: [UInt8] = []
        while let request = readRequest(connection, &buffer) {
            let answer = Self.wait { await self.handler(request) }
            var head = "HTTP/1.1 \(answer.status) \(answer.status == 200 ? "OK" : "Status")\r\n"
            head += "Content-Type: \(answer.contentType)\r\nContent-Length: \(answer.body.count)\r\nConnection: keep-alive\r\n\r\n"
            guard writeAll(connection, Array(head.utf8) + answer.body) else { return }
        }
    }

    /// Runs `body` on Swift concurrency and blocks this (non-cooperative) thread until it ends.
    private static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    private func readRequest(_ connection: Int32, _ buffer: inout [UInt8]) -> Request? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            if let found = Self.find(separator, in: buffer) { headerEnd = found; break }
            guard read(connection, into: &buffer) else { return nil }
        }
        guard let end = headerEnd else { return nil }
        let lines = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let start = lines.first?.split(separator: " ") ?? []
        guard start.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = end + separator.count
        while buffer.count < bodyStart + length {
            guard read(connection, into: &buffer) else { return nil }
        }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeFirst(bodyStart + length)
        return Request(method: String(start[0]), path: String(start[1]), headers: headers, body: body)
    }

    private func read(_ connection: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(connection, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    private func writeAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] && Array(haystack[index..<(index + needle.count)]) == needle {
            return index
        }
        return nil
    }
}
