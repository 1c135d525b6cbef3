import Hummingbird
import NIOCore
import StrataSyncServer

/// Mounts Strata's sync server at `/sync`: each request's method, path, bearer token and body go
/// to the `SyncServer`, and its answer comes back as it is.
enum SyncRoute {
    /// The most bytes a sync request's body may hold (the sync server says why it refuses more).
    static let bodyLimit = 8 << 20 + 1

    static func add(_ sync: SyncServer, to router: Router<BasicRequestContext>) {
        router.post("sync/**") { request, context in
            let body = try await request.body.collect(upTo: bodyLimit)
            let answer = await sync.respond(method: request.method.rawValue, path: request.uri.path, mountedAt: "/sync",
                                            authorization: request.headers[.authorization], body: Array(buffer: body))
            return Response(status: .init(code: answer.status), headers: [.contentType: answer.contentType],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
    }
}
