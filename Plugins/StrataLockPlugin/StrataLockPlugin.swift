import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory strata-lock [--force] [--version V]`: seals
/// the versions of every model folder of the package with `strata lock`.
@main
struct StrataLockPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let folders = ModelFolders.find(package: context.package)
        guard !folders.isEmpty else {
            Diagnostics.remark("no model folders (Models/<Name>/model.yml) in this package")
            return
        }
        let tool = try context.tool(named: "strata").url
        for folder in folders {
            let status = try ModelFolders.run(tool, ["lock", folder.path] + arguments)
            if status != 0 { throw ModelFolders.Failure(command: "strata lock \(folder.path)", status: status) }
        }
    }
}
