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
        let seal = "swift package --allow-writing-to-package-directory strata-lock"
        let status = try ModelFolders.run(try context.tool(named: "strata").url,
                                          ["verify"] + folders.map(\.path) + ["--seal-command", seal] + arguments)
        if status != 0 { throw ModelFolders.Failure(command: "strata verify", status: status) }
    }
}
