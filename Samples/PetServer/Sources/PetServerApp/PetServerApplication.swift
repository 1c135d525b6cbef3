import Foundation
import Hummingbird
import Logging
import Prometheus
import Strata
import StrataSyncServer
import StrataTelemetry

/// The server: opens the store, routes `/people` and `/dogs`, syncs devices at `/sync` (the
/// content `PetServer`), serves `/metrics` and `/openapi.json`, and runs under
/// a service group that shuts down gracefully on SIGTERM or SIGINT (see ``StackService``).
public enum PetServerApplication {
    /// Builds the application for `options`; the store is opened (created or migrated) here, so
    /// a database that cannot be reached fails before the port is taken. The stack's metrics go
    /// to `metrics`, which `GET /metrics` prints in Prometheus's text format.
    public static func build(_ options: PetServerOptions, metrics: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
                             logger: Logger = Logger(label: "PetServer")) async throws -> some ApplicationProtocol {
        let telemetry = StrataTelemetry(metricsFactory: PrometheusMetricsFactory(registry: metrics))
        let (stack, storeDescription) = try await PetStack.open(options, instrumentation: telemetry)
        let router = Router(context: BasicRequestContext.self)
        // Each request a span (the stack's transaction and read spans are its children) and
        // metrics (through the bootstrapped MetricsSystem), then the store's errors as answers.
        router.add(middleware: TracingMiddleware())
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: StrataErrorMiddleware())
        router.get("health") { _, _ in "ok" }
        router.get("openapi.json") { _, _ in OpenAPIRoute.response() }
        router.get("metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.emitToBuffer())))
        }
        // Every commit from here on, the routes' included, is logged for devices.
        let accounts = options.accounts
        let sync = try await SyncServer(stack: stack, contentName: "PetServer") { token in accounts.account(for: token) }
        SyncRoute.add(sync, to: router)
        PeopleRoutes(stack: stack).add(to: router)
        DogRoutes(stack: stack, live: LiveDogs(stack: stack)).add(to: router)
        var app = Application(
            router: router,
            configuration: .init(address: .hostname(options.hostname, port: options.port), serverName: "PetServer"),
            onServerRunning: { channel in
                // One line a supervisor (or a test) can read: where the server listens, on what.
                let line = "PetServer listening on \(options.hostname):\(channel.localAddress?.port ?? options.port) (\(storeDescription))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            },
            logger: logger
        )
        app.addServices(StackService(stack: stack, logger: logger))
        return app
    }
}
