import Foundation
import Strata
import StrataCloud

/// `swift run PetStore sync …`: the pet store as a device of a running PetServer. Its model is
/// the server's own (`Models/PetServer` links to the server's folder), its store a SQLite file
/// that syncs with the server's `/sync`, so two copies of it, in two terminals, converge.
///
///     swift run PetStore sync --token TOKEN [--server URL] [--file PATH] add-dog NAME
///     swift run PetStore sync --token TOKEN [--server URL] [--file PATH] list
///     swift run PetStore sync --token TOKEN [--server URL] [--file PATH] watch
public enum SyncMode {
    /// What the command line asked for.
    struct Request {
        var server = URL(string: "http://127.0.0.1:8080/sync")!
        var token: String?
        var file = URL(fileURLWithPath: "PetStore-device.sqlite")
        var command: [String] = []
    }

    static let usage = "usage: swift run PetStore sync --token TOKEN [--server URL] [--file PATH] add-dog NAME | list | watch"

    /// Runs `arguments` (those after `sync`); returns the exit status.
    @MainActor
    public static func run(_ arguments: [String]) async -> Int32 {
        let request: Request
        do {
            request = try parse(arguments)
        } catch {
            print("\(error)\n\(usage)")
            return 64
        }
        do {
            try await perform(request)
            return 0
        } catch {
            print("error: \(error)")
            return 1
        }
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        var request = Request()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--server":
                guard let value = rest.popFirst(), let url = URL(string: value), url.scheme != nil else { throw UsageError("--server takes a URL") }
                request.server = url
            case "--token":
                guard let value = rest.popFirst(), !value.isEmpty else { throw UsageError("--token takes the token an account signs in with") }
                request.token = value
            case "--file":
                guard let value = rest.popFirst() else { throw UsageError("--file takes a path") }
                request.file = URL(fileURLWithPath: value)
            default:
                request.command = [argument] + rest
                rest = []
            }
        }
        guard request.token != nil else { throw UsageError("--token is required") }
        switch request.command.first {
        case "add-dog" where request.command.count == 2, "list" where request.command.count == 1, "watch" where request.command.count == 1:
            return request
        default:
            throw UsageError("unknown command '\(request.command.joined(separator: " "))'")
        }
    }

    @MainActor
    static func perform(_ request: Request) async throws {
        let watching = request.command.first == "watch"
        let stack = DataStack(PetServer.schemaHistory)
        let store = CloudStore(fileURL: request.file, server: request.server, contentName: "PetServer",
                               account: request.token.map { .bearer($0) }, cloudStorageOptions: watching ? [] : [.syncOnlyWhenAsked])
        try await stack.addStorage(store)
        switch request.command.first {
        case "add-dog":
            try await stack.perform { transaction in
                transaction.create(Into<Dog>()).nickname = request.command[1]
            }
            // Committed locally: kept even when the server does not answer, and pushed next time.
            do {
                try await store.sync()
                print("added \(request.command[1]); synced")
            } catch {
                print("added \(request.command[1]); not synced yet (\(error))")
            }
        case "list":
            try await store.sync()
            printDogs(try stack.fetchAll(From<Dog>(), OrderBy<Dog>(.ascending(\.nickname))))
        default:
            let monitor = try stack.monitorList(From<Dog>(), OrderBy<Dog>(.ascending(\.nickname)))
            printDogs(monitor.objects)
            for try await _ in monitor.updates {
                printDogs(monitor.objects)
            }
        }
    }

    static func printDogs(_ dogs: [Dog]) {
        // Written at once, also when the output is a file or a pipe (print would keep it in a buffer).
        let line = "dogs: " + (dogs.isEmpty ? "none" : dogs.map(\.nickname).joined(separator: ", ")) + "\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
