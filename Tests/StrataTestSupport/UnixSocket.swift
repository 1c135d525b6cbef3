import Foundation

/// Unix stream sockets for the test servers' helpers (the relay, the pooler's readiness): a
/// descriptor listening on a path, or connected to one.
enum UnixSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A socket bound to `path` and listening; the caller closes it.
    static func listening(on path: String) throws -> Int32 {
        try socket(at: path, doing: "listen on") { descriptor, address, length in
            bind(descriptor, address, length) == 0 && listen(descriptor, 64) == 0
        }
    }

    /// A socket connected to the one listening at `path`; the caller closes it.
    static func connected(to path: String) throws -> Int32 {
        try socket(at: path, doing: "connect to") { descriptor, address, length in connect(descriptor, address, length) == 0 }
    }

    private static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw Failure(description: "the socket path \(path) is too long for a Unix socket")
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        return address
    }

    /// A new Unix socket on which `operation` succeeded with `path`'s address; closed if it failed.
    private static func socket(at path: String, doing action: String,
                               _ operation: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Bool) throws -> Int32 {
        var address = try address(path)
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let succeeded = descriptor >= 0 && withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { operation(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard succeeded else {
            let error = errno
            if descriptor >= 0 { close(descriptor) }
            throw Failure(description: "cannot \(action) \(path): errno \(error)")
        }
        return descriptor
    }
}
