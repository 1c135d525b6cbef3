import Foundation

/// One way of doing the workloads.
protocol Contender: Sendable {
    var name: String { get }
    func insert(_ rows: [Row], path: String) async throws -> Checksum
    /// Imports the sources (decoding a JSON document first) into a database holding the
    /// workload's prefill; `rows` of the result is the table's row count afterwards.
    func importUnique(_ input: ImportInput, path: String) async throws -> Checksum
    func fetchAll(path: String) async throws -> Checksum
    func smallQueries(path: String) async throws -> Checksum
    func aggregate(path: String) async throws -> Checksum
    /// Whether the contender runs `workload` (all of them unless it says otherwise).
    func takesPart(in workload: String) -> Bool
}

extension Contender {
    func takesPart(in workload: String) -> Bool { true }
}

/// `STRATA_BENCH_CONTENDERS=strata,raw` limits the run (for profiling one contender).
let selected = ProcessInfo.processInfo.environment["STRATA_BENCH_CONTENDERS"].map { Set($0.split(separator: ",").map(String.init)) }
let contenders: [any Contender] = [StrataContender(), StrataMainContender(), StrataMainKeptContender(), RawContender(), GRDBContender()].filter { selected?.contains($0.name) ?? true }
let allWorkloads = ["insert"] + ImportSources.workloads + ["fetch", "small-queries", "aggregate"] + MigrationBench.workloads + [StreamBench.workload]
    + [ObservationBench.workload, TelemetryBench.workload]
    + MonitorBench.workloads + SyncBench.workloads + PostgresBench.workloads
let arguments = Array(CommandLine.arguments.dropFirst())
let workloads = arguments.isEmpty ? allWorkloads : arguments
let rounds = Int(ProcessInfo.processInfo.environment["STRATA_BENCH_ROUNDS"] ?? "") ?? 5
/// The pause after each timed run, outside the timing (see the round loop).
let settleMilliseconds = Int(ProcessInfo.processInfo.environment["STRATA_BENCH_SETTLE_MS"] ?? "") ?? 100
/// `STRATA_BENCH_SETUP_ONLY=1` does everything but the timed work, so that an instruction count of
/// this run, subtracted from one of a whole run, is the timed work's (`Scripts/count-instructions.py`).
let setupOnly = ProcessInfo.processInfo.environment["STRATA_BENCH_SETUP_ONLY"] == "1"
/// `STRATA_BENCH_SCALE=0.001` shrinks every workload's sizes by that factor (at least one row),
/// so CI runs each workload once, quickly, and the benchmark cannot rot unseen.
let scale = Double(ProcessInfo.processInfo.environment["STRATA_BENCH_SCALE"] ?? "") ?? 1

/// A workload's size at this run's scale.
func scaled(_ size: Int) -> Int { max(1, Int((Double(size) * scale).rounded())) }

