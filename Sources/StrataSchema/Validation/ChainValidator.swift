/// Checks the migration chain against itself and against the version files.
enum ChainValidator {
    static func validate(_ model: Model, someVersionFilesUnread: Bool = false, into diagnostics: inout Diagnostics) {
        let chain = model.manifest.chain
        if let loop = firstLoop(chain) {
            diagnostics.error("'migrationChain' loops: \(loop.joined(separator: " → "))", at: chain.location)
            return
        }
        let leaves = chain.leaves
        if leaves.count > 1 {
            diagnostics.error("'migrationChain' ends in several versions (\(leaves.joined(separator: ", "))); every version must lead to one current version",
                              at: chain.location)
        }
        let declared = Set(model.versions.map(\.name))
        for version in chain.versions where !declared.contains(version.value) && !someVersionFilesUnread {
            diagnostics.error("'migrationChain' names version '\(version.value)', but no version file declares it", at: version.location)
        }
        let chained = Set(chain.versions.map(\.value))
        for version in model.versions where !chained.contains(version.name) {
            diagnostics.error("version '\(version.name)' has no place in 'migrationChain' of \(model.manifest.file)", at: version.location)
        }
    }

    /// The first cycle found, written as the versions walked, or nil.
    private static func firstLoop(_ chain: MigrationChain) -> [String]? {
        for start in chain.versions.map(\.value) {
            var path = [start]
            var current = start
            while let next = chain.successor(of: current) {
                if let index = path.firstIndex(of: next) {
                    return Array(path[index...]) + [next]
                }
                path.append(next)
                current = next
            }
        }
        return nil
    }
}
