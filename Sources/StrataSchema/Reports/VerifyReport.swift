/// The outcome of `strata verify` for one model folder.
public struct VerifyReport: Sendable, Codable {
    /// The folder as named.
    public var directory: String
    /// The model's name, when `model.yml` could be read.
    public var model: String?
    /// Problems in the model files, sorted.
    public var diagnostics: [Diagnostic]
    /// One status per version, in chain order; empty when the model has errors.
    public var versions: [LockStatus]

    /// Reads, validates and checks the locks of the model in `directory`.
    public init(directory: String) {
        self.init(loaded: ModelLoader.load(directory: directory))
    }

    /// Checks the locks of an already loaded model. With `proposingLocks: false`, an unsealed
    /// version's status leaves out the locks sealing it would write (``LockStatus/proposed``): what
    /// `strata generate` asks, which computes them itself. `currentLocks` holds, by version name,
    /// entities' locks in the current format already known, which are not computed again.
    public init(loaded: LoadedModel, proposingLocks: Bool = true, currentLocks: [String: [String: LockHash]] = [:]) {
        directory = loaded.directory
        model = loaded.model?.manifest.name
        diagnostics = loaded.diagnostics
        versions = []
        guard loaded.isValid, let model = loaded.model else { return }
        // Oldest first: the more steps a version is from the current one, the earlier it comes.
        let distance = { (name: String) in model.manifest.chain.path(from: name).count }
        let directory = loaded.directory
        // Each version's lock is computed and compared on its own core.
        versions = model.versions
            .sorted { (-distance($0.name), $0.name) < (-distance($1.name), $1.name) }
            .concurrentMap { version in
                LockVerifier.status(of: version, model: model.manifest.name, directory: directory, proposing: proposingLocks,
                                    current: currentLocks[version.name] ?? [:])
            }
        // A changed version that carries another version's lock was started as a copy of it.
        let locks = model.versions.compactMap { version in version.versionLock.map { (version.name, $0.entries.mapValues(\.value)) } }
        for index in versions.indices where versions[index].state == .changed {
            let name = versions[index].version
            guard let own = locks.first(where: { $0.0 == name })?.1 else { continue }
            versions[index].lockOf = locks.first { $0.0 != name && $0.1 == own }?.0
        }
    }

    /// 2 when the model has errors, 1 when a version is unsealed or changed, otherwise 0.
    public var exitCode: Int32 {
        if diagnostics.contains(where: { $0.severity == .error }) || model == nil { return 2 }
        return versions.allSatisfy { $0.state == .sealed } ? 0 : 1
    }

    /// The report for people: diagnostics, then a drift tree per changed version, then a summary.
    public var text: String { text(sealCommand: nil) }

    /// The report for people, whose hints seal with `sealCommand` (the `strata-lock` command
    /// plugin, say) instead of `strata lock DIR`; `--version V --force` is appended to reseal.
    public func text(sealCommand: String?) -> String {
        let seal = sealCommand ?? "strata lock \(directory)"
        var lines = diagnostics.map(\.description)
        for status in versions {
            switch status.state {
            case .sealed:
                continue
            case .unsealed:
                lines.append("\(status.location): error: version '\(status.version)' has no lock; run '\(seal)' to seal it")
            case .changed where status.lockOf != nil:
                lines.append("\(status.location): error: version '\(status.version)' carries the lock of version '\(status.lockOf!)', "
                             + "as a copy of its file does: remove the versionLock lines of '\(status.version)' to start a new version "
                             + "(strata new-version copies a version without them), and seal it once it ships")
            case .changed:
                lines.append("\(status.location): error: version '\(status.version)' no longer matches its lock; a sealed version must never change: "
                             + "undo the change and make it in a new version (a new file, added to migrationChain), or, only if "
                             + "'\(status.version)' never shipped, reseal it with '\(seal) --version \(status.version) --force'")
                for drift in status.drift {
                    lines.append("  \(drift.entity)")
                    if !drift.changes.isEmpty {
                        lines += drift.changes.map { "    \($0)" }
                    } else if drift.sealed == nil {
                        lines.append("    + entity (not in the lock)")
                    } else if drift.current == nil {
                        lines.append("    - entity (locked, but no longer declared)")
                    } else {
                        lines.append("    sealed \(drift.sealed!), now \(drift.current!)")
                    }
                }
                if !status.explained {
                    lines.append("  (no matching \(SealedRecord.folderName)/\(status.version).json, so only the hashes can be compared)")
                }
            }
        }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    private var summary: String {
        let name = model ?? directory
        if exitCode == 2 {
            let errors = diagnostics.filter { $0.severity == .error }.count
            return "\(name): \(errors) error\(errors == 1 ? "" : "s"); locks not checked"
        }
        let counts = [LockStatus.State.sealed, .changed, .unsealed].map { state in (state, versions.filter { $0.state == state }.count) }
        let parts = counts.filter { $0.1 > 0 }.map { "\($0.1) \($0.0.rawValue)" }
        let verdict = exitCode == 0 ? "verified" : "not verified"
        return "\(name): \(versions.count) version\(versions.count == 1 ? "" : "s"), \(parts.joined(separator: ", ")); \(verdict)"
    }
}
