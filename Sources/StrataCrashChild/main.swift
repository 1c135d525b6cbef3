import Foundation
import Strata
import StrataTesting

// A child process for crash tests: the parent runs it, kills it with SIGKILL at a random moment,
// and checks what it left behind.
//
//   strata-crash-child seed PATH COWS     a store of the crash model at V1, with COWS cows
//   strata-crash-child migrate PATH       migrates it to V3, then prints "migrated"
//   strata-crash-child check PATH         prints "VERSION COWS LINKS INTEGRITY"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: strata-crash-child seed|migrate|check PATH [COWS]") }
let url = URL(fileURLWithPath: arguments[2])

switch arguments[1] {
case "seed":
    guard arguments.count == 4, let cows = Int(arguments[3]) else { fail("usage: strata-crash-child seed PATH COWS") }
    var objects = (1...10).map { SeedObject("Barn", id: Int64($0), ["name": "barn \($0)"]) }
    objects += (1...3).map { SeedObject("Tag", id: Int64($0), ["label": "tag \($0)"]) }
    for id in 1...cows {
        let name = id % 10 == 0 ? "skip \(id)" : "cow \(id)"
        objects.append(SeedObject("Cow", id: Int64(id), ["name": name, "weight": Int32(id % 900)],
                                  relationships: ["barn": [Int64(id % 10 + 1)], "tags": [Int64(id % 3 + 1)]]))
    }
    do {
        try StoreSeeding.seedStore(at: url, history: CrashModel.history(current: "V1"), version: "V1", objects: objects)
    } catch {
        fail("\(error)")
    }
case "migrate":
    let stack = DataStack(CrashModel.history(current: "V3"))
    do {
        try await stack.addStorage(SQLiteStore(fileURL: url))
        print("migrated")
    } catch {
        fail("\(error)")
    }
case "check":
    // Read with SQLite alone: the parent decides what the numbers must be.
    let path = url.path
    var database: OpaquePointer?
    guard sqlite3Open(path, &database) else { fail("cannot open \(path)") }
    func value(_ sql: String) -> String { sqlite3Scalar(database, sql) ?? "?" }
    let version = value("SELECT value FROM strata_metadata WHERE key = 'version'")
    print(version, value("SELECT count(*) FROM Cow"), value("SELECT count(*) FROM strata_link_Cow_3_tags"), value("PRAGMA integrity_check"))
default:
    fail("unknown command \(arguments[1])")
}
