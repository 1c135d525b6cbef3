import Foundation
@testable import PetServerApp
import Strata
import StrataCloud
import Testing

/// Devices syncing with the server at `/sync`, beside its JSON API.
@Suite("Sync with devices")
struct SyncTests {
    let server: ServerProcess
    let client: HTTPClient

    init() throws {
        server = try ServerProcess(database: try TestBackend.newDatabase(), arguments: ["--accounts", "alice:t-alice,bob:t-bob"])
        client = HTTPClient(baseURL: server.baseURL)
    }

    /// A device: a stack of the server's own model over a new file, syncing when asked.
    func device(_ token: String) async throws -> (stack: DataStack, store: CloudStore) {
        let stack = DataStack(PetServer.schemaHistory)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("petserver-device-\(UUID().uuidString).sqlite")
        let store = CloudStore(fileURL: file, server: server.baseURL.appendingPathComponent("sync"), contentName: "PetServer",
                               account: .bearer(token), cloudStorageOptions: [.syncOnlyWhenAsked])
        try await stack.addStorage(store)
        return (stack, store)
    }

    @Test func devicesAndTheJSONAPISeeTheSameObjects() async throws {
        let (phone, phoneStore) = try await device("t-alice")
        try await phone.perform { transaction in
            let person = transaction.create(Into<Person>())
            person.personID = 100
            person.name = "Made on a phone"
            let dog = transaction.create(Into<Dog>())
            dog.nickname = "Pocket"
            dog.master = person
        }
        try await phoneStore.sync()
        let read = try #require(try await client.get("/people/100").json() as? [String: Any])
        #expect((read["person"] as? [String: Any])?["name"] as? String == "Made on a phone")
        #expect((read["dogs"] as? [[String: Any]])?.map { $0["nickname"] as? String } == ["Pocket"])

        #expect(try await client.post("/dogs", json: ["nickname": "Routed", "master": 100]).status == 201)
        try await phoneStore.sync()
        let names = try await phone.perform { transaction in try transaction.fetchAll(From<Dog>()).map(\.nickname).sorted() }
        #expect(names == ["Pocket", "Routed"])
        let master = try await phone.perform { transaction in try transaction.fetchOne(From<Dog>(), Where<Dog>(\.nickname == "Routed"))?.master?.personID }
        #expect(master == 100)
    }

    @Test func eachAccountKeepsItsOwnNotes() async throws {
        #expect(try await client.post("/people", json: ["personID": 5, "name": "Shared"]).status == 201)
        let (alicePhone, alicePhoneStore) = try await device("t-alice")
        let (aliceLaptop, aliceLaptopStore) = try await device("t-alice")
        let (bob, bobStore) = try await device("t-bob")
        for store in [alicePhoneStore, bobStore] { try await store.sync() }
        try await alicePhone.perform { transaction in
            let note = transaction.create(Into<Note>())
            note.body = "alice's note"
            note.person = try transaction.fetchOne(From<Person>(), Where<Person>(\.personID == 5))
        }
        try await alicePhoneStore.sync()
        try await aliceLaptopStore.sync()
        try await bobStore.sync()
        let onLaptop = try await aliceLaptop.perform { transaction in
            try transaction.fetchAll(From<Note>()).map { "\($0.body) about \($0.person?.name ?? "nobody") by \($0.account ?? "nobody")" }
        }
        #expect(onLaptop == ["alice's note about Shared by alice"])
        let bobsNotes = try await bob.perform { transaction in try transaction.fetchCount(From<Note>()) }
        #expect(bobsNotes == 0)
        let bobsPeople = try await bob.perform { transaction in try transaction.fetchAll(From<Person>()).map(\.name) }
        #expect(bobsPeople == ["Shared"])
    }

    @Test func aSyncRequestNeedsAnAccountsToken() async throws {
        let answer = try await client.send("POST", "/sync/PetServer/pull", body: Data("{}".utf8))
        #expect(answer.status == 401)
        let message = try #require(try answer.json() as? [String: Any])["error"] as? String
        #expect(message == "the request has no bearer token; send 'Authorization: Bearer <token>'")
    }
}

/// `--accounts`, the sample's stand-in for sign-in.
@Suite("The accounts option")
struct AccountsOptionTests {
    @Test func aListOfAccountsAndTokensIsRead() throws {
        let accounts = try SyncAccounts(parsing: "alice:T1,bob:T2")
        #expect(accounts.account(for: "T1") == "alice")
        #expect(accounts.account(for: "T2") == "bob")
        #expect(accounts.account(for: "alice") == nil)
    }

    @Test(arguments: [
        ("alice", "'alice' is not ACCOUNT:TOKEN; write --accounts alice:TOKEN1,bob:TOKEN2"),
        ("alice:T1,", "'' is not ACCOUNT:TOKEN; write --accounts alice:TOKEN1,bob:TOKEN2"),
        (":T1", "':T1' is not ACCOUNT:TOKEN; write --accounts alice:TOKEN1,bob:TOKEN2"),
        ("alice:T1,bob:T1", "two accounts have the token of 'bob'; each account needs a token of its own"),
    ])
    func aBadListIsRefusedWithItsReason(_ list: String, _ message: String) throws {
        #expect(throws: AccountListError(message: message)) { try SyncAccounts(parsing: list) }
    }

    @Test func theServerDoesNotStartWithABadList() throws {
        let process = Process()
        process.executableURL = ServerProcess.executable
        process.arguments = ["--port", "0", "--accounts", "alice"]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(printed.contains("Error: --accounts: 'alice' is not ACCOUNT:TOKEN; write --accounts alice:TOKEN1,bob:TOKEN2"), "\(printed)")
    }
}
