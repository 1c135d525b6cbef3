import Foundation
import ArgumentParser
import StrataConvert

/// `strata convert MODEL.xcdatamodeld OUTPUT [--chain V1,V2,...] [--current NAME]`
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Converts an Xcode Core Data model into a Strata model folder, one sealed version file per model version.",
        discussion: """
        Versions are chained in natural name order (MyModel, MyModel 2, MyModel 10), or in the order --chain \
        gives; the last is the current version. --current NAME ends the chain at NAME. When .xccurrentversion \
        names another current version, or none, the chain is converted as given and a warning says so. Whatever does not carry over as it was \
        (a transformable value's class, fetched properties, fetch requests, renamed names) is listed as a warning \
        at its place in the Core Data model.

        Examples:
          strata convert MyApp.xcdatamodeld Sources/MyApp/Models/MyApp
          strata convert MyApp.xcdatamodeld Models/MyApp --chain "MyApp,MyApp 2,MyApp 3"
          strata convert MyApp.xcdatamodeld Models/MyApp --current "MyApp 2"

        Exit status: 0 when converted (warnings on standard error), 2 when nothing was written: the input \
        cannot be read, the output folder is not empty, or the converted model is not valid.
        """
    )

    @Argument(help: "The .xcdatamodeld bundle (or a single .xcdatamodel).", completion: .directory)
    var model: String

    @Argument(help: "The model folder to create; it must not exist or be empty.", completion: .directory)
    var output: String

    @Option(help: "The versions to convert, oldest first, separated by commas (Xcode's names or the converted ones).")
    var chain: String?

    @Option(help: "The current version, which ends the chain (Xcode's name or the converted one); by default the last of the chain.")
    var current: String?

    @OptionGroup var common: CommonOptions

    func run() throws {
        let converted: ConvertedModel
        Output.progress("reading \(model)…", quiet: common.quiet)
        defer { Output.progressDone(quiet: common.quiet) }
        do {
            let bundle = try ModelBundle.read(path: model)
            Output.progress("converting \(bundle.versions.count) versions of \(bundle.name)…", quiet: common.quiet)
            converted = try ModelConverter.convert(bundle, chain: chain.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } },
                                                   current: current)
        } catch {
            Output.error("\(error)\n")
            throw ExitCode(2)
        }
        let sealed: [String]
        Output.progress("checking and sealing \(converted.name)…", quiet: common.quiet)
        do {
            sealed = try ConvertedModelWriter.write(converted, to: output)
        } catch {
            Output.error("\(error)\n")
            throw ExitCode(2)
        }
        Output.progressDone(quiet: common.quiet)
        for warning in converted.warnings { Output.error("\(warning)\n") }
        if common.quiet { return }
        Output.out("converted \(converted.versions.count) version\(converted.versions.count == 1 ? "" : "s") of \(converted.name) into \(output), "
                   + "sealed: \(sealed.joined(separator: ", ")); \(converted.warnings.count) warning\(converted.warnings.count == 1 ? "" : "s")\n")
    }
}
