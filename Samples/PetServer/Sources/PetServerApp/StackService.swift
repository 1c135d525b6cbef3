import Logging
import ServiceLifecycle
import Strata

/// Keeps the stack for the server's life. The application runs its services first and shuts
/// them down last, after the HTTP server has stopped taking requests and its in-flight requests
/// (and their transactions) have finished; then the stack is closed: whatever work it still has
/// finishes, its live lists end, and its connections close.
struct StackService: Service {
    let stack: DataStack
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        logger.info("the HTTP server has stopped; closing the store")
        await stack.close()
        logger.info("the store is closed")
    }
}
