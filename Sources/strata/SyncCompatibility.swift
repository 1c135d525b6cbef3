import Strata
import StrataSchema
import StrataSyncEngine

/// What `strata verify --sync-compatible FROM` reports: for each version from FROM up to the
/// current one, whether a sync server at the current version can still serve devices at it, and
/// why not when it cannot (the runtime's own translation decides, so CI and the server agree).
struct SyncCompatibility: Encodable {
    /// One older version's verdict.
    struct Verdict: Encodable {
        var version: String
        var compatible: Bool
        /// Why not, when it is not.
        var reason: String?
    }

    var model: String
    var serverVersion: String
    var verdicts: [Verdict]

    var allCompatible: Bool { verdicts.allSatisfy(\.compatible) }

    /// The verdicts for `model`'s versions from `from` to the one before the current one; nil
    /// when `from` is not a version on the chain to the current one.
    init?(model: Model, from: String) {
        guard let current = model.currentVersion else { return nil }
        let path = model.manifest.chain.path(from: from)
        guard path.first == from, path.last == current.name else { return nil }
        let versions = model.versions.map { RuntimeDescriptors.modelVersion($0, in: model) }
        let history = SchemaHistory(model: model.manifest.name, versions: versions,
                                    migrationChain: Strata.MigrationChain(model.manifest.chain.versions.map(\.value)),
                                    current: current.name, entityTypes: [])
        self.model = model.manifest.name
        serverVersion = current.name
        verdicts = path.dropLast().map { version in
            switch Result(catching: { () throws(VersionRefusal) in try VersionTranslation.plan(history: history, clientVersion: version, clientLock: nil) }) {
            case .success: Verdict(version: version, compatible: true)
            case .failure(let refusal): Verdict(version: version, compatible: false, reason: refusal.reason)
            }
        }
    }

    /// The report for people.
    var text: String {
        guard !verdicts.isEmpty else { return "\(model): \(serverVersion) is the current version; no older version to check\n" }
        var lines = [allCompatible
            ? "\(model): a server at \(serverVersion) syncs with devices at \(verdicts.map(\.version).joined(separator: ", "))"
            : "\(model): a server at \(serverVersion) cannot sync with devices at \(verdicts.filter { !$0.compatible }.map(\.version).joined(separator: ", "))"]
        for verdict in verdicts {
            lines.append("  \(verdict.version): " + (verdict.reason.map { "refused: " + $0 } ?? "translated"))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
