import Foundation
import Hummingbird
import Logging
import Strata

/// The server: opens the store, routes `/people` and `/dogs`, and runs under a service group
/// that shuts down gracefully on SIGTERM or SIGINT (see ``StackService``).
public enum PetServerApplication {
    /// Builds the application for `options`; the store is opened (created or migrated) here, so
    /// a database that cannot be reached fails before the port is taken.
    public static func build(_ options: PetServerOptions, logger: Logger = Logger(label: "PetServer"))
        async throws -> some ApplicationProtocol {
        let (stack, storeDescription) = try await PetStack.open(options)
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: StrataErrorMiddleware())
        router.get("health") { _, _ in "ok" }
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