/// The machine's load average over the last minute when the line is printed, so a figure taken
/// on a busy machine shows it.
func loadAverage() -> String {
    var loads = [Double](repeating: 0, count: 3)
    return getloadavg(&loads, 3) > 0 ? String(format: "%.2f", loads[0]) : "?"
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
/// The median of each round's time over raw's time in the same round. Rounds interleave the
/// contenders, so a round's times are taken moments apart: when the machine's speed drifts over a
/// run (a virtual machine's does), this ratio moves less than the ratio of the two medians, which
/// may pair one contender's fast round with the other's slow one.
func pairedRatio(_ values: [Double], _ raw: [Double]) -> Double {
    let ratios = zip(values, raw).compactMap { $1 > 0 ? $0 / $1 : nil }
    return ratios.isEmpty ? 0 : median(ratios)
}
/// The contender's fastest round over raw's fastest. On a shared machine noise only ever adds time
/// (another tenant runs, the machine waits), so the fastest round of each is the nearest to the
/// work's own cost, and this ratio moves least from run to run.
func fastestRatio(_ values: [Double], _ raw: [Double]) -> Double {
    guard let fastest = values.min(), let rawFastest = raw.min(), rawFastest > 0 else { return 0 }
    return fastest / rawFastest
}
func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// Runs the workloads named on the command line (all by default) and prints their figures;
/// false when a contender's results differed from the others'.
@MainActor
func runBenchmarks() async throws -> Bool {
    /// Each contender's database, filled once by its own insert, for the read workloads.
    var prepared: [String: String] = [:]
    for contender in contenders where workloads.contains(where: { ["fetch", "small-queries", "aggregate"].contains($0) && contender.takesPart(in: $0) }) {
        let path = Scratch.path("\(contender.name)-read")
        _ = try await contender.insert(Row.all, path: path)
        prepared[contender.name] = path
    }

    /// What a workload leaves in the scratch folder goes when it ends, whether it failed or not,
    /// but for the read workloads' databases.
    let kept = Array(prepared.values)
    var failed = false

    // Migration workloads: Strata and the same SQL by hand; GRDB takes no part (its migrations are
    // the app's own SQL, which is what the raw contender is).
    for workload in workloads where MigrationBench.workloads.contains(workload) {
        defer { Scratch.clean(keeping: kept) }
        let model = MigrationBench.model(workload)
        let seed = try await MigrationBench.seed(workload, model: model)
        var timings: [String: [Double]] = [:]
        var checksums: [String: Checksum] = [:]
        for _ in 0..<rounds {
            for contender in ["strata", "raw"] where selected?.contains(contender) ?? true {
                let path = try MigrationBench.copy(seed, for: contender)
                let start = ContinuousClock.now
                if contender == "strata" {
                    try await MigrationBench.strata(model, path: path)
                } else {
                    MigrationBench.raw(workload, model: model, path: path)
                }
                timings[contender, default: []].append(milliseconds(ContinuousClock.now - start))
                checksums[contender] = MigrationBench.checksum(workload, path: path)
            }
        }
        if let reference = checksums["raw"], let strata = checksums["strata"], strata != reference {
            print("MISMATCH workload=\(workload) contender=strata got \(strata) expected \(reference)")
            failed = true
        }
        let rawMedian = timings["raw"].map(median) ?? 0
        for contender in ["strata", "raw"] {
            guard let values = timings[contender] else { continue }
            let value = median(values)
            print("BENCH workload=\(workload) contender=\(contender) median_ms=\(String(format: "%.2f", value)) ratio_vs_raw=\(String(format: "%.2f", rawMedian > 0 ? value / rawMedian : 0)) load=\(loadAverage())")
        }
    }

    // Streaming: time and the rise of peak resident memory while reading 1,000,000 rows.
    if workloads.contains(StreamBench.workload) {
        defer { Scratch.clean(keeping: kept) }
        let path = try await StreamBench.seed()
        var timings: [String: [Double]] = [:]
        var peaks: [String: [Double]] = [:]
        var checksums: [String: Checksum] = [:]
        for _ in 0..<rounds {
            for contender in StreamBench.contenders where selected?.contains(contender.split(separator: "-").first.map(String.init) ?? contender) ?? true {
                StreamBench.resetPeak()
                let before = StreamBench.memory().resident
                let start = ContinuousClock.now
                checksums[contender] = try await StreamBench.run(contender, path: path)
                timings[contender, default: []].append(milliseconds(ContinuousClock.now - start))
                peaks[contender, default: []].append(Double(StreamBench.memory().peak - before) / 1024)
            }
        }
        for (name, checksum) in checksums.sorted(by: { $0.key < $1.key }) where checksum != checksums["raw"] {
            print("MISMATCH workload=\(StreamBench.workload) contender=\(name) got \(checksum) expected \(checksums["raw"].map(String.init(describing:)) ?? "none")")
            failed = true
        }
        let rawMedian = timings["raw"].map(median) ?? 0
        for contender in StreamBench.contenders {
            guard let values = timings[contender], let peak = peaks[contender] else { continue }
            let value = median(values)
            print("BENCH workload=\(StreamBench.workload) contender=\(contender) median_ms=\(String(format: "%.2f", value)) "
                  + "ratio_vs_raw=\(String(format: "%.2f", rawMedian > 0 ? value / rawMedian : 0)) peak_rss_rise_mib=\(String(format: "%.1f", median(peak))) load=\(loadAverage())")
        }
    }

    // Observation's cost when nobody observes: fetch and read every property, with and without it.
    if workloads.contains(ObservationBench.workload), selected?.contains("strata") ?? true {
        defer { Scratch.clean(keeping: kept) }
        let path = Scratch.path("observation")
        _ = try await StrataContender().insert(Row.all, path: path)
        var totals: [String: [Double]] = [:]
        var reads: [String: [Double]] = [:]
        var checksums: [String: Checksum] = [:]
        for _ in 0..<rounds {
            for contender in ObservationBench.contenders {
                let (checksum, timing) = try await ObservationBench.run(contender, path: path)
                checksums[contender] = checksum
                totals[contender, default: []].append(timing.total)
                reads[contender, default: []].append(timing.reads)
            }
        }
        for (name, checksum) in checksums.sorted(by: { $0.key < $1.key }) where checksum != checksums["strata-plain"] {
            print("MISMATCH workload=\(ObservationBench.workload) contender=\(name) got \(checksum) expected \(String(describing: checksums["strata-plain"]))")
            failed = true
        }
        let plainTotal = median(totals["strata-plain"] ?? [])
        let plainReads = median(reads["strata-plain"] ?? [])
        for contender in ObservationBench.contenders {
            let total = median(totals[contender] ?? [])
            let read = median(reads[contender] ?? [])
            print("BENCH workload=\(ObservationBench.workload) contender=\(contender) median_ms=\(String(format: "%.2f", total)) "
                  + "ratio_vs_plain=\(String(format: "%.2f", plainTotal > 0 ? total / plainTotal : 0)) reads_ms=\(String(format: "%.2f", read)) "
                  + "reads_ratio_vs_plain=\(String(format: "%.2f", plainReads > 0 ? read / plainReads : 0)) load=\(loadAverage())")
        }
    }

    // StrataTelemetry's cost with no backend: one-object transactions with and without it.
    if workloads.contains(TelemetryBench.workload), selected?.contains("strata") ?? true {
        defer { Scratch.clean(keeping: kept) }
        var timings: [String: [Double]] = [:]
        var checksums: [String: Checksum] = [:]
        for _ in 0..<rounds {
            for contender in TelemetryBench.contenders {
                let (checksum, timing) = try await TelemetryBench.run(contender)
                checksums[contender] = checksum
                timings[contender, default: []].append(timing)
            }
        }
        if checksums["strata-telemetry"] != checksums["strata"] {
            print("MISMATCH workload=\(TelemetryBench.workload) contender=strata-telemetry got \(String(describing: checksums["strata-telemetry"])) "
                  + "expected \(String(describing: checksums["strata"]))")
            failed = true
        }
        for contender in TelemetryBench.contenders {
            let value = median(timings[contender] ?? [])
            print("BENCH workload=\(TelemetryBench.workload) contender=\(contender) median_ms=\(String(format: "%.2f", value)) "
                  + "ratio_vs_strata=\(String(format: "%.3f", pairedRatio(timings[contender] ?? [], timings["strata"] ?? []))) load=\(loadAverage())")
        }
    }

    // Monitors: the median time per change, from commit to the change at the consumer, one run each
    // (2,000 changes); Strata's per-change cost as the list grows is printed beside GRDB's.
    for workload in workloads where MonitorBench.workloads.contains(workload) {
        defer { Scratch.clean(keeping: kept) }
        let rows = MonitorBench.rows(workload)
        var results: [String: (times: [Double], count: Int)] = [:]
        if selected?.contains("strata") ?? true { results["strata"] = try await MonitorBench.strata(rows) }
        if selected?.contains("grdb") ?? true { results["grdb"] = try await MonitorBench.grdb(rows) }
        if let strata = results["strata"], let grdb = results["grdb"], strata.count != grdb.count || strata.times.count != grdb.times.count {
            print("MISMATCH workload=\(workload) contender=strata got \(strata.count) objects, \(strata.times.count) changes; grdb \(grdb.count), \(grdb.times.count)")
            failed = true
        }
        let grdbMedian = results["grdb"].map { median($0.times) } ?? 0
        for contender in ["strata", "grdb"] {
            guard let result = results[contender], !result.times.isEmpty else { continue }
            let value = median(result.times)
            print("BENCH workload=\(workload) contender=\(contender) median_ms=\(String(format: "%.3f", value)) "
                  + "ratio_vs_grdb=\(String(format: "%.3f", grdbMedian > 0 ? value / grdbMedian : 0)) objects=\(result.count) load=\(loadAverage())")
        }
    }

    // Sync's workloads; what they leave in the scratch folder goes when they end.
    if workloads.contains(where: SyncBench.workloads.contains) {
        defer { Scratch.clean(keeping: kept) }
        if try await !SyncBench.run(workloads) { failed = true }
    }
    if try await !PostgresBench.run(workloads) { failed = true }
    Scratch.clean(keeping: kept)

    for workload in workloads where !MigrationBench.workloads.contains(workload) && workload != StreamBench.workload
        && workload != ObservationBench.workload && workload != TelemetryBench.workload
        && !MonitorBench.workloads.contains(workload) && !SyncBench.workloads.contains(workload) && !PostgresBench.workloads.contains(workload) {
        defer { Scratch.clean(keeping: kept) }
        var timings: [String: [Double]] = [:]
        var checksums: [String: Checksum] = [:]
        var importJSON: Data?
        // Interleave contenders round by round so machine noise hits all of them alike.
        for _ in 0..<rounds {
            for contender in contenders where contender.takesPart(in: workload) {
                // The import's starting database and JSON document are made before the clock starts.
                var importPath = ""
                var importInput: ImportInput?
                if let imports = ImportSources.named(workload) {
                    importPath = Scratch.path("\(contender.name)-\(workload)")
                    _ = try await contender.insert(imports.prefill, path: importPath)
                    if importJSON == nil { importJSON = imports.json() }
                    importInput = ImportSources.input(workload, json: importJSON!)
                }
                if setupOnly { continue }
                let start = ContinuousClock.now
                let checksum: Checksum
                switch workload {
                case "insert": checksum = try await contender.insert(Row.all, path: Scratch.path(contender.name))
                case "import", "import-150k", "import-dict-150k": checksum = try await contender.importUnique(importInput!, path: importPath)
                case "fetch": checksum = try await contender.fetchAll(path: prepared[contender.name]!)
                case "small-queries": checksum = try await contender.smallQueries(path: prepared[contender.name]!)
                default: checksum = try await contender.aggregate(path: prepared[contender.name]!)
                }
                let elapsed = ContinuousClock.now - start
                timings[contender.name, default: []].append(milliseconds(elapsed))
                // What a contender leaves to background threads after it returns (a read context
                // ends, and frees its objects, after its caller resumes) must not land in the
                // next contender's time: let it finish first.
                try await Task.sleep(for: .milliseconds(settleMilliseconds))
                if ProcessInfo.processInfo.environment["STRATA_BENCH_EACH_ROUND"] == "1" {
                    print("ROUND workload=\(workload) contender=\(contender.name) ms=\(String(format: "%.2f", milliseconds(elapsed)))")
                }
                checksums[contender.name] = checksum
            }
        }
        let reference = checksums["raw"]
        for (name, checksum) in checksums.sorted(by: { $0.key < $1.key }) where reference != nil && checksum != reference {
            print("MISMATCH workload=\(workload) contender=\(name) got \(checksum) expected \(reference.map(String.init(describing:)) ?? "none")")
            failed = true
        }
        let rawMedian = timings["raw"].map(median) ?? 0
        for contender in contenders {
            guard let values = timings[contender.name] else { continue }
            let value = median(values)
            let paired = timings["raw"].map { pairedRatio(values, $0) } ?? 0
            let fastest = timings["raw"].map { fastestRatio(values, $0) } ?? 0
            print("BENCH workload=\(workload) contender=\(contender.name) median_ms=\(String(format: "%.2f", value)) ratio_vs_raw=\(String(format: "%.2f", rawMedian > 0 ? value / rawMedian : 0)) "
                  + "paired_ratio_vs_raw=\(String(format: "%.2f", paired)) fastest_ratio_vs_raw=\(String(format: "%.2f", fastest)) load=\(loadAverage())")
        }
    }
    await StrataMainKeptContender.closeStacks()
    Scratch.clean()
    return !failed
}
