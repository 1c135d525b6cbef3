import ArgumentParser
import Foundation
import Metrics
import PetServerApp
import Prometheus

/// `swift run PetServer [--hostname H] [--port N]`: serves the pet store's JSON API from a SQLite
/// file in the current folder, or from the PostgreSQL database that `DATABASE_URL` names.
@main
struct PetServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "PetServer",
        abstract: "Serves people and their dogs as a JSON API, with a live list of dogs.",
        discussion: "Set DATABASE_URL=postgres://user@host/database to serve a PostgreSQL database (several processes may serve one); otherwise the data is kept in PetServer.sqlite in the current folder.")

    @Option(help: "The address to listen on.")
    var hostname = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8080

    @Option(help: "Who may sync at /sync, as ACCOUNT:TOKEN pairs: alice:TOKEN1,bob:TOKEN2. A stand-in for real sign-in.")
    var accounts = ""

    func validate() throws {
        guard !accounts.isEmpty else { return }
        do { _ = try SyncAccounts(parsing: accounts) } catch { throw ValidationError("--accounts: \(error.message)") }
    }

    func run() async throws {
        let options = PetServerOptions(hostname: hostname, port: port,
                                       databaseURL: ProcessInfo.processInfo.environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 },
                                       accounts: accounts.isEmpty ? SyncAccounts() : try SyncAccounts(parsing: accounts))
        // Every metric of the process (Hummingbird's requests, Strata's transactions) in one
        // registry, which GET /metrics prints.
        let metrics = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics))
        let app = try await PetServerApplication.build(options, metrics: metrics)
        try await app.runService()
    }
}
