import Foundation
import Strata
import StrataTesting

// A child process for crash tests: the parent runs it, kills it with SIGKILL at a random moment,
// and checks what it left behind.
//
//   strata-crash-child seed PATH COWS     a store of the crash model at V1, with COWS cows
//   strata-crash-child migrate PATH       migrates it to V3, then prints "migrated"
//   strata-crash-child check PATH         prints "VERSION COWS LINKS INTEGRITY"
//   strata-crash-child commit PATH        commits numbered ledger transactions until killed, printing "ack N"
//   strata-crash-child stacks PATH N      opens and closes N stacks on a ledger store, printing
//                                          "DESCRIPTORS-BEFORE DESCRIPTORS-AFTER RESIDENT-GROWTH-KIB"
//   strata-crash-child stream PATH N      seeds N ledger entries, then reads them all with fetchEach in a
//                                          read context, printing "ROWS RESIDENT-GROWTH-KIB"
//   strata-crash-child allocations PATH N seeds N ledger entries, then prints the heap bytes per object a
//                                          fetch holds: "MAIN READER READING REGISTRAR OBJECT" (see AllocationRun)
//   strata-crash-child descriptors PATH  lowers its limit on open files, then adds stacks on PATH
//                                          until one fails, printing that error
//   strata-crash-child open-as-nobody PATH  adds a ledger store at PATH, as the user nobody when run by
//                                          root (whom permissions do not stop), printing "opened" or the error
//   strata-crash-child monitor PATH COUNT  monitors a ledger store's entries that another process writes,
//                                          printing "ready", then "seen UPDATES WHOLE" at COUNT entries
//   strata-crash-child observe PATH        tracks account A's balance with Observation, printing "ready", then
//                                          "observed BEFORE TOLD AFTER" when another process changes it
//   strata-crash-child in-memory exit|wait  adds an in-memory ledger store, commits, prints "ready", then exits
//                                          with the stack alive, or waits to be killed
//   strata-crash-child prepare PATH       creates a ledger store with accounts A and B, printing "prepared"
//   strata-crash-child increment PATH N [TASKS]  adds 1 to account A's balance in N transactions, one entry
//                                          each, from each of TASKS concurrent tasks (1), printing "done N×TASKS"
//   strata-crash-child totals PATH        prints "BALANCE ENTRIES DISTINCT-IDS" of account A's ledger
//   PATH is a SQLite file, or a PostgreSQL database's postgres:// URL for commit, monitor,
//   prepare, increment and totals.
//   strata-crash-child sync-server PATH PORT  serves the Tally content of PATH over HTTP, printing "serving PORT"
//   strata-crash-child sync-device FILE URL ROUND  commits marks ROUND-N, printing "ack ROUND-N", pushing after each
//   strata-crash-child sync-drain FILE URL  syncs the device FILE until nothing waits, printing "drained"
//   strata-crash-child sync-names PATH    prints every mark's name, then "end"
//   strata-crash-child check-ledger PATH  prints "INTEGRITY COMMITS LAST WHOLE": WHOLE is 1 when commits 1...LAST
//                                          are each there with both entries and their tag, and the balances add up

