import Foundation
import PackagePlugin

/// `swift package strata-verify`: runs `strata verify` over every model folder (`Models/<Name>/`
/// with a `model.yml`) of the package's targets and its root, and fails when any version is
/// invalid, unsealed or changed.
@main
struct StrataVerifyPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let folders = ModelFolders.find(package: context.package)
        guard !folders.isEmpty else {
            Diagnostics.remark("no model folders (Models/<Name>/model.yml) in this package")
            return
        }
        let status = try ModelFolders.run(try context.tool(named: "strata").url, ["verify"] + folders.map(\.path) + arguments)
        if status != 0 {
            Diagnostics.error("strata verify failed (exit \(status))")
            throw ModelFolders.Failure.exitStatus(status)
        }
    }
}
