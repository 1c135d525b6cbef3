import Foundation

if let contender = ProcessInfo.processInfo.environment["STRATA_BENCH_THROUGHPUT_CHILD"] {
    // A child of the pg-throughput workload.
    Task {
        do { try await PostgresThroughput.child(contender); exit(0) } catch {
            FileHandle.standardError.write(Data("strata-bench child: \(error)\n".utf8))
            exit(1)
        }
    }
    RunLoop.main.run()
}

for workload in workloads where !allWorkloads.contains(workload) {
    FileHandle.standardError.write(Data("unknown workload '\(workload)'; choose from \(allWorkloads.joined(separator: ", "))\n".utf8))
    exit(2)
}

// The main run loop serves the main queue (and so the main actor) while the workloads run. An
// async top-level `main` would wait in `sigsuspend` instead, under which valgrind cannot start
// threads, and `Scripts/count-instructions.py` runs this under valgrind.
Task { @MainActor in
    do {
        exit(try await runBenchmarks() ? 0 : 1)
    } catch {
        FileHandle.standardError.write(Data("strata-bench: \(error)\n".utf8))
        await StrataMainKeptContender.closeStacks()
        Scratch.clean()
        exit(1)
    }
}
RunLoop.main.run()