/// Writes a line straight to standard output: nothing waits in a buffer that an exit under a
/// sanitizer (which leaves without flushing) or a kill would lose.
func say(_ items: Any...) {
    FileHandle.standardOutput.write(Data((items.map { "\($0)" }.joined(separator: " ") + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

/// Exits when the process that started this one is gone (a test run killed or stopped), so no
/// child outlives it holding a port, a file or a database session that the next run waits for.
func exitWithParent() {
    let parent = getppid()
    Thread.detachNewThread {
        while getppid() == parent { Thread.sleep(forTimeInterval: 0.5) }
        exit(3)
    }
}

exitWithParent()
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
        say("migrated")
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
    say(version, value("SELECT count(*) FROM Cow"), value("SELECT count(*) FROM strata_link_Cow_3_tags"), value("PRAGMA integrity_check"))
case "commit":
    do {
        try await LedgerRun.commitForever(at: childStorage(arguments[2]))
    } catch {
        fail("\(error)")
    }
case "stacks":
    guard arguments.count == 4, let count = Int(arguments[3]) else { fail("usage: strata-crash-child stacks PATH N") }
    do {
        say(try await ResourceRun.openAndClose(count, at: url))
    } catch {
        fail("\(error)")
    }
case "stream":
    guard arguments.count == 4, let count = Int(arguments[3]) else { fail("usage: strata-crash-child stream PATH N") }
    do {
        say(try await ResourceRun.stream(count, at: url))
    } catch {
        fail("\(error)")
    }
case "allocations":
    #if os(Linux)
    guard arguments.count == 4, let count = Int(arguments[3]) else { fail("usage: strata-crash-child allocations PATH N") }
    do {
        say(try await AllocationRun.measure(count, at: url))
    } catch {
        fail("\(error)")
    }
    #else
    fail("allocations are counted with glibc's mallinfo2, on Linux only")
    #endif
case "descriptors":
    say(await ResourceRun.exhaustDescriptors(at: url))
case "open-as-nobody":
    if getuid() == 0 {
        guard setgid(65_534) == 0, setuid(65_534) == 0 else { fail("cannot become nobody") }
    }
    do {
        try DataStack(Ledger.schemaHistory).addStorageAndWait(SQLiteStore(fileURL: url))
        say("opened")
    } catch {
        say("\(error)")
    }
case "monitor":
    guard arguments.count == 4, let count = Int(arguments[3]) else { fail("usage: strata-crash-child monitor PATH COUNT") }
    do {
        try await MonitorRun.watch(childStorage(arguments[2]), until: count)
    } catch {
        fail("\(error)")
    }
case "observe":
    guard arguments.count == 3 else { fail("usage: strata-crash-child observe PATH") }
    do {
        try await ObserveRun.observe(childStorage(arguments[2]))
    } catch {
        fail("\(error)")
    }
case "in-memory":
    // The stack is a global: it is still alive when the process exits.
    do {
        let stack = DataStack(Ledger.schemaHistory)
        try stack.addStorageAndWait(InMemoryStore())
        try await stack.perform(asynchronous: { transaction in transaction.create(Into<Account>()).name = "A" })
        say("ready")
        if arguments[2] == "wait" { while true { sleep(60) } }
        withExtendedLifetime(stack) { exit(0) }
    } catch {
        fail("\(error)")
    }
case "prepare":
    do {
        try await IncrementRun.prepare(childStorage(arguments[2]))
    } catch {
        fail("\(error)")
    }
case "increment":
    guard arguments.count == 4 || arguments.count == 5, let times = Int(arguments[3]), let tasks = Int(arguments.count == 5 ? arguments[4] : "1") else {
        fail("usage: strata-crash-child increment PATH N [TASKS]")
    }
    do {
        try await IncrementRun.increment(childStorage(arguments[2]), times: times, tasks: tasks)
    } catch {
        fail("\(error)")
    }
case "totals":
    do {
        try await IncrementRun.totals(childStorage(arguments[2]))
    } catch {
        fail("\(error)")
    }
case "sync-server":
    guard arguments.count == 4, let port = Int(arguments[3]) else { fail("usage: strata-crash-child sync-server PATH PORT") }
    do { try await SyncRun.serve(childStorage(arguments[2]), port: port) } catch { fail("\(error)") }
case "sync-device":
    guard arguments.count == 5 else { fail("usage: strata-crash-child sync-device FILE URL ROUND") }
    do { try await SyncRun.commitAndPush(arguments[2], server: arguments[3], round: arguments[4]) } catch { fail("\(error)") }
case "sync-drain":
    guard arguments.count == 4 else { fail("usage: strata-crash-child sync-drain FILE URL") }
    do { try await SyncRun.drain(arguments[2], server: arguments[3]) } catch { fail("\(error)") }
case "sync-names":
    do { try await SyncRun.names(childStorage(arguments[2])) } catch { fail("\(error)") }
case "check-ledger":
    // Killed before the store was created, or while its tables were: nothing was committed.
    guard FileManager.default.fileExists(atPath: url.path) else {
        say("ok 0 0 1")
        exit(0)
    }
    var database: OpaquePointer?
    guard sqlite3Open(url.path, &database) else { fail("cannot open \(url.path)") }
    func value(_ sql: String) -> String { sqlite3Scalar(database, sql) ?? "?" }
    guard value("SELECT count(*) FROM sqlite_master WHERE name = 'Entry'") == "1" else {
        say(value("PRAGMA integrity_check"), 0, 0, 1)
        exit(0)
    }
    let last = value("SELECT coalesce(max(\"commit\"), 0) FROM Entry")
    let commits = value("SELECT count(DISTINCT \"commit\") FROM Entry")
    // Every commit: two entries summing to zero, amounts ±N, each tagged once with its own tag.
    let broken = value("""
        SELECT count(*) FROM (SELECT "commit" FROM Entry GROUP BY "commit"
        HAVING count(*) != 2 OR sum(amount) != 0 OR max(amount) != "commit")
        """)
    let untagged = value("SELECT count(*) FROM Entry WHERE strata_id NOT IN (SELECT owner FROM strata_link_Entry_5_tags)")
    let tags = value("SELECT count(*) FROM Tag")
    let balanced = value("""
        SELECT count(*) FROM Account WHERE balance != (SELECT coalesce(sum(amount), 0) FROM Entry WHERE Entry.account = Account.strata_id)
        """)
    let whole = commits == last && broken == "0" && untagged == "0" && tags == last && balanced == "0" ? "1" : "0"
    say(value("PRAGMA integrity_check"), commits, last, whole)
default:
    fail("unknown command \(arguments[1])")
}
